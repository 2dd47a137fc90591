package cli

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// TestEvalDetails checks that eval --details prints every headline value with the
// interval summary.json holds, and the paired comparisons' texts, unchanged.
func TestEvalDetails(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--out", dir, "--timeout", testTimeout.String(), "--max-rows", "10000", "--details"}
	for _, s := range f.SystemOrder {
		args = append(args, "--pred", s+"="+f.Systems[s])
	}
	code, out, stderr := run(args...)
	if code != exitOK {
		t.Fatalf("eval --details: exit %d: %s", code, stderr)
	}
	s := readSummary(t, dir)
	shown := 0
	for _, sv := range s.Metrics.Systems {
		for i, v := range sv.Values {
			if s.Metrics.Definitions[i].Group != "headline" || !v.Applicable {
				continue
			}
			if v.CIText == "" || v.CIMethod == "" {
				t.Errorf("%s %s: no interval in summary.json", sv.System, v.ID)
				continue
			}
			if !strings.Contains(out, v.Text+" "+v.CIText) {
				t.Errorf("%s %s: %q not printed", sv.System, v.ID, v.Text+" "+v.CIText)
			}
			shown++
		}
	}
	if shown == 0 {
		t.Fatal("no headline value with an interval")
	}
	if s.Paired == nil || len(s.Paired.Pairs) != 3 {
		t.Fatalf("paired section: %+v, want 3 pairs", s.Paired)
	}
	for _, p := range s.Paired.Pairs {
		for _, x := range p.Tests {
			if x.Metric == "ex" && !strings.Contains(out, p.A+" vs "+p.B) || x.Metric == "ex" && !strings.Contains(out, x.Text) {
				t.Errorf("paired %s vs %s ex %q not printed", p.A, p.B, x.Text)
			}
		}
	}
}

// TestSignedText: a change prints with its sign, and no change prints as 0.00, never as
// "-0.00" (B - A of two equal values is a negated zero).
func TestSignedText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d    float64
		want string
	}{{0.0123, "+1.23"}, {-0.0123, "-1.23"}, {math.Copysign(0, -1), "0.00"}, {-0.00001, "0.00"}, {0, "0.00"}} {
		if got := benchrun.SignedText(metrics.Percent, c.d); got != c.want {
			t.Errorf("SignedText(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
