package judge

import (
	"math"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// These tests hold SoftF1 to the bird_soft_f1 column the official BIRD mini-dev
// evaluation_f1.py produced on real predictions (../shared/data/*/reference).

const softF1Tolerance = 1e-6

// checkSoftF1 compares one computed score with a reference cell.
func checkSoftF1(t *testing.T, index int, got float64, want string, pred, gold string) bool {
	t.Helper()
	w, err := strconv.ParseFloat(want, 64)
	if err != nil {
		t.Errorf("index %d: bad bird_soft_f1 %q", index, want)
		return false
	}
	if math.Abs(got-w) > softF1Tolerance {
		t.Errorf("index %d bird_soft_f1: got %.6f want %.6f\n  pred: %s\n  gold: %s", index, got, w, pred, gold)
		return false
	}
	return true
}

// TestSoftF1SpiderConformance checks SoftF1 on the 972 executable Spider dev questions
// for DAIL and C3.
func TestSoftF1SpiderConformance(t *testing.T) {
	root := testutil.Shared(t, "data/spider")
	dev := testutil.SpiderDev(t)
	ex := newConfExec(t)
	for _, sys := range []string{"DAIL", "C3"} {
		t.Run(sys, func(t *testing.T) {
			lines := testutil.SpiderPredictions(t, sys)
			rows := readRefTSV(t, filepath.Join(root, "reference", sys+".tsv"))
			if len(rows) != 972 {
				t.Errorf("reference has %d rows, want 972", len(rows))
			}
			var mu sync.Mutex
			agree := 0
			parallelRows(rows, func(r confRow) {
				q := dev[r.index]
				db := testutil.SpiderDB(t, q.DBID)
				pred := lines[r.index]
				pr, perr := ex.run(db, pred)
				gr, gerr := ex.run(db, q.Query)
				got := 0.0
				if perr == nil && gerr == nil {
					got = SoftF1(pr, gr)
				}
				mu.Lock()
				defer mu.Unlock()
				if checkSoftF1(t, r.index, got, r.want["bird_soft_f1"], pred, q.Query) {
					agree++
				}
			})
			t.Logf("%s: bird_soft_f1 agrees on %d/%d", sys, agree, len(rows))
			if agree != len(rows) {
				t.Errorf("%s: %d disagreements", sys, len(rows)-agree)
			}
		})
	}
}

// TestSoftF1BirdConformance checks SoftF1 on the superhero questions of every SQLite
// reference file (the PostgreSQL and MySQL ones are checked on real servers in
// internal/engine's mini-dev tests).
func TestSoftF1BirdConformance(t *testing.T) {
	eachBirdRow(t, "bird_soft_f1", func(t *testing.T, r confRow, pred, gold string, pr, gr *engine.Result, perr, gerr error) bool {
		got := 0.0
		if perr == nil && gerr == nil {
			got = SoftF1(pr, gr)
		}
		return checkSoftF1(t, r.index, got, r.want["bird_soft_f1"], pred, gold)
	})
}
