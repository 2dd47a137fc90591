package engine

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// forceHeapLimit sets SQLite's process-wide heap limit for a test (0: none) and returns
// what restores the state before it. Tests using it are not parallel: the limit is the
// process's.
func forceHeapLimit(tb testing.TB, n int64) {
	tb.Helper()
	set := func(n int64) {
		db, err := sql.Open("sqlite3", ":memory:")
		if err != nil {
			tb.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec("PRAGMA hard_heap_limit = " + itoa(n)); err != nil {
			tb.Fatal(err)
		}
	}
	heapMu.Lock()
	prev := heapLimit
	heapLimit = n
	heapMu.Unlock()
	set(n)
	tb.Cleanup(func() {
		heapMu.Lock()
		heapLimit = prev
		heapMu.Unlock()
		set(max(prev, 0))
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestStatementMemoryBounded (issue 45 #7): one SELECT building several large values at
// once, each under the per-value cap, ends at SQLite's heap limit as ErrByteLimit instead
// of taking gigabytes; small queries running beside it are never failed by its appetite
// (a query meeting the limit is run again alone first); a large value under the limit
// still comes back.
func TestStatementMemoryBounded(t *testing.T) {
	if testing.Short() && !raceEnabled { // the race step runs it: its subject is concurrent statements
		t.Skip("ten 250 MB values is slow for -short; go test ./... runs it")
	}
	forceHeapLimit(t, 128<<20)
	e := NewSQLite()
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	term := "length(printf('%.*c', 50000000, 'a'))"
	greedy := "SELECT " + strings.Repeat(term+" + ", 5) + "0"
	_, err := e.Query(ctx, fixturePath, greedy, Limits{})
	if !errors.Is(err, ErrByteLimit) || !strings.Contains(err.Error(), "heap limit") {
		t.Fatalf("five 50 MB values in one statement under a 128 MiB heap: %v; want ErrByteLimit naming the heap limit", err)
	}
	if res, err := e.Query(ctx, fixturePath, "SELECT "+term, Limits{}); err != nil || res.NumRows() != 1 {
		t.Fatalf("one 50 MB value under the limit: %v", err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				if _, err := e.Query(ctx, fixturePath, greedy, Limits{}); !errors.Is(err, ErrByteLimit) {
					errs <- errors.New("greedy: " + errString(err))
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				if _, err := e.Query(ctx, fixturePath, "SELECT printf('%.*c', 2000000, 'b')", Limits{}); err != nil {
					errs <- errors.New("a small query beside it failed: " + err.Error())
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}
