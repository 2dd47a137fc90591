package judge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// faultyEngine fails every query containing one of its marks with an infrastructure
// fault, the first failures[mark] times (-1: always).
type faultyEngine struct {
	engine.Engine
	mu       sync.Mutex
	failures map[string]int
	tries    map[string]int
}

func (f *faultyEngine) Query(ctx context.Context, db, q string, lim engine.Limits) (*engine.Result, error) {
	f.mu.Lock()
	for mark, n := range f.failures {
		if strings.Contains(q, mark) && (n < 0 || f.tries[mark] < n) {
			f.tries[mark]++
			f.mu.Unlock()
			return nil, &engine.FaultError{Op: "lost connection to fake", Err: io.ErrUnexpectedEOF}
		}
	}
	f.mu.Unlock()
	return f.Engine.Query(ctx, db, q, lim)
}

// faultDataset has n questions on the shop database; question k's gold is "SELECT k + count(*) ...".
func faultDataset(t *testing.T, n int) (*dataset.Dataset, []System) {
	ds := testDataset(t)
	ds.Questions = nil
	var good, bad []string
	for k := range n {
		gold := fmt.Sprintf("SELECT %d + count(*) FROM item", k)
		ds.Questions = append(ds.Questions, dataset.Question{Index: k, ID: fmt.Sprint("q", k), DBID: "shop", Gold: []string{gold}, Difficulty: "simple"})
		good = append(good, fmt.Sprintf("SELECT count(*) + %d FROM item /* pred %d */", k, k))
		bad = append(bad, fmt.Sprintf("SELECT %d /* pred %d */", k+1, k))
	}
	return ds, []System{{Name: "good", Preds: preds(good...)}, {Name: "bad", Preds: preds(bad...)}}
}

// TestRunFault: a fault on gold or prediction SQL that outlasts its retries leaves that
// question and every later one without a record and stops the run with a *FaultError; a
// fault that goes away within the retries changes nothing; a resumed run then gives the
// records an uninterrupted run gives.
func TestRunFault(t *testing.T) {
	const n = 8
	cases := []struct {
		name      string
		failures  map[string]int
		wantFirst int // first question without a record; n: none
	}{
		{"gold always", map[string]int{"SELECT 4 + count": -1}, 4},
		{"prediction always", map[string]int{"/* pred 2 */": -1}, 2},
		{"two questions", map[string]int{"/* pred 6 */": -1, "SELECT 3 + count": -1}, 3},
		{"first question", map[string]int{"SELECT 0 + count": -1}, 0},
		{"transient", map[string]int{"SELECT 5 + count": 2, "/* pred 1 */": 1}, n},
	}
	ds, systems := faultDataset(t, n)
	sqlite := engine.NewSQLite()
	defer sqlite.Close()
	want := runAll(t, sqlite, ds, systems, Options{Workers: 2})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eng := &faultyEngine{Engine: sqlite, failures: tc.failures, tries: map[string]int{}}
			var warnings []string
			var wmu sync.Mutex
			opt := Options{Workers: 3, FaultBackoff: time.Millisecond, Warn: func(m string) {
				wmu.Lock()
				warnings = append(warnings, m)
				wmu.Unlock()
			}}
			got := make([][]*record.Record, len(systems))
			err := Run(context.Background(), eng, ds, systems, opt, func(s int, r *record.Record) error {
				got[s] = append(got[s], r)
				return nil
			})
			for s := range systems {
				if len(got[s]) != tc.wantFirst {
					t.Fatalf("system %s: %d records, want %d", systems[s].Name, len(got[s]), tc.wantFirst)
				}
				if d := cmp.Diff(want[s][:tc.wantFirst], got[s], ignoreTimes, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("system %s: records before the fault differ (-want +got):\n%s", systems[s].Name, d)
				}
			}
			if tc.wantFirst == n {
				if err != nil {
					t.Fatalf("err = %v, want nil after transient faults", err)
				}
				if len(warnings) != 3 {
					t.Errorf("warnings %q, want one per retry (3)", warnings)
				}
				return
			}
			var fe *FaultError
			if !errors.As(err, &fe) || !errors.Is(err, engine.ErrInfrastructure) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("err = %v, want a *FaultError matching ErrInfrastructure", err)
			}
			if fe.Index != tc.wantFirst || fe.Tries != DefaultFaultTries {
				t.Errorf("fault at question %d after %d tries, want %d after %d", fe.Index, fe.Tries, tc.wantFirst, DefaultFaultTries)
			}
			// Resume from the first unjudged question on a healthy engine.
			rs := make([]System, len(systems))
			for s := range systems {
				rs[s] = systems[s]
				rs[s].From = tc.wantFirst
			}
			rest := runAll(t, sqlite, ds, rs, Options{Workers: 2})
			for s := range systems {
				if d := cmp.Diff(want[s], append(got[s], rest[s]...), ignoreTimes); d != "" {
					t.Errorf("system %s: interrupted + resumed differs from uninterrupted (-want +got):\n%s", systems[s].Name, d)
				}
			}
		})
	}
}

// ignoreTimes drops the execution time, which differs between runs.
var ignoreTimes = cmp.Transformer("noTime", func(r *record.Record) record.Record {
	c := *r
	c.ExecMillis = 0
	return c
})

// vanishingEngine removes a file the first time it runs a given query.
type vanishingEngine struct {
	engine.Engine
	trigger, victim string
	once            sync.Once
}

func (v *vanishingEngine) Query(ctx context.Context, db, q string, lim engine.Limits) (*engine.Result, error) {
	if q == v.trigger {
		v.once.Do(func() { os.Remove(v.victim) })
	}
	return v.Engine.Query(ctx, db, q, lim)
}

// TestRunDatabaseVanishes: a database file that was there when the run started and is
// gone when its question comes is a fault that stops the run, not a skipped question.
func TestRunDatabaseVanishes(t *testing.T) {
	ds := testDataset(t)
	src := filepath.Join(ds.DBRoot, "shop", "shop.sqlite")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(ds.DBRoot, "shop2", "shop2.sqlite")
	if err := os.MkdirAll(filepath.Dir(victim), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(victim, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ds.Questions = []dataset.Question{
		{Index: 0, ID: "a", DBID: "shop", Gold: []string{"SELECT count(*) FROM item"}},
		{Index: 1, ID: "b", DBID: "shop2", Gold: []string{"SELECT count(*) FROM item"}},
		{Index: 2, ID: "c", DBID: "shop", Gold: []string{"SELECT 1"}},
	}
	sqlite := engine.NewSQLite()
	defer sqlite.Close()
	eng := &vanishingEngine{Engine: sqlite, trigger: "SELECT count(*) FROM item /* 0 */", victim: victim}
	var got []*record.Record
	err = Run(context.Background(), eng, ds, []System{{Name: "x", Preds: preds("SELECT count(*) FROM item /* 0 */", "SELECT 3", "SELECT 1")}},
		Options{Workers: 1, FaultBackoff: time.Millisecond}, func(_ int, r *record.Record) error {
			got = append(got, r)
			return nil
		})
	var fe *FaultError
	if !errors.As(err, &fe) || fe.Index != 1 || !errors.Is(err, engine.ErrNoDatabase) {
		t.Fatalf("err = %v, want a *FaultError at question 1 wrapping ErrNoDatabase", err)
	}
	if len(got) != 1 || got[0].Verdict != record.Correct {
		t.Errorf("records %+v, want only question 0's (correct)", got)
	}
}
