package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// Decisions.
const (
	Accept    = "accept"     // the prediction answers the question: correct
	Reject    = "reject"     // the prediction does not: incorrect
	GoldWrong = "gold_wrong" // the gold is wrong; SQL is the corrected gold
)

// Review is one line of reviews.jsonl. Fields are added, never renamed.
type Review struct {
	Index    int    `json:"index"`            // the question's 0-based index in the dataset
	System   string `json:"system,omitempty"` // accept / reject: whose prediction
	Decision string `json:"decision"`
	SQL      string `json:"sql,omitempty"` // gold_wrong: the corrected gold SQL
	Note     string `json:"note,omitempty"`
}

// ErrBadReview marks a reviews file line that cannot be used.
var ErrBadReview = errors.New("bad review")

func (r *Review) validate() error {
	switch r.Decision {
	case Accept, Reject:
		if r.System == "" {
			return fmt.Errorf("%w: decision %s needs a system", ErrBadReview, r.Decision)
		}
	case GoldWrong:
		if strings.TrimSpace(r.SQL) == "" {
			return fmt.Errorf("%w: decision gold_wrong needs the corrected sql", ErrBadReview)
		}
	default:
		return fmt.Errorf("%w: decision %q is not accept, reject or gold_wrong", ErrBadReview, r.Decision)
	}
	if r.Index < 0 {
		return fmt.Errorf("%w: index %d is negative", ErrBadReview, r.Index)
	}
	return nil
}

// Read reads a reviews file: one JSON object per line, blank lines ignored. An error
// names the file and line. A missing file is os.ErrNotExist.
func Read(path string) ([]Review, error) {
	var out []Review
	err := readLines(path, func(_ int, r Review) { out = append(out, r) })
	return out, err
}

// readLines calls fn with each review of the file and its line number.
func readLines(path string, fn func(line int, r Review)) error {
	f, _, err := safefile.Open(path, MaxFile)
	if err != nil {
		return err
	}
	defer f.Close()
	var read, containers int
	err = safefile.ReadTextLines(f, 16<<20, func(l safefile.Line) error {
		// Counted as read: a file of `{}` lines would decode into far more than it holds.
		read += len(l.Bytes) + 1
		if containers += jsonscan.Measure(l.Bytes).Containers; containers > read/jsonscan.MinContainerBytes+jsonscan.FreeContainers {
			return fmt.Errorf("%s line %d: %w: %w", path, l.N, ErrBadReview, jsonscan.ErrTooDense)
		}
		var r Review
		dec := json.NewDecoder(bytes.NewReader(l.Bytes))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return fmt.Errorf("%s line %d: %w: %v", path, l.N, ErrBadReview, err)
		}
		if err := r.validate(); err != nil {
			return fmt.Errorf("%s line %d: %w", path, l.N, err)
		}
		fn(l.N, r)
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrBadReview) {
			return err
		}
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// MaxFile caps a reviews file: far over any review work, far under what would exhaust
// memory.
const MaxFile = 64 << 20

// Append adds one review to the file at path (created when missing), one line, synced,
// so a recorded review survives a crash or a restart.
func Append(path string, r Review) error {
	if err := r.validate(); err != nil {
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("open reviews: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("write reviews: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write reviews: %w", err)
	}
	return f.Close()
}

// Corrections are the corrected golds by question index (the last review wins).
func Corrections(rs []Review) map[int]string {
	out := map[int]string{}
	for _, r := range rs {
		if r.Decision == GoldWrong {
			out[r.Index] = r.SQL
		}
	}
	return out
}

// Apply returns a copy of one system's records with the reviews applied: a question
// whose gold was corrected takes the verdict regold gives (the prediction judged again
// against the corrected gold); then the system's own accept / reject decisions, the
// last one per question winning. It also returns the indexes whose verdict changed.
// Only verdicts change; the other fields keep the raw judgement.
func Apply(system string, recs []record.Record, rs []Review, regold map[int]record.Verdict) ([]record.Record, []int) {
	out := append([]record.Record(nil), recs...)
	decided := map[int]string{}
	for _, r := range rs {
		if r.System == system && (r.Decision == Accept || r.Decision == Reject) {
			decided[r.Index] = r.Decision
		}
	}
	var changed []int
	for i := range out {
		r := &out[i]
		v := r.Verdict
		if nv, ok := regold[r.Index]; ok {
			v = nv
		}
		if d, ok := decided[r.Index]; ok && (r.Judged() || v != r.Verdict) {
			v = record.Incorrect
			if d == Accept {
				v = record.Correct
			}
		}
		if v != r.Verdict {
			r.Verdict = v
			changed = append(changed, r.Index)
		}
	}
	return out, changed
}
