package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// refRow is one row of a reference verdict file (../shared/data/*/reference/*.tsv).
type refRow map[string]string

// readRef reads a reference TSV keyed by its index column.
func readRef(tb testing.TB, path string) map[int]refRow {
	tb.Helper()
	out := map[int]refRow{}
	for _, row := range testutil.ReadTSV(tb, path) {
		idx, err := strconv.Atoi(row["index"])
		if err != nil {
			tb.Fatalf("%s: bad index %q", path, row["index"])
		}
		out[idx] = row
	}
	return out
}

// readRecords reads a run's records.jsonl for one system.
func readRecords(tb testing.TB, path string) []record.Record {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, _, err := record.ReadJSONL(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return recs
}

// runCLI runs the command line in-process and fails the test on a non-zero exit.
func runCLI(tb testing.TB, args ...string) (stdout, stderr string) {
	tb.Helper()
	var out, errb bytes.Buffer
	if code := Run(context.Background(), cmdline(args...), strings.NewReader(""), &out, &errb); code != 0 {
		tb.Fatalf("nl2sqlbench %s: exit %d\nstderr:\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String(), errb.String()
}

// TestConformanceSpider checks ex_bird and ex_spider against the official tools' verdicts
// (bird_ex, ts_exec) for DAIL, C3 and DIN on every executable Spider dev question, that
// Spider hardness matches, and that the 62 wta_1 questions are skipped.
func TestConformanceSpider(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping conformance in -short mode")
	}
	spider := testutil.Shared(t, "data/spider")
	systems := []string{"DAIL", "C3", "DIN"}
	out := t.TempDir()
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:" + spider, "--out", out, "--json"}
	for _, s := range systems {
		args = append(args, "--pred", s+"="+filepath.Join(spider, "predictions", s+".txt"))
	}
	runCLI(t, args...)
	for _, sys := range systems {
		t.Run(sys, func(t *testing.T) {
			ref := readRef(t, filepath.Join(spider, "reference", sys+".tsv"))
			recs := readRecords(t, filepath.Join(out, sys, "records.jsonl"))
			if len(recs) != 1034 {
				t.Fatalf("got %d records, want 1034", len(recs))
			}
			agreeBird, agreeSpider, agreeHard, skipped := 0, 0, 0, 0
			kinds := map[string]int{}
			for _, r := range recs {
				// result_diff is on every incorrect record and on no other.
				if (r.Diff != nil) != (r.Verdict == record.Incorrect) {
					t.Errorf("index %d: verdict %s with result_diff %+v", r.Index, r.Verdict, r.Diff)
				} else if r.Diff != nil {
					kinds[r.Diff.Kind]++
				}
				row, ok := ref[r.Index]
				if !ok {
					if r.DBID != "wta_1" || r.Verdict != record.Skipped {
						t.Errorf("index %d (%s): not in the reference, want a skipped wta_1 question, got %s", r.Index, r.DBID, r.Verdict)
					}
					skipped++
					continue
				}
				if strconv.Itoa(r.ExBird) == row["bird_ex"] {
					agreeBird++
				} else {
					t.Errorf("index %d: ex_bird=%d, reference bird_ex=%s (verdict %s %s)\n  pred: %s\n  gold: %s", r.Index, r.ExBird, row["bird_ex"], r.Verdict, r.ErrorMessage, r.PredSQL, r.GoldSQL)
				}
				if strconv.Itoa(r.ExSpider) == row["ts_exec"] {
					agreeSpider++
				} else {
					t.Errorf("index %d: ex_spider=%d, reference ts_exec=%s (verdict %s %s)\n  pred: %s\n  gold: %s", r.Index, r.ExSpider, row["ts_exec"], r.Verdict, r.ErrorMessage, r.PredSQL, r.GoldSQL)
				}
				if r.Difficulty == row["hardness"] {
					agreeHard++
				} else {
					t.Errorf("index %d: difficulty %q, reference hardness %q", r.Index, r.Difficulty, row["hardness"])
				}
			}
			t.Logf("%s: ex_bird agrees on %d/%d, ex_spider on %d/%d, hardness on %d/%d; %d wta_1 questions skipped",
				sys, agreeBird, len(ref), agreeSpider, len(ref), agreeHard, len(ref), skipped)
			if skipped != 62 {
				t.Errorf("skipped %d questions, want the 62 wta_1 ones", skipped)
			}
			t.Logf("%s: result_diff kinds %v", sys, kinds)
			if len(kinds) < 4 {
				t.Errorf("incorrect answers of only %d kinds (%v): the kinds do not tell answers apart", len(kinds), kinds)
			}
		})
	}
}

// TestConformanceBird checks ex_bird against BIRD's evaluation_ex on every superhero
// question (the one BIRD database available) for the dev predictions of TA-SQL (BIRD
// JSON) and C3 (text), and the mini-dev GPT-4 and Llama-3-70B files; every question on
// another database must be skipped.
func TestConformanceBird(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping conformance in -short mode")
	}
	bird := testutil.Shared(t, "data/bird")
	testutil.Shared(t, "data/bird/dev_databases/superhero/superhero.sqlite")
	cases := []struct {
		name, questions, pred, ref string
	}{
		{"TA-SQL", "dev.json", "predictions/dev/TA-SQL_predict_dev.json", "reference/dev_TA-SQL.tsv"},
		{"C3", "dev.json", "predictions/dev/C3.txt", "reference/dev_C3.tsv"},
		{"gpt-4", "mini_dev_sqlite.json", "predictions/mini_dev/predict_mini_dev_gpt-4_sqlite.json", "reference/mini_dev_gpt-4_sqlite.tsv"},
		{"llama-3-70b", "mini_dev_sqlite.json", "predictions/mini_dev/predict_mini_dev_meta-llama-3-70b-instruct-2_sqlite.json", "reference/mini_dev_meta-llama-3-70b-instruct-2_sqlite.tsv"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:"+filepath.Join(bird, c.questions), "--db-root", filepath.Join(bird, "dev_databases"),
				"--pred", c.name+"="+filepath.Join(bird, c.pred), "--out", out, "--json")
			ref := readRef(t, filepath.Join(bird, c.ref))
			recs := readRecords(t, filepath.Join(out, c.name, "records.jsonl"))
			agree := 0
			for _, r := range recs {
				row, ok := ref[r.Index]
				if r.DBID != "superhero" {
					if r.Verdict != record.Skipped {
						t.Errorf("index %d (%s): verdict %s, want skipped (database missing)", r.Index, r.DBID, r.Verdict)
					}
					continue
				}
				if !ok {
					t.Errorf("index %d: superhero question missing from the reference", r.Index)
					continue
				}
				if strconv.Itoa(r.ExBird) == row["bird_ex"] {
					agree++
				} else {
					t.Errorf("index %d: ex_bird=%d, reference bird_ex=%s (verdict %s %s)\n  pred: %s\n  gold: %s", r.Index, r.ExBird, row["bird_ex"], r.Verdict, r.ErrorMessage, r.PredSQL, r.GoldSQL)
				}
				if r.Difficulty != row["difficulty"] {
					t.Errorf("index %d: difficulty %q, reference %q", r.Index, r.Difficulty, row["difficulty"])
				}
			}
			if agree != len(ref) {
				t.Errorf("agreement %d/%d", agree, len(ref))
			}
			t.Logf("%s: ex_bird agrees on %d/%d superhero questions", c.name, agree, len(ref))
		})
	}
}
