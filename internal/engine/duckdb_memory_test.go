package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestDuckDBMemoryNeighbour (issue 45, DuckDB statement memory): DuckDB's memory_limit is
// its database's, shared by every statement running on it, and a statement that met it
// ended as "Out of Memory Error", a DBError: with several workers on one database, a
// statement could fail, and be scored, for its neighbour's appetite. A statement that
// meets the limit is now run again alone, and only one that meets it alone is over it,
// ErrByteLimit naming the limit (as SQLite's heap limit). Here four sorts of about 40 MB
// each run at once under a 100 MB limit: all succeed; a sort that needs more than
// 100 MB alone is refused naming the limit.
func TestDuckDBMemoryNeighbour(t *testing.T) {
	t.Parallel()
	lib := testutil.LibDuckDB(t)
	path := filepath.Join(t.TempDir(), "db.duckdb")
	if err := engine.CreateDuckDB(lib, path, "CREATE TABLE t (i INTEGER)"); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: lib, Threads: 1, MemoryLimit: "100MB"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	ctx := context.Background()
	lim := engine.Limits{Timeout: 60 * time.Second}
	sortOf := func(n int) string {
		return "SELECT count(*), max(s) FROM (SELECT i, repeat('x', 20) || i::VARCHAR AS s FROM range(" + itoa(n) + ") t(i) ORDER BY s DESC)"
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for k := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[k] = eng.Query(ctx, path, sortOf(700000), lim)
		}()
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			t.Errorf("sort %d of 4 at once under a 100 MB limit: %v; want each to succeed (run alone when it met the limit)", k, err)
		}
	}
	_, err = eng.Query(ctx, path, sortOf(4000000), lim)
	if !errors.Is(err, engine.ErrByteLimit) || !strings.Contains(err.Error(), "memory_limit") || !strings.Contains(err.Error(), "100MB") {
		t.Errorf("a sort over a 100 MB limit alone: %v; want ErrByteLimit naming memory_limit 100MB", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
