package rundir

import (
	"errors"
	"fmt"
	"os"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// AgreementFile is `nl2sqlbench agreement`'s output in a run directory (docs/agreement.md).
const AgreementFile = "agreement.json"

// MaxAgreement caps agreement.json.
const MaxAgreement = 64 << 20

// Agreement is DIR/agreement.json: every 0/1 verdict of the run against expert labels
// (when a labels file was given) and against each other.
type Agreement struct {
	// Labels is the labels file ("" without one), Format its format (review.Format*).
	Labels string `json:"labels,omitempty"`
	Format string `json:"format,omitempty"`
	// System is --system: the one system compared; "" for every system, pooled.
	System string `json:"system,omitempty"`
	// LabelsRead counts the labels read; Labelled those resolved to a judged record;
	// NotJudged those whose record was skipped or a gold_error; OtherSystems those of a
	// system --system leaves out; Unmatched the NL2SQL-BUGs entries no record of the run
	// has (question and SQL); GoldWrong the gold_wrong reviews (not about a prediction).
	LabelsRead   int `json:"labels_read"`
	Labelled     int `json:"labelled"`
	NotJudged    int `json:"not_judged"`
	OtherSystems int `json:"other_systems"`
	Unmatched    int `json:"unmatched"`
	GoldWrong    int `json:"gold_wrong"`
	// KappaMethod says how kappa's interval is computed (metrics.KappaMethod).
	KappaMethod string                     `json:"kappa_method"`
	Verdicts    []metrics.VerdictAgreement `json:"verdicts"`
	// Matrix is every pair of verdicts against each other over the judged records.
	Matrix metrics.KappaMatrix `json:"matrix"`
}

// loadAgreement reads DIR/agreement.json; nil when there is none.
func loadAgreement(dir string) (*Agreement, string) {
	var a Agreement
	path, err := Resolve(dir, AgreementFile) // not a symlink out of the run
	if err == nil {
		err = readJSON(path, MaxAgreement, &a)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, ""
	}
	if err != nil {
		return nil, fmt.Sprintf("agreement: %v; section left out", err)
	}
	return &a, ""
}
