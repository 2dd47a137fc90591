package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// withComparisons adds the paired and vs_best sections to a loaded run, as eval computes
// them (benchrun.Summarize).
func withComparisons(tb testing.TB, run *rundir.Run) {
	tb.Helper()
	var srs []metrics.SystemRecords
	for _, s := range run.Systems {
		srs = append(srs, metrics.SystemRecords{Name: s.Name, Records: s.Records})
	}
	ms := metrics.Declared(metrics.Options{})
	run.Summary.Paired = metrics.Paired(ms, run.Summary.Metrics, srs)
	run.Summary.VsBest = metrics.VsBest(ms, run.Summary.Metrics, run.Summary.Paired)
	if run.Summary.VsBest == nil {
		tb.Fatal("no vs_best section for a run of two systems")
	}
}

// TestComparisonFirstScreen: the vs_best section is printed, as it is, at the top of
// every output: the terminal after the scores, the Markdown under the scores table, the
// HTML report before the difficulty table; a summary without the section (written before
// it existed) prints none.
func TestComparisonFirstScreen(t *testing.T) {
	run := loadFixture(t, fixtureRun(t))
	withComparisons(t, run)
	s := &run.Summary
	ex := s.VsBest.Metrics[0]
	if ex.Metric != "ex" || len(ex.Rows) != 1 {
		t.Fatalf("vs_best's first metric: %+v", ex)
	}
	row := ex.Rows[0]
	want := row.System + " - " + ex.Best
	diff := metrics.DiffText(metrics.Percent, row.Diff, row.DiffLow, row.DiffHigh)

	var term bytes.Buffer
	if err := WriteShort(&term, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(term.String(), "each system against the best") || !strings.Contains(term.String(), want) ||
		!strings.Contains(term.String(), diff) || !strings.Contains(term.String(), row.Verdict) {
		t.Errorf("terminal lacks the comparison %q %q %q:\n%s", want, diff, row.Verdict, term.String())
	}
	if strings.Contains(term.String(), "Holm") {
		t.Errorf("two systems make one comparison per metric: nothing to correct, yet:\n%s", term.String())
	}

	var md bytes.Buffer
	if err := WriteMarkdown(&md, run); err != nil {
		t.Fatal(err)
	}
	m := md.String()
	at, scores := strings.Index(m, "### Each system against the best"), strings.Index(m, "| system | judged |")
	if at < 0 || at < scores || at > strings.Index(m, "### By difficulty") || !strings.Contains(m, mdEsc(diff)) {
		t.Errorf("Markdown: comparison at %d (scores at %d), want right under the scores table:\n%s", at, scores, m)
	}

	h := renderHTML(t, run, HTMLOptions{NoExec: true})
	at = strings.Index(h, `<section id="comparison">`)
	// The layout puts an interval in its own span (it wraps under its value).
	unspan := strings.NewReplacer(`<span class="ci">`, "", "</span>", "")
	if at < 0 || at > strings.Index(h, `id="by-difficulty"`) || !strings.Contains(unspan.Replace(h[at:]), diff) {
		t.Errorf("HTML: comparison section at %d, want before the difficulty table", at)
	}

	s.VsBest = nil
	term.Reset()
	if err := WriteShort(&term, s); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(term.String(), "against the best") {
		t.Errorf("a summary without vs_best prints a comparison:\n%s", term.String())
	}
}

// TestLegendFromRegistry: the headline legend explains each column with the registry's
// entry, a pair of labels once (incorrect/error), and TS-EX in words.
func TestLegendFromRegistry(t *testing.T) {
	one := 1
	recs := []record.Record{{Difficulty: "easy", Verdict: record.Correct, ExBird: 1, ExSpider: 1}}
	recs[0].TSEX = &one
	srs := []metrics.SystemRecords{{Name: "a", Records: recs}}
	s := &rundir.Summary{Settings: rundir.Settings{Semantics: "bird"},
		Systems: []metrics.Summary{metrics.Summarize(srs[0])},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), srs)}
	got := strings.Join(headlineLegend(s, Scores(s)), "\n")
	for _, w := range []string{"EX = execution accuracy", "TS-EX = test-suite EX", "incorrect/error = "} {
		if strings.Count(got, w) != 1 {
			t.Errorf("legend has %q %d times, want once:\n%s", w, strings.Count(got, w), got)
		}
	}
}
