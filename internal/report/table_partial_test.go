package report

import (
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func TestWritePartialTable(t *testing.T) {
	group := func(name string, count, exact int, acc float64) metrics.PartialGroup {
		g := metrics.PartialGroup{Name: name, Count: count, Exact: exact, ExactRate: float64(exact) / float64(count)}
		for _, c := range record.PartialComponents {
			g.Components = append(g.Components, metrics.PartialComponent{Name: c, Acc: acc, Rec: 0.5, F1: 1})
		}
		return g
	}
	s := &rundir.Summary{ESMPartial: []metrics.PartialSummary{{
		System:       "sysA",
		Overall:      group("all", 4, 3, 0.875),
		ByDifficulty: []metrics.PartialGroup{group("easy", 2, 2, 1), group("hard", 2, 1, 0.75)},
	}}}
	var b strings.Builder
	if err := WritePartialTable(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "Spider partial match") {
		t.Errorf("no title:\n%s", out)
	}
	// Rows compared by their words: the columns are aligned with spaces.
	lines := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		lines[strings.Join(strings.Fields(l), " ")] = true
	}
	for _, want := range []string{
		"sysA easy hard all",
		"count 2 2 4",
		"exact match 100.00 50.00 75.00",
		"select acc 100.00 75.00 87.50",
		"keywords rec 50.00 50.00 50.00",
		"IUEN f1 100.00 100.00 100.00",
	} {
		if !lines[want] {
			t.Errorf("output lacks the row %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 2+2+30+1 {
		t.Errorf("%d lines, want 35 (title, header, count, exact, 30 component rows):\n%s", n, out)
	}
	b.Reset()
	if err := WritePartialTable(&b, &rundir.Summary{}); err != nil || b.Len() != 0 {
		t.Errorf("no esm_partial: wrote %q, err %v", b.String(), err)
	}
}
