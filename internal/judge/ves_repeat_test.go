package judge

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestRVESRepeatability measures how much R-VES moves from run to run on the DAIL Spider
// predictions (972 executable questions), for each timing mode. It is a measurement, not
// a unit test: it runs only with NL2SQLBENCH_VES_REPEAT=N (N runs per mode) and logs
// min / max / spread. scripts/bench-ves.sh measures the same through the CLI.
func TestRVESRepeatability(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("NL2SQLBENCH_VES_REPEAT"))
	if runs < 1 {
		t.Skip("set NL2SQLBENCH_VES_REPEAT=N to measure R-VES over N runs per timing mode")
	}
	root := testutil.Shared(t, "data/spider")
	dev := testutil.SpiderDev(t)
	lines := testutil.SpiderPredictions(t, "DAIL")
	rows := readRefTSV(t, filepath.Join(root, "reference", "DAIL.tsv"))
	ex := newConfExec(t)
	var items []TimingItem
	for _, r := range rows {
		q := dev[r.index]
		db := testutil.SpiderDB(t, q.DBID)
		pred := lines[r.index]
		pr, perr := ex.run(db, pred)
		gr, gerr := ex.run(db, q.Query)
		if perr == nil && gerr == nil && BirdEqual(pr, gr) {
			items = append(items, TimingItem{DB: db, Pred: pred, Gold: q.Query})
		}
	}
	iters, _ := strconv.Atoi(os.Getenv("NL2SQLBENCH_VES_ITER"))
	for _, mode := range []TimingMode{TimingOfficial, TimingRobust} {
		var scores []float64
		for range runs {
			res, err := TimeItems(context.Background(), items, TimingOptions{Mode: mode, Iterations: iters})
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for _, r := range res {
				sum += math.Sqrt(RVESReward(r.Ratio))
			}
			s := 100 * sum / float64(len(rows))
			scores = append(scores, s)
			t.Logf("%s: R-VES %.2f", mode, s)
		}
		t.Logf("%s: %d correct of %d; R-VES min %.2f max %.2f spread %.2f", mode, len(items), len(rows),
			slices.Min(scores), slices.Max(scores), slices.Max(scores)-slices.Min(scores))
	}
}
