package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// birdGoldPreds writes the BIRD dev golds as a SQL list, a prediction file that answers
// every question with its own gold.
func birdGoldPreds(tb testing.TB, devJSON string) string {
	tb.Helper()
	b, err := os.ReadFile(devJSON)
	if err != nil {
		tb.Fatal(err)
	}
	var qs []struct {
		SQL string `json:"SQL"`
	}
	if err := json.Unmarshal(b, &qs); err != nil {
		tb.Fatalf("%s: %v", devJSON, err)
	}
	sqls := make([]string, len(qs))
	for i, q := range qs {
		sqls[i] = q.SQL
	}
	out, _ := json.Marshal(sqls)
	path := filepath.Join(tb.TempDir(), "gold.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestSpiderModeSelfScoring scores golds against themselves under Spider semantics: the
// official rewrite breaks the 20 BIRD superhero golds using attribute_value, and the
// command says so (count and first question, in summary.json and a printed warning);
// corrected mode scores every one correct and keeps the official verdict of those 20.
// The same on Spider train's 8,560 golds is benchrun.TestSpiderModeSelfScoringTrain.
func TestSpiderModeSelfScoring(t *testing.T) {
	t.Parallel()
	type want struct {
		correct, judged int // ex_spider
		questions, gold int // summary.json's spider_rewrite
		first           string
		diffs           int // records with ex_spider_official
	}
	tests := []struct {
		name  string
		setup func(t *testing.T) []string // the eval arguments but --spider-mode and --out
		slow  bool
		modes map[string]want
	}{
		{"bird superhero", func(t *testing.T) []string {
			bird := testutil.Shared(t, "data/bird")
			return []string{"--dataset", "bird:" + filepath.Join(bird, "dev.json"), "--db-root", filepath.Join(bird, "dev_databases"),
				"--db-id", "superhero", "--semantics", "spider", "--pred", "gold=" + birdGoldPreds(t, filepath.Join(bird, "dev.json"))}
		}, false, map[string]want{
			"official":  {109, 129, 20, 0, "732", 0},
			"corrected": {129, 129, 20, 0, "732", 20},
		}},
		// Spider train (8,560 questions, 197 of them rewritten) is
		// benchrun.TestSpiderModeSelfScoringTrain, in process: a whole-dataset run twice.
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.slow && testing.Short() {
				t.Skip("skipping a whole-dataset run in -short mode")
			}
			args := tc.setup(t)
			for _, mode := range []string{"official", "corrected"} {
				w := tc.modes[mode]
				out := t.TempDir()
				_, stderr := runCLI(t, append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--out", out, "--metrics", "ex,ex_spider", "--spider-mode", mode}, args...)...)
				recs := readRecords(t, filepath.Join(out, "gold", "records.jsonl"))
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
				var sum struct {
					SpiderRewrite *metrics.SpiderRewriteSummary `json:"spider_rewrite"`
				}
				b, err := os.ReadFile(filepath.Join(out, "summary.json"))
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(b, &sum); err != nil {
					t.Fatal(err)
				}
				s := sum.SpiderRewrite
				if s == nil || s.First == nil {
					t.Fatalf("%s: no spider_rewrite section with a first question", mode)
				}
				got := want{correct, judged, s.Questions, s.Gold, s.First.QuestionID, diffs}
				if got != w || s.Mode != mode {
					t.Errorf("%s: got %+v (mode %q), want %+v", mode, got, s.Mode, w)
				}
				line := "changes what the query means on " + strconv.Itoa(w.questions) + " questions"
				if !strings.Contains(stderr, line) || !strings.Contains(stderr, "first: question "+w.first+" ") {
					t.Errorf("%s: no warning with %q and the first question %s in:\n%s", mode, line, w.first, stderr)
				}
			}
		})
	}
}

// TestConformanceSpiderCorrected: under --spider-mode corrected every record's official
// ex_spider (ex_spider_official where the modes differ, else ex_spider) still agrees
// with test-suite-sql-eval's, and the modes differ only where the rewrite was noted.
func TestConformanceSpiderCorrected(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping conformance in -short mode")
	}
	spider := testutil.Shared(t, "data/spider")
	systems := []string{"DAIL", "C3", "DIN"}
	out := t.TempDir()
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:" + spider, "--out", out, "--metrics", "ex,ex_spider", "--spider-mode", "corrected"}
	for _, s := range systems {
		args = append(args, "--pred", s+"="+filepath.Join(spider, "predictions", s+".txt"))
	}
	runCLI(t, args...)
	for _, sys := range systems {
		ref := readRef(t, filepath.Join(spider, "reference", sys+".tsv"))
		diffs := 0
		for _, r := range readRecords(t, filepath.Join(out, sys, "records.jsonl")) {
			row, ok := ref[r.Index]
			if !ok {
				continue
			}
			official := r.ExSpider
			if r.ExSpiderOfficial != nil {
				official = *r.ExSpiderOfficial
				diffs++
				if len(r.SpiderRewriteChanged) == 0 {
					t.Errorf("%s index %d: the modes differ but no rewrite change was noted", sys, r.Index)
				}
			}
			if strconv.Itoa(official) != row["ts_exec"] {
				t.Errorf("%s index %d: official ex_spider %d, reference ts_exec %s", sys, r.Index, official, row["ts_exec"])
			}
		}
		t.Logf("%s: corrected mode differs from the official on %d questions", sys, diffs)
	}
}

// TestSpiderRewriteOnlyWhereShown: a run that shows no Spider EX (BIRD semantics, and
// --metrics without ex_spider) says nothing of Spider's rewrite; with ex_spider it does.
func TestSpiderRewriteOnlyWhereShown(t *testing.T) {
	t.Parallel()
	bird := testutil.Shared(t, "data/bird")
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:" + filepath.Join(bird, "dev.json"), "--db-root", filepath.Join(bird, "dev_databases"),
		"--db-id", "superhero", "--pred", "gold=" + birdGoldPreds(t, filepath.Join(bird, "dev.json"))}
	for _, tc := range []struct {
		metrics string
		warn    bool
	}{{"ex,ex_bird", false}, {"ex,ex_spider", true}} {
		out := t.TempDir()
		_, stderr := runCLI(t, append(args, "--out", out, "--metrics", tc.metrics)...)
		b, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		warned, section := strings.Contains(stderr, "official rewrite"), strings.Contains(string(b), `"spider_rewrite"`)
		if warned != tc.warn || section != tc.warn {
			t.Errorf("--metrics %s: warning %v, section %v; want both %v\n%s", tc.metrics, warned, section, tc.warn, stderr)
		}
	}
}
