package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// isoDuck is an isolated engine with the given worker memory on a one-row database.
func isoDuck(t *testing.T, memory int64) (*engine.DuckDB, string) {
	return isoDuckWith(t, engine.DuckDBOptions{WorkerMemory: memory})
}

// isoDuckWith is isoDuck with more options.
func isoDuckWith(t *testing.T, opt engine.DuckDBOptions) (*engine.DuckDB, string) {
	t.Helper()
	if !engine.DuckDBIsolationSupported {
		t.Skip("DuckDB worker processes need Linux")
	}
	lib := testutil.LibDuckDB(t)
	path := filepath.Join(t.TempDir(), "db.duckdb")
	if err := engine.CreateDuckDB(lib, path, "CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	opt.Lib, opt.Isolate = lib, true
	eng, err := engine.NewDuckDB(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng, path
}

// TestDuckDBWorkerExpressionMemory (issue 45, DuckDB statement memory): memory_limit does
// not count the temporaries of one expression. In-process, two 400 MB strings
// concatenated in one expression peaked at 2.4 GB RSS under the 1GB limit (four 250 MB
// ones: 4.2 GB), and succeeded. In a worker whose address space may grow by 500 MiB the
// statement is refused as over the byte limit (row_limit) naming the cap, while a 100 MB
// string fits, before and after refusals alike: what a refused statement left mapped in
// a worker decides nothing about the next one. No worker grew far past the cap.
func TestDuckDBWorkerExpressionMemory(t *testing.T) {
	eng, db := isoDuck(t, 500<<20)
	const (
		fits = "SELECT length(repeat('abcdefghij', 10000000)) FROM t"
		over = "SELECT length(repeat(repeat('abcdefghij', 1000000), 40) || repeat(repeat('abcdefghij', 1000000), 40)) FROM t"
	)
	for i, q := range []string{fits, over, fits, over, over, fits, fits} {
		res, err := eng.Query(context.Background(), db, q, engine.Limits{Timeout: time.Minute})
		if q == fits {
			if err != nil || res.Int(0, 0) != 100_000_000 {
				t.Errorf("statement %d, a 100 MB string: %v", i, err)
			}
			continue
		}
		if !errors.Is(err, engine.ErrByteLimit) || judge.Categorize(err) != record.RowLimit || !strings.Contains(err.Error(), "500 MiB") {
			t.Errorf("statement %d, an 800 MB expression in a 500 MiB worker: %v, want ErrByteLimit naming 500 MiB (row_limit)", i, err)
		}
	}
	eng.Close()
	// The cap plus the worker's own start (about 55 MB) and slack.
	if peak := eng.WorkerPeak(); peak > 700<<20 || peak == 0 {
		t.Errorf("a worker peaked at %d MiB, over its 500 MiB cap", peak>>20)
	}
}

// duckWorkers lists this process's DuckDB worker processes.
func duckWorkers(t *testing.T) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Field 4 is the parent's pid; the command name (field 2) may hold spaces, so
		// count from its closing parenthesis.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if strings.Contains(string(env), "NL2SQLBENCH_DUCKDB_WORKER=1\x00") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killWorkersAfter kills every DuckDB worker of this process once d has passed.
func killWorkersAfter(t *testing.T, d time.Duration) {
	time.AfterFunc(d, func() {
		for _, pid := range duckWorkers(t) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// TestDuckDBWorkerDeath: a worker that dies under a statement (here killed from outside,
// as a crash in DuckDB would end it) is replaced and the statement run once more, so one
// death is no verdict; a statement under which two workers die is the statement's own
// error (a DBError saying so), never a result. Not parallel: it kills every worker of
// the test process.
func TestDuckDBWorkerDeath(t *testing.T) {
	eng, db := isoDuck(t, 0)
	ctx := context.Background()
	if _, err := eng.Query(ctx, db, "SELECT 1", engine.Limits{}); err != nil {
		t.Fatal(err)
	}
	if n := len(duckWorkers(t)); n != 1 {
		t.Fatalf("%d workers after one statement, want 1 kept idle", n)
	}
	// One death: the slow statement is run again, and meets its timeout there.
	killWorkersAfter(t, 300*time.Millisecond)
	start := time.Now()
	_, err := eng.Query(ctx, db, slowDuck, engine.Limits{Timeout: 2 * time.Second})
	if !errors.Is(err, engine.ErrTimeout) {
		t.Errorf("one death, then the timeout: %v, want ErrTimeout", err)
	}
	if el := time.Since(start); el < 2*time.Second || el > 10*time.Second {
		t.Errorf("one death then a 2s timeout took %v", el)
	}
	// Two deaths.
	killWorkersAfter(t, 300*time.Millisecond)
	killWorkersAfter(t, 1500*time.Millisecond)
	_, err = eng.Query(ctx, db, slowDuck, engine.Limits{Timeout: 5 * time.Second})
	var dbe *engine.DBError
	if !errors.As(err, &dbe) || !strings.Contains(err.Error(), "died running the statement, twice") || !strings.Contains(err.Error(), "killed") {
		t.Errorf("two deaths: %v, want a DBError saying the worker died twice (killed)", err)
	}
	// And the engine goes on.
	if _, err := eng.Query(ctx, db, "SELECT 1", engine.Limits{}); err != nil {
		t.Errorf("after two deaths: %v", err)
	}
}

// slowDuck runs for minutes in DuckDB.
const slowDuck = "SELECT count(*) FROM range(100000000) a, range(100000000) b"

// TestDuckDBWorkerCancelKills: a cancelled statement's worker is killed at once (the
// parent does not wait for DuckDB to notice), and Close leaves no worker behind.
func TestDuckDBWorkerCancelKills(t *testing.T) {
	eng, db := isoDuck(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	if _, err := eng.Query(ctx, db, slowDuck, engine.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if n := len(duckWorkers(t)); n != 0 {
		t.Errorf("%d workers after the cancellation, want the cancelled one gone", n)
	}
	for range 3 {
		if _, err := eng.Query(context.Background(), db, "SELECT 1", engine.Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	eng.Close()
	if n := len(duckWorkers(t)); n != 0 {
		t.Errorf("%d workers after Close", n)
	}
}

// TestDuckDBWorkerRetires: a worker that exits after answering (here after each
// statement) is replaced each time.
func TestDuckDBWorkerRetires(t *testing.T) {
	eng, db := isoDuckWith(t, engine.DuckDBOptions{WorkerStatements: 1})
	want := strings.Repeat("y", 20_000_000)
	for i := range 3 {
		res, err := eng.Query(context.Background(), db, "SELECT repeat('y', 20000000) FROM t", engine.Limits{Timeout: time.Minute})
		if err != nil || res.Text(0, 0) != want {
			t.Fatalf("statement %d: %v", i, err)
		}
	}
}
