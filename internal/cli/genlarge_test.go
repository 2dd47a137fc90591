package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Unit tests use 100,000 rows; scripts/bench-ves.sh runs the 5-million-row version.
const testLargeRows = 100_000

func genLarge(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := demo.GenerateLarge(context.Background(), dir, testLargeRows); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// TestLargeVESRanksFaster times every triple's two predictions in both modes: the
// faster prediction must earn the higher VES and R-VES.
func TestLargeVESRanksFaster(t *testing.T) {
	// Not parallel: it ranks queries by measured time, which other tests on the cores would blur.
	if testing.Short() {
		t.Skip("-short: timing ranks run in the full pass (the race detector's overhead blurs them)")
	}
	dir := genLarge(t)
	var items []judge.TimingItem
	var clear []bool
	for _, d := range demo.LargeDBs {
		db := filepath.Join(dir, d.ID, d.ID+".sqlite")
		for _, tr := range demo.LargeTriples {
			items = append(items,
				judge.TimingItem{DB: db, Pred: tr.Fast, Gold: tr.Gold},
				judge.TimingItem{DB: db, Pred: tr.Slow, Gold: tr.Gold})
			clear = append(clear, tr.Clear)
		}
	}
	// Timing is measured on a shared machine: one attempt in three must rank every clear
	// triple right (a wrong ranking in all three is a real fault, not a busy neighbour).
	const attempts = 3
	for _, mode := range []judge.TimingMode{judge.TimingOfficial, judge.TimingRobust} {
		t.Run(string(mode), func(t *testing.T) {
			var problems []string
			for a := 1; a <= attempts; a++ {
				if problems = rankOnce(t, mode, items, clear); len(problems) == 0 {
					return
				}
				t.Logf("attempt %d of %d: %s", a, attempts, strings.Join(problems, "; "))
			}
			t.Errorf("in all %d attempts the faster predictions did not rank higher: %s", attempts, strings.Join(problems, "; "))
		})
	}
}

// rankOnce times items once in mode and returns what ranks wrong: the faster prediction
// of every clear triple must earn the higher VES and no lower R-VES, and in total both.
func rankOnce(t *testing.T, mode judge.TimingMode, items []judge.TimingItem, clear []bool) []string {
	t.Helper()
	res, err := judge.TimeItems(context.Background(), items, judge.TimingOptions{Mode: mode, Iterations: 9})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var fastVES, slowVES, fastRVES, slowRVES float64
	for i := 0; i < len(res); i += 2 {
		f, s := res[i], res[i+1]
		if f.Err != nil || s.Err != nil {
			t.Fatalf("item %d: timing failed: %v / %v", i/2, f.Err, s.Err)
		}
		fv, sv := judge.VESReward(f.Ratio), judge.VESReward(s.Ratio)
		fastVES += fv
		slowVES += sv
		t.Logf("triple %d: fast ratio %.3f (%v vs gold %v), slow ratio %.3f (%v)", i/2, f.Ratio, f.PredTime, f.GoldTime, s.Ratio, s.PredTime)
		if !clear[i/2] {
			continue
		}
		if fv <= sv {
			out = append(out, fmt.Sprintf("triple %d: VES fast %.3f <= slow %.3f", i/2, fv, sv))
		}
		// R-VES buckets floor at 0.25: on a noisy machine a microsecond-scale fast
		// prediction can land in the bottom bucket beside the slow one, so per triple the
		// order is only non-strict; the total must still be strict.
		fr, sr := judge.RVESReward(f.Ratio), judge.RVESReward(s.Ratio)
		fastRVES += fr
		slowRVES += sr
		if fr < sr {
			out = append(out, fmt.Sprintf("triple %d: R-VES reward fast %v < slow %v", i/2, fr, sr))
		}
	}
	if fastVES <= slowVES {
		out = append(out, fmt.Sprintf("total VES: fast %.3f <= slow %.3f", fastVES, slowVES))
	}
	if fastRVES <= slowRVES {
		out = append(out, fmt.Sprintf("total R-VES reward over clear triples: fast %v <= slow %v", fastRVES, slowRVES))
	}
	return out
}

// TestEvalVES runs eval --ves end to end on the generated benchmark: records carry the
// timing fields, the summary and the table the scores, and the fast system wins.
func TestEvalVES(t *testing.T) {
	// Not parallel: it ranks queries by measured time, which other tests on the cores would blur.
	if testing.Short() {
		t.Skip("-short: timing ranks run in the full pass (the race detector's overhead blurs them)")
	}
	dir := genLarge(t)
	out := t.TempDir()
	code, stdout, stderr := run("eval", "--dataset", "jsonl:"+filepath.Join(dir, "questions.jsonl"),
		"--pred", filepath.Join(dir, "fast.txt"), "--pred", filepath.Join(dir, "slow.txt"),
		"--out", out, "--ves", "--timing", "robust", "--ves-iterations", "5")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "VES and R-VES with robust timing") {
		t.Errorf("table lacks the efficiency section:\n%s", stdout)
	}
	sum := readSummary(t, out)
	val := func(system, id string) float64 {
		_, v, ok := sum.Metrics.Lookup(system, id)
		if !ok || v.Value == nil {
			t.Fatalf("no %s for %s in the metrics section", id, system)
		}
		return *v.Value
	}
	if val("fast", "ves") <= val("slow", "ves") || val("fast", "rves") <= val("slow", "rves") {
		t.Errorf("fast VES %v R-VES %v should beat slow %v %v", val("fast", "ves"), val("fast", "rves"), val("slow", "ves"), val("slow", "rves"))
	}
	if val("fast", "soft_f1") != 1 || val("slow", "soft_f1") != 1 {
		t.Errorf("Soft-F1 fast %v slow %v, want 1 (every prediction is correct)", val("fast", "soft_f1"), val("slow", "soft_f1"))
	}
	recs := readRecordsFile(t, filepath.Join(out, "slow", "records.jsonl"))
	for _, r := range recs {
		if r.Timing != "robust" || r.VES == nil || r.RVESReward == nil || r.TimeRatio == nil || r.TimeRatioSpread == nil || r.SoftF1 == nil {
			t.Errorf("record %d lacks timing fields: %+v", r.Index, r.Efficiency)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "slow", "records.jsonl.tmp")); !os.IsNotExist(err) {
		t.Errorf("temporary records file left behind: %v", err)
	}
}

// TestEvalVESBudget: a timing phase that would not fit its budget is refused with a
// message saying so, and the judged records stay complete.
func TestEvalVESBudget(t *testing.T) {
	// Not parallel: it ranks queries by measured time, which other tests on the cores would blur.
	dir := genLarge(t)
	tests := []struct {
		name, flag, want string
	}{
		{"item", "--ves-item-budget=1us", "over the per-item budget of 1µs"},
		// The item budget raised: the slow question's estimate (38.8 s in a CI run whose
		// other tests loaded the cores) went over the default 30 s, and that error came first.
		{"total", "--ves-budget=1us --ves-item-budget=1h", "over the budget of 1µs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"eval", "--dataset", "jsonl:" + filepath.Join(dir, "questions.jsonl"),
				"--pred", filepath.Join(dir, "slow.txt"), "--out", out, "--ves"}
			code, _, stderr := run(append(args, strings.Fields(tt.flag)...)...)
			if code != exitError || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "lower the iterations") {
				t.Fatalf("exit %d, stderr %q; want exit %d naming the budget", code, stderr, exitError)
			}
			recs := readRecordsFile(t, filepath.Join(out, "slow", "records.jsonl"))
			if len(recs) != 2*len(demo.LargeTriples) || recs[0].VES != nil {
				t.Errorf("records after a refused timing phase: %d, first VES %v", len(recs), recs[0].VES)
			}
		})
	}
	code, _, stderr := run("eval", "--dataset", "jsonl:"+filepath.Join(dir, "questions.jsonl"),
		"--pred", filepath.Join(dir, "slow.txt"), "--out", t.TempDir(), "--ves", "--timing", "fast")
	if code != exitUsage || !strings.Contains(stderr, "unknown timing mode") {
		t.Errorf("bad --timing: exit %d, %q", code, stderr)
	}
}

func readRecordsFile(tb testing.TB, path string) []record.Record {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, _, err := record.ReadJSONL(f)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return recs
}
