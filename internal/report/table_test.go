package report

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// golden compares got with testdata/<name>, or rewrites it with -update.
func golden(tb testing.TB, name string, got []byte) {
	tb.Helper()
	testutil.Golden(tb, name, got, *update)
}

func TestWriteDetails(t *testing.T) {
	mk := func(diff string, v record.Verdict, cat record.ErrorCategory, bird, sp int) record.Record {
		return record.Record{Difficulty: diff, Verdict: v, ErrorCategory: cat, ExBird: bird, ExSpider: sp}
	}
	a := []record.Record{
		mk("easy", record.Correct, "", 1, 1), mk("easy", record.Correct, "", 1, 1), mk("hard", record.Incorrect, "", 0, 0),
		mk("hard", record.Error, record.SyntaxError, 0, 0), mk("extra", record.Skipped, "", 0, 0),
	}
	b := []record.Record{
		mk("easy", record.Correct, "", 1, 0), mk("easy", record.Error, record.Timeout, 0, 0), mk("hard", record.Correct, "", 1, 1),
		mk("hard", record.Error, record.NoSuchColumn, 0, 0), mk("extra", record.Skipped, "", 0, 0),
	}
	s := &rundir.Summary{Settings: rundir.Settings{Semantics: "spider"}, Dataset: rundir.DatasetInfo{Questions: 5},
		Systems: []metrics.Summary{metrics.Summarize(metrics.SystemRecords{Name: "alpha", Records: a}), metrics.Summarize(metrics.SystemRecords{Name: "beta-long-name", Records: b})},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), []metrics.SystemRecords{{Name: "alpha", Records: a}, {Name: "beta-long-name", Records: b}})}
	var buf bytes.Buffer
	if err := WriteDetails(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "table/two-systems.txt", buf.Bytes())
}

// TestWriteTableNothingJudged: a run where no question could be judged prints n/a, never
// a rate of 0.00 over nothing.
func TestWriteTableNothingJudged(t *testing.T) {
	recs := []record.Record{{Difficulty: "easy", Verdict: record.GoldError}, {Difficulty: "hard", Verdict: record.Skipped}}
	srs := []metrics.SystemRecords{{Name: "alpha", Records: recs}}
	s := &rundir.Summary{Settings: rundir.Settings{Semantics: "bird"},
		Systems: []metrics.Summary{metrics.Summarize(metrics.SystemRecords{Name: "alpha", Records: recs})},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), srs),
		Modules: metrics.BuildModules(srs, nil, nil, "", metrics.DefaultPassK)}
	var buf bytes.Buffer
	if err := WriteDetails(&buf, s); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "n/a: nothing judged") || strings.Contains(out, "0.00") {
		t.Errorf("nothing judged, table:\n%s", out)
	}
}
