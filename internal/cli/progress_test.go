package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
)

// TestProgressLines: off a terminal a phase prints a named line every few seconds with
// done/total, the rate and the time left, and a last line when it ends; a phase shorter
// than the delay prints nothing.
func TestProgressLines(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	p := newProgress(&buf, phaseLabel(benchrun.PhaseTiming), 0, 30*time.Millisecond)
	for i := 1; i <= 20; i++ {
		time.Sleep(10 * time.Millisecond)
		p.Update(i, 40)
	}
	p.Finish()
	p.Finish() // twice is harmless
	out := buf.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 {
		t.Fatalf("want several progress lines, got:\n%s", out)
	}
	line := regexp.MustCompile(`^VES timing: \d+/40 \(\d+%\), [0-9.]+/s(, about \S+ left)?$`)
	for _, l := range lines[:len(lines)-1] {
		if !line.MatchString(l) {
			t.Errorf("progress line %q does not read name: done/total (pct), rate, time left", l)
		}
	}
	if last := lines[len(lines)-1]; !regexp.MustCompile(`^VES timing: 20/40 done in \S+$`).MatchString(last) {
		t.Errorf("last line %q", last)
	}

	buf.Reset()
	q := newProgress(&buf, "judging", time.Hour, 10*time.Millisecond)
	q.Update(1, 2)
	time.Sleep(40 * time.Millisecond)
	q.Update(2, 2)
	q.Finish()
	if buf.Len() != 0 {
		t.Errorf("a short phase printed %q", buf.String())
	}
}

// TestPhaseLabels: the timing phase has its own name, not "judging".
func TestPhaseLabels(t *testing.T) {
	t.Parallel()
	if got := phaseLabel(benchrun.PhaseTiming); got != "VES timing" {
		t.Errorf("timing phase label %q", got)
	}
	if got := phaseLabel(benchrun.PhaseJudging); got != "judging" {
		t.Errorf("judging phase label %q", got)
	}
}
