package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func TestWriteMarkdown(t *testing.T) {
	run := loadFixture(t, fixtureRun(t))
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, run); err != nil {
		t.Fatal(err)
	}
	// The dataset path differs per temp dir; only its base name is printed.
	golden(t, filepath.Join("markdown", "two-systems.md"), buf.Bytes())
	if strings.Contains(buf.String(), "<i>") {
		t.Error("a system name's markup reached the Markdown")
	}
}

// TestWriteMarkdownNothingJudged: where no metric applies the Markdown headline says why,
// as the terminal's does (both print scoreRows), rather than a table without a score.
func TestWriteMarkdownNothingJudged(t *testing.T) {
	recs := []record.Record{{Difficulty: "easy", Verdict: record.GoldError}, {Difficulty: "hard", Verdict: record.Skipped}}
	srs := []metrics.SystemRecords{{Name: "alpha", Records: recs}}
	run := &rundir.Run{Summary: rundir.Summary{Settings: rundir.Settings{Semantics: "bird"},
		Systems: []metrics.Summary{metrics.Summarize(srs[0])},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), srs)}}
	var md, term bytes.Buffer
	if err := WriteMarkdown(&md, run); err != nil {
		t.Fatal(err)
	}
	if err := WriteDetails(&term, &run.Summary); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "terminal": term.String()} {
		if !strings.Contains(out, "n/a: nothing judged") || strings.Contains(out, "0.00") {
			t.Errorf("%s, nothing judged:\n%s", name, out)
		}
	}
	if !strings.Contains(md.String(), "| system | judged | scores | skipped | gold\\_error |") {
		t.Errorf("markdown head:\n%s", md.String())
	}
}
