package report

import (
	"bytes"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestWriteStructural(t *testing.T) {
	one, zero := 1, 0
	mk := func(diff string, v record.Verdict, esm *int) record.Record {
		r := record.Record{Difficulty: diff, Verdict: v}
		r.ESM = esm
		return r
	}
	a := []record.Record{mk("easy", record.Correct, &one), mk("easy", record.Incorrect, &zero), mk("hard", record.Correct, &zero), mk("hard", record.Error, nil)}
	b := []record.Record{mk("easy", record.Correct, &one), mk("easy", record.Correct, &one), mk("hard", record.Incorrect, &one), mk("hard", record.Skipped, nil)}
	sys := map[string][]record.Record{"alpha": a, "beta": b}
	names := []string{"alpha", "beta"}
	s := &RunSummary{
		Settings:   Settings{Semantics: "spider"},
		Systems:    []metrics.Summary{metrics.Summarize("alpha", a), metrics.Summarize("beta", b)},
		Structural: match.Summarize(match.Options{}, 2, func(i int) (string, []record.Record) { return names[i], sys[names[i]] }),
	}
	var buf bytes.Buffer
	if err := writeStructural(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "table/structural.txt", buf.Bytes())

	buf.Reset()
	if err := writeStructural(&buf, &RunSummary{}); err != nil || buf.Len() != 0 {
		t.Errorf("no structural section: wrote %q, err %v; want nothing", buf.String(), err)
	}
}
