package benchrun

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestSpiderModeSelfScoringTrain scores Spider train's golds against themselves under
// both Spider modes: 197 questions are changed by the official rewrite (the 20
// value_in_name and 177 golds with DISTINCT inside an aggregate, which it drops from gold
// and prediction alike), and the 20 value_in_name golds fail in official mode; corrected
// mode scores every one correct and keeps the official verdict of those 20. The run says
// so (count and first question, in summary.json and a warning). cli's
// TestSpiderModeSelfScoring checks the same on BIRD superhero through the command and its
// printed warning; this whole-dataset run is here, in process, because cli's suite has a
// per-package time budget.
func TestSpiderModeSelfScoringTrain(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping a whole-dataset run in -short mode")
	}
	spider := testutil.Shared(t, "data/spider")
	gold := filepath.Join(spider, "train_gold.sql")
	type want struct {
		correct, judged int // ex_spider
		questions, gold int // summary.json's spider_rewrite
		first           string
		diffs           int // records with ex_spider_official
	}
	for mode, w := range map[string]want{
		"official":  {8540, 8560, 197, 177, "10", 0},
		"corrected": {8560, 8560, 197, 177, "10", 20},
	} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "run")
			cfg := Config{DatasetSpec: "spider:" + gold, DBRoot: filepath.Join(spider, "database"), Preds: []string{"gold=" + gold},
				Engine: "sqlite", Timeout: realTimeout, MaxRows: realMaxRows, Workers: 2, Metrics: []string{"ex", "ex_spider"}, SpiderMode: mode}
			obs := &notes{}
			if _, _, err := EvalInto(context.Background(), cfg, Output{Dir: out}, obs); err != nil {
				t.Fatal(err)
			}
			recs, err := rundir.ReadRecords(filepath.Join(out, "gold", rundir.RecordsFile))
			if err != nil {
				t.Fatal(err)
			}
			correct, judged, diffs := 0, 0, 0
			for _, r := range recs {
				if r.Judged() {
					judged++
					correct += r.ExSpider
				}
				if r.ExSpiderOfficial != nil {
					diffs++
				}
			}
			sum, err := rundir.ReadSummary(out)
			if err != nil {
				t.Fatal(err)
			}
			s := sum.SpiderRewrite
			if s == nil || s.First == nil {
				t.Fatalf("no spider_rewrite section with a first question")
			}
			got := want{correct, judged, s.Questions, s.Gold, s.First.QuestionID, diffs}
			if got != w || s.Mode != mode {
				t.Errorf("got %+v (mode %q), want %+v", got, s.Mode, w)
			}
			line := "changes what the query means on " + strconv.Itoa(w.questions) + " questions"
			warned := strings.Join(obs.warnings, "\n")
			if !strings.Contains(warned, line) || !strings.Contains(warned, "first: question "+w.first+" ") {
				t.Errorf("no warning with %q and the first question %s in:\n%s", line, w.first, warned)
			}
		})
	}
}
