package benchrun

import (
	"context"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/counterex"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Checked is one stored counterexample re-run by Verify: Err is nil when it reproduces.
type Checked struct {
	System     string
	Index      int
	QuestionID string
	Path       string
	Err        error
}

// VerifyCounterexamples re-runs every counterexample script stored in the run directory
// dir (eval --test-suite): each is loaded into a fresh in-memory database with foreign
// keys enforced, its constraints checked, and the record's gold and prediction run on it
// under the run's semantics; it reproduces when they still differ. It returns one Checked
// per counterexample, in system and dataset order, and the load warnings.
//
// The run directory is someone else's: each script must be a regular file inside it
// (rundir.ReadInside) and is loaded by engine.LoadScript, never with a writable
// connection of its own.
func VerifyCounterexamples(ctx context.Context, dir string) ([]Checked, []string, error) {
	r, err := rundir.Load(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	// A semantics this build does not know is refused, not read as BIRD's.
	sem, err := ParseRecordedSemantics(r.Summary.Settings.Semantics)
	if err != nil {
		return nil, r.Warnings, fmt.Errorf("%s: summary.json: %w", dir, err)
	}
	// So is a run whose manifest records a mode this build does not know: its
	// counterexamples were found by judging this build cannot reproduce.
	if m := r.Summary.Manifest; m != nil {
		if _, err := ResolveManifest(m, metrics.Options{PassK: m.Settings.PassK}); err != nil {
			return nil, r.Warnings, fmt.Errorf("%s: summary.json: %w", dir, err)
		}
	}
	var out []Checked
	for _, s := range r.Systems {
		for i := range s.Records {
			rec := &s.Records[i]
			c := rec.Counterexample
			if c == nil {
				continue
			}
			ch := Checked{System: s.Name, Index: rec.Index, QuestionID: rec.QuestionID, Path: c.Path}
			text, err := rundir.ReadInside(dir, c.Path, rundir.MaxScript)
			if err != nil {
				ch.Err = fmt.Errorf("read script: %w", err)
			} else if _, _, err := counterex.Verify(ctx, string(text), []string{rec.GoldSQL}, rec.PredSQL, sem); err != nil {
				ch.Err = err
			}
			if ctx.Err() != nil {
				return out, r.Warnings, ctx.Err()
			}
			out = append(out, ch)
		}
	}
	return out, r.Warnings, nil
}
