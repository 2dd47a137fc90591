package judge

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// timingDB writes a one-table database of n rows and returns its path.
func timingDB(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "t.sqlite")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)",
		"WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM s WHERE i < " + strconv.Itoa(n) + ") INSERT INTO t SELECT i, i % 97 FROM s",
	} {
		if _, err := db.Exec(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

func TestTimeItems(t *testing.T) {
	db := timingDB(t, 2000)
	items := []TimingItem{
		{DB: db, Pred: "SELECT count(*) FROM t", Gold: "SELECT count(id) FROM t"},
		{DB: filepath.Join(t.TempDir(), "missing.sqlite"), Pred: "select COUNT(*) from t;", Gold: "SELECT count(*) FROM t"},
		{DB: db, Pred: "SELECT count(*) FROM nosuch", Gold: "SELECT count(*) FROM t"},
	}
	for _, mode := range []TimingMode{TimingOfficial, TimingRobust} {
		t.Run(string(mode), func(t *testing.T) {
			done := 0
			res, err := TimeItems(context.Background(), items, TimingOptions{Mode: mode, Iterations: 7, Progress: func(d, _ int) { done = d }})
			if err != nil {
				t.Fatal(err)
			}
			if done != len(items) {
				t.Errorf("progress reached %d, want %d", done, len(items))
			}
			if r := res[0]; r.Err != nil || r.Iterations != 7 || r.Ratio <= 0 || r.PredTime <= 0 || r.GoldTime <= 0 {
				t.Errorf("timed item: %+v", r)
			}
			if mode == TimingRobust {
				// identical after normalisation: ratio exactly 1, never executed (its
				// database does not even exist)
				if r := res[1]; !r.Identical || r.Ratio != 1 || r.Spread != 0 || r.Err != nil {
					t.Errorf("identical item: %+v", r)
				}
			} else if res[1].Err == nil || res[1].Ratio != 0 {
				t.Errorf("official timing of a missing database: %+v, want an error and ratio 0", res[1])
			}
			if r := res[2]; r.Err == nil || r.Ratio != 0 {
				t.Errorf("failing prediction: %+v, want an error and ratio 0", r)
			}
		})
	}
}

func TestTimingBudget(t *testing.T) {
	items := []TimingItem{
		{DB: "a", Pred: "SELECT 1", Gold: "SELECT 2", PredEst: 10 * time.Millisecond, GoldEst: 20 * time.Millisecond},
		{DB: "a", Pred: "SELECT 3", Gold: "SELECT 4", PredEst: time.Millisecond, GoldEst: time.Millisecond},
	}
	tests := []struct {
		name    string
		opt     TimingOptions
		wantErr string // "" = fits
	}{
		{"fits", TimingOptions{Mode: TimingOfficial, Iterations: 100, Budget: 4 * time.Second, ItemBudget: 3 * time.Second}, ""},
		// item 0: 100 x 30ms = 3s > 2s
		{"item over", TimingOptions{Mode: TimingOfficial, Iterations: 100, ItemBudget: 2 * time.Second}, "timing item 0 would take about 3s (100 iterations x (gold + prediction)), over the per-item budget of 2s"},
		// total: 100 x 32ms = 3.2s > 3s
		{"total over", TimingOptions{Mode: TimingOfficial, Iterations: 100, Budget: 3 * time.Second}, "timing 2 correct predictions x 100 iterations would take about 3s, over the budget of 3s"},
		// robust adds 3 warm-up runs: 103 x 30ms = 3.09s > 3.05s
		{"robust warm-up counts", TimingOptions{Mode: TimingRobust, Iterations: 100, ItemBudget: 3050 * time.Millisecond}, "per-item budget"},
		{"unbounded", TimingOptions{Mode: TimingOfficial, Iterations: 1000}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckTimingBudget(items, tt.opt)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			var be *BudgetError
			if !errors.Is(err, ErrTimingBudget) || !errors.As(err, &be) || !be.Estimate {
				t.Errorf("error %v is not an estimated *BudgetError matching ErrTimingBudget", err)
			}
		})
	}
	// TimeItems refuses before executing anything: these databases do not exist.
	if _, err := TimeItems(context.Background(), items, TimingOptions{Mode: TimingOfficial, ItemBudget: time.Second}); !errors.Is(err, ErrTimingBudget) {
		t.Errorf("TimeItems over budget: %v", err)
	}
}

func TestTimeItemsCancelled(t *testing.T) {
	db := timingDB(t, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := TimeItems(ctx, []TimingItem{{DB: db, Pred: "SELECT 1", Gold: "SELECT 2"}}, TimingOptions{Mode: TimingRobust})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if _, err := TimeItems(context.Background(), nil, TimingOptions{Mode: "fast"}); !errors.Is(err, ErrTimingMode) {
		t.Errorf("unknown mode: err = %v", err)
	}
}
