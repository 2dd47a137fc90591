package benchrun

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Comparison is one system across two runs (`compare`; its JSON is `compare --json`'s
// output): what the text prints, for programs (the Python
// package's nl2sqlbench.compare), so nothing has to parse terminal text. A and B are the
// two runs' values as their summary.json holds them; Test is the paired test (its Diff is
// A - B, as in summary.json's paired section); Change is B - A. Outcome is "regression",
// "improvement" or "no_change" at Alpha; the exit status is 3 on a regression, as without
// --json.
type Comparison struct {
	System         string             `json:"system"`
	Metric         string             `json:"metric"`
	Label          string             `json:"label"`
	HigherIsBetter bool               `json:"higher_is_better"`
	Alpha          float64            `json:"alpha"`
	RunA           string             `json:"run_a"`
	RunB           string             `json:"run_b"`
	A              *metrics.Value     `json:"a"`
	B              *metrics.Value     `json:"b"`
	Test           metrics.PairedTest `json:"test"`
	Change         float64            `json:"change"`
	ChangeText     string             `json:"change_text"`
	Outcome        string             `json:"outcome"`
	Unit           metrics.Unit       `json:"-"` // how the metric prints
}

// SameDataset refuses two runs of different datasets: a paired test over different
// questions is meaningless.
func SameDataset(a, b *rundir.Run) error {
	ma, err := a.Manifest()
	if err != nil {
		return err
	}
	mb, err := b.Manifest()
	if err != nil {
		return err
	}
	if ma.Dataset.SHA256 == "" || ma.Dataset.SHA256 != mb.Dataset.SHA256 {
		return fmt.Errorf("runs judged different datasets: %s has %s (sha256 %.12s), %s has %s (sha256 %.12s); compare needs the same questions",
			a.Dir, ma.Dataset.Path, ma.Dataset.SHA256, b.Dir, mb.Dataset.Path, mb.Dataset.SHA256)
	}
	return nil
}

// Compare sets system's metric id in run a (the baseline) against run b (the candidate):
// both values from the runs' summary.json, and the paired test over the questions both
// judged; the outcome is "regression" when the metric got significantly worse at alpha.
// The runs must be of the same dataset (SameDataset).
func Compare(a, b *rundir.Run, system, id string, alpha float64) (*Comparison, error) {
	m, ok := registryMetric(id)
	if !ok {
		return nil, configf("--metric %q is not a registry metric", id)
	}
	da, va, okA := a.Summary.Metrics.Lookup(system, id)
	_, vb, okB := b.Summary.Metrics.Lookup(system, id)
	if !okA || !okB || !va.Applicable || !vb.Applicable {
		return nil, fmt.Errorf("metric %s is not reported for %s in both runs (%s: %s; %s: %s)", id, system, a.Dir, lookupText(va, okA), b.Dir, lookupText(vb, okB))
	}
	// Paired by question index: the datasets are the same file (SameDataset).
	t, ok := metrics.ComparePaired(m, system, systemRecords(a, system), system, systemRecords(b, system))
	if !ok {
		return nil, fmt.Errorf("no question was judged in both runs for %s", system)
	}
	change := -t.Diff // B - A
	worse := (da.HigherIsBetter && change < 0) || (!da.HigherIsBetter && change > 0)
	outcome := "no_change"
	switch {
	case t.Significant(alpha) && worse:
		outcome = "regression"
	case t.Significant(alpha):
		outcome = "improvement"
	}
	return &Comparison{System: system, Metric: id, Label: da.Label,
		HigherIsBetter: da.HigherIsBetter, Alpha: alpha, RunA: a.Dir, RunB: b.Dir, A: va, B: vb,
		Test: t, Change: change, ChangeText: SignedText(da.Unit, change), Outcome: outcome, Unit: da.Unit}, nil
}

func systemRecords(r *rundir.Run, system string) []record.Record {
	for _, s := range r.Systems {
		if s.Name == system {
			return s.Records
		}
	}
	return nil
}

// registryMetric finds metric id in the registry, with the Pass@k a "pass@k" id names.
func registryMetric(id string) (*metrics.Metric, bool) {
	opt := metrics.Options{}
	if k, ok := strings.CutPrefix(id, "pass@"); ok {
		if n, err := strconv.Atoi(k); err == nil && n > 0 {
			opt.PassK = []int{n}
		}
	}
	ms := metrics.Declared(opt)
	for i := range ms {
		if ms[i].ID == id {
			return &ms[i], true
		}
	}
	return nil, false
}

func lookupText(v *metrics.Value, ok bool) string {
	if !ok || v == nil {
		return "absent"
	}
	return v.Text
}

// SignedText is a change with its sign (never "-0.00").
func SignedText(u metrics.Unit, d float64) string {
	s := u.Format(d)
	if zero := strings.Trim(s, "-0.%"); zero == "" {
		return strings.TrimPrefix(s, "-") // no change: never "-0.00" (a negated zero, or a tiny difference rounded away)
	}
	if !strings.HasPrefix(s, "-") {
		return "+" + s
	}
	return s
}

// CommonSystem picks the system compare follows across runs a and b: want when both have
// it, else the one system both have. Several in common without want, or want not in both,
// match ErrConfig (the cli's usage error). No system in common is an error saying why
// and the two ways to what was probably meant; evalHint(sa, sb) is the command that
// judges two systems sa and sb in one run.
func CommonSystem(a, b *rundir.Run, want string, evalHint func(sa, sb string) string) (string, error) {
	inB := map[string]bool{}
	for _, s := range b.Systems {
		inB[s.Name] = true
	}
	var common []string
	for _, s := range a.Systems {
		if inB[s.Name] {
			common = append(common, s.Name)
		}
	}
	switch {
	case want != "":
		for _, c := range common {
			if c == want {
				return want, nil
			}
		}
		return "", configf("--system %q is not in both runs (in both: %s)", want, listOrNone(common))
	case len(common) == 1:
		return common[0], nil
	case len(common) == 0:
		return "", noCommonSystem(a, b, evalHint)
	}
	return "", configf("both runs have several systems (%s): choose one with --system", strings.Join(common, ", "))
}

// noCommonSystem says why two runs without a system in common cannot be compared, and
// the two ways to what was probably meant: two systems side by side are judged in one
// run (its summary pairs them); one system under two names is judged again under one.
func noCommonSystem(a, b *rundir.Run, evalHint func(sa, sb string) string) error {
	sa, sb := "A", "B"
	if len(a.Systems) > 0 && len(b.Systems) > 0 {
		sa, sb = a.Systems[0].Name, b.Systems[0].Name
	}
	return fmt.Errorf("the runs have no system in common (%s: %s; %s: %s): compare follows one system across two runs. "+
		"To compare %s with %s, judge both in one run (%s), whose paired tests compare them; "+
		"if they are one system under two names, judge it again under one name (--pred NAME=FILE) and pass --system NAME",
		a.Dir, runSystems(a), b.Dir, runSystems(b), sa, sb, evalHint(sa, sb))
}

// runSystems lists r's systems ("none" when it has none).
func runSystems(r *rundir.Run) string {
	var names []string
	for _, s := range r.Systems {
		names = append(names, s.Name)
	}
	return listOrNone(names)
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
