package match

import (
	"context"
	"errors"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// TestETMLongInList: rule 18 turns an IN list into an OR of as many comparisons, which
// P5 sorts; that is n log n, not quadratic, so the longest IN list still parsed (about
// 39,000 values, sqlscan.MaxAnalysed; prediction and gold) normalises in well under a
// second. Quadratic, 180,000 values took more than ten minutes.
func TestETMLongInList(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 256 KiB IN list")
	}
	d := etmTestDB(t)
	q, n := testutil.LongestInList("t1", "age", sqlscan.MaxAnalysed)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	v := d.Compare(ctx, q, q)
	t.Logf("%d values: %v", n, time.Since(start))
	if !v.Match || v.Err != nil {
		t.Fatalf("no match: %+v", v.Err)
	}
}

// TestETMBudget: past its context's deadline ETM gives no verdict (ErrOverBudget, and
// an absent etm from the annotator, counted), never a 0; a cancelled context is an error;
// and a deadline does not poison what is cached for later questions (rule 14's non-empty
// tables, the gold's normal form).
func TestETMBudget(t *testing.T) {
	d := etmTestDB(t)
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if _, err := d.Normalize(expired, "SELECT name FROM t1"); !errors.Is(err, ErrOverBudget) {
		t.Errorf("Normalize past the deadline: %v, want ErrOverBudget", err)
	}
	if d.tableNonEmpty(expired, "t1") {
		t.Error("tableNonEmpty past the deadline = true")
	}
	if !d.tableNonEmpty(context.Background(), "t1") {
		t.Error("a deadline cached t1 as empty")
	}

	q := &dataset.Question{Index: 0, Gold: []string{"SELECT name FROM t1 WHERE age = 1"}}
	pred := "SELECT name FROM t1 WHERE 1 = age"
	tests := []struct {
		name      string
		ctx       func() (context.Context, context.CancelFunc)
		wantETM   *int
		wantOver  int
		wantError bool
	}{
		{"past the deadline: absent", func() (context.Context, context.CancelFunc) {
			return context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		}, nil, 1, false},
		{"cancelled: an error", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, nil, 0, true},
		{"in time: the verdict, gold retried", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), time.Minute)
		}, ptr(1), 0, false},
	}
	a := NewETMAnnotator(false)
	defer a.Close()
	dbPath := d.path
	over := 0
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			rec := &record.Record{}
			rec.PredSQL = pred
			err := a.Annotate(ctx, q, dbPath, rec)
			if (err != nil) != tc.wantError {
				t.Fatalf("err = %v, want error %v", err, tc.wantError)
			}
			if tc.wantError {
				a.golds.Delete(etmGoldKey{goldKey{0, 0}, ETMOfficial}) // a cancelled run does not resume in-process
				return
			}
			if (rec.ETM == nil) != (tc.wantETM == nil) || (rec.ETM != nil && *rec.ETM != *tc.wantETM) {
				t.Errorf("etm = %v, want %v", rec.ETM, tc.wantETM)
			}
			over += tc.wantOver
			if a.OverBudget() != over {
				t.Errorf("OverBudget = %d, want %d", a.OverBudget(), over)
			}
		})
	}
}

func ptr(v int) *int { return &v }
