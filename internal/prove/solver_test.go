package prove

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// hangGuard is the budget of the tests' trivial queries: z3 answers them at once, so it
// only bounds a hang. A budget near the real cost (a second) failed under load: starting
// z3 takes about 100 ms of CPU, which a machine at load 10 stretches past a second.
const hangGuard = 2 * time.Minute

func z3OrSkip(t *testing.T) *Solver {
	t.Helper()
	p := DefaultSolver().Path
	if p == "" {
		t.Skip("z3 not installed (CI installs it: .ci/run)")
	}
	s := &Solver{Path: p}
	t.Cleanup(s.Close)
	return s
}

// TestSolverReusesProcesses: queries in a row run on one z3 process, each from a clean
// state (a constant declared again is no error, an assertion of the query before is
// gone), and concurrent queries each get their own.
func TestSolverReusesProcesses(t *testing.T) {
	t.Parallel()
	s := z3OrSkip(t)
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		script := "(declare-const v_x Int)\n(assert (> v_x 10))\n"
		if i%2 == 1 { // contradicts the previous query's assertion: sat only after a reset
			script = "(declare-const v_x Int)\n(assert (< v_x 0))\n"
		}
		a, err := s.Solve(ctx, script, hangGuard)
		if err != nil {
			t.Fatalf("query %d: %v", i, err)
		}
		if a.Status != "sat" || a.Values["v_x"] == "" {
			t.Fatalf("query %d: %+v, want sat with v_x", i, a)
		}
		if neg := strings.Contains(a.Values["v_x"], "-"); neg != (i%2 == 1) {
			t.Errorf("query %d: v_x = %s", i, a.Values["v_x"])
		}
	}
	if n := s.started.Load(); n != 1 {
		t.Errorf("%d processes started for 5 queries in a row, want 1", n)
	}
	a, err := s.Solve(ctx, "(declare-const v_y Int)\n(assert (and (> v_y 1) (< v_y 1)))\n", hangGuard)
	if err != nil || a.Status != "unsat" {
		t.Errorf("unsat query: %+v %v", a, err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a, err := s.Solve(ctx, "(declare-const v_z Int)\n(assert (= v_z 7))\n", hangGuard); err != nil || a.Values["v_z"] != "7" {
				t.Errorf("concurrent query: %+v %v", a, err)
			}
		}()
	}
	wg.Wait()
}

// TestSolverKillsOnCancel: a query whose ctx ends returns at once and its process is
// not reused; the next query starts a fresh one and answers.
func TestSolverKillsOnCancel(t *testing.T) {
	t.Parallel()
	s := z3OrSkip(t)
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once z3 has the query (its process started), not after a fixed sleep.
	go func() {
		for s.started.Load() == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	// A hard nonlinear problem that z3 does not settle in the test's time.
	hard := "(declare-const v_a Int)\n(declare-const v_b Int)\n(declare-const v_c Int)\n(assert (and (> v_a 0) (> v_b 0) (> v_c 0) (= (+ (* v_a v_a v_a) (* v_b v_b v_b)) (* v_c v_c v_c))))\n"
	t0 := time.Now()
	_, err := s.Solve(ctx, hard, hangGuard)
	if err == nil {
		t.Fatal("a cancelled query returned no error")
	}
	if d := time.Since(t0); d > hangGuard/2 {
		t.Errorf("cancelled query returned after %v (its budget was %v: the cancel did not stop it)", d, hangGuard)
	}
	s.mu.Lock()
	idle := len(s.idle)
	s.mu.Unlock()
	if idle != 0 {
		t.Errorf("%d idle processes after a cancelled query, want 0", idle)
	}
	a, err := s.Solve(context.Background(), "(declare-const v_x Int)\n(assert (= v_x 3))\n", hangGuard)
	if err != nil || a.Values["v_x"] != "3" {
		t.Errorf("query after the cancel: %+v %v", a, err)
	}
}
