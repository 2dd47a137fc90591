package engine

/*
#include "duckdb_api.h"
*/
import "C"

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// DuckDB runs queries on DuckDB database files (Spider 2.0-dbt's databases), through
// libduckdb.so loaded at run time (duckdb_lib.go). Each file is opened once, read-only
// (access_mode=READ_ONLY), with no access to other files, no extension loading and no
// spilling to disk; each query gets its own connection, so a timeout or a cancellation
// (duckdb_interrupt) stops exactly that query. Results are streamed chunk by chunk, so
// the row and byte caps stop a large result before it is all in memory. Safe for
// concurrent use.
type DuckDB struct {
	opt     DuckDBOptions
	version string

	mu  sync.Mutex
	dbs map[string]unsafe.Pointer // path -> duckdb_database

	// memGate lets a statement stopped at the memory limit run again alone
	// (duckdb_memory.go).
	memGate sync.RWMutex

	// pool runs the statements in worker processes when opt.Isolate (duckdb_worker.go).
	pool *duckPool
}

var _ Engine = (*DuckDB)(nil)

// DuckDBOptions configure the engine.
type DuckDBOptions struct {
	// Lib is the path of libduckdb.so; "" reads LibDuckDBEnv.
	Lib string
	// Threads is DuckDB's worker threads per database (0: the number of CPUs, at most 4).
	Threads int
	// MemoryLimit is DuckDB's memory_limit per database ("" means 1GB). A query that
	// needs more fails (nothing is spilled next to the database file).
	MemoryLimit string
	// Isolate runs each statement in a worker process whose address space is capped
	// (duckdb_worker.go): memory_limit does not bound one expression's temporaries.
	// Linux only (DuckDBIsolationSupported).
	Isolate bool
	// WorkerMemory is the address space a worker may map beyond what it holds once
	// started; 0 means DefaultDuckDBWorkerMemory. Only with Isolate.
	WorkerMemory int64
	// WorkerStatements is how many statements a worker runs before a new one takes over
	// (whatever DuckDB or the allocators kept grows no further); 0 means
	// DefaultDuckDBWorkerStatements. Only with Isolate.
	WorkerStatements int
}

// NewDuckDB loads the DuckDB library (opt.Lib, else $NL2SQLBENCH_LIBDUCKDB) and returns
// an engine. Without a library it fails with ErrNoLibDuckDB, naming both ways to give one.
func NewDuckDB(opt DuckDBOptions) (*DuckDB, error) {
	if opt.Lib == "" {
		opt.Lib = os.Getenv(LibDuckDBEnv)
	}
	v, err := loadDuckDB(opt.Lib)
	if err != nil {
		return nil, err
	}
	if opt.Threads <= 0 {
		opt.Threads = min(runtime.NumCPU(), 4)
	}
	if opt.MemoryLimit == "" {
		opt.MemoryLimit = "1GB"
	}
	d := &DuckDB{opt: opt, version: v, dbs: map[string]unsafe.Pointer{}}
	if opt.Isolate {
		if !DuckDBIsolationSupported {
			return nil, fmt.Errorf("duckdb worker processes need Linux (this is %s)", runtime.GOOS)
		}
		if d.opt.WorkerMemory <= 0 {
			d.opt.WorkerMemory = DefaultDuckDBWorkerMemory
		}
		if d.opt.WorkerStatements <= 0 {
			d.opt.WorkerStatements = DefaultDuckDBWorkerStatements
		}
		cfg := duckWorkerConfig{Lib: opt.Lib, MemoryLimit: opt.MemoryLimit, Threads: opt.Threads,
			Memory: d.opt.WorkerMemory, Statements: d.opt.WorkerStatements}
		if d.pool, err = newDuckPool(cfg); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// WorkerPeak is the largest peak RSS, in bytes, of the worker processes that have ended
// (all of them after Close); 0 without Isolate.
func (d *DuckDB) WorkerPeak() int64 {
	if d.pool == nil {
		return 0
	}
	return d.pool.peak.Load()
}

// Version is the loaded library's DuckDB version, e.g. "v1.5.0".
func (d *DuckDB) Version() string { return d.version }

// Close closes every database the engine opened.
func (d *DuckDB) Close() error {
	if d.pool != nil {
		d.pool.close()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for p, db := range d.dbs {
		C.ddb_close(&db)
		delete(d.dbs, p)
	}
	return nil
}

// duckConfig is every database's configuration: read-only, and nothing beyond the file.
func (d *DuckDB) duckConfig() [][2]string {
	return [][2]string{
		{"access_mode", "READ_ONLY"},
		{"threads", strconv.Itoa(d.opt.Threads)},
		{"memory_limit", d.opt.MemoryLimit},
		{"temp_directory", ""}, // no <db>.tmp spill directory beside a benchmark database
		{"enable_external_access", "false"},
		{"autoinstall_known_extensions", "false"},
		{"autoload_known_extensions", "false"},
		{"lock_configuration", "true"},
	}
}

// open returns the database at path, opening it on first use.
func (d *DuckDB) open(path string) (unsafe.Pointer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if db, ok := d.dbs[path]; ok {
		return db, nil
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return nil, &FaultError{Op: "cannot open duckdb database", Err: fmt.Errorf("%w: %s", ErrNoDatabase, path)}
	}
	var cfg unsafe.Pointer
	if C.ddb_create_config(&cfg) != 0 {
		return nil, &FaultError{Op: "cannot open duckdb database", Err: fmt.Errorf("duckdb_create_config failed")}
	}
	defer C.ddb_destroy_config(&cfg)
	for _, kv := range d.duckConfig() {
		k, v := C.CString(kv[0]), C.CString(kv[1])
		rc := C.ddb_set_config(cfg, k, v)
		C.free(unsafe.Pointer(k))
		C.free(unsafe.Pointer(v))
		if rc != 0 {
			return nil, fmt.Errorf("open duckdb database %s: setting %s=%q refused by DuckDB %s", path, kv[0], kv[1], d.version)
		}
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var db unsafe.Pointer
	var cerr *C.char
	if C.ddb_open_ext(cpath, &db, cfg, &cerr) != 0 {
		msg := "unknown error"
		if cerr != nil {
			msg = C.GoString(cerr)
			C.ddb_free(unsafe.Pointer(cerr))
		}
		// Not a DuckDB file, a newer storage version, a lock held by a writer: nothing
		// the query did, so a fault (the task is left unjudged).
		return nil, &FaultError{Op: "cannot open duckdb database " + path, Err: fmt.Errorf("%s", msg)}
	}
	d.dbs[path] = db
	return db, nil
}

// Query executes one read-only statement on the DuckDB file at path. The statement is
// prepared first and refused unless DuckDB says it is a SELECT (duckdb_prepared_statement_type);
// the database is also open read-only, so its file is never modified. The timeout and
// ctx interrupt DuckDB itself (duckdb_interrupt).
func (d *DuckDB) Query(ctx context.Context, path, query string, lim Limits) (*Result, error) {
	first, err := singleStatement(query)
	if err != nil {
		return nil, err
	}
	if d.pool != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return d.pool.query(ctx, path, first, lim)
	}
	db, err := d.open(path)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d.gated(ctx, func() (*Result, error) { return d.run(ctx, db, path, first, lim, nil) })
}

// run runs query (one statement) on the database db at path, once. Its rows go to the
// sink open returns, or with a nil open into the Result returned.
func (d *DuckDB) run(ctx context.Context, db unsafe.Pointer, path, first string, lim Limits, open func([]string) rowSink) (*Result, error) {
	qctx, cancel := withTimeout(ctx, lim.Timeout)
	defer cancel()
	var conn unsafe.Pointer
	if C.ddb_connect(db, &conn) != 0 {
		return nil, &FaultError{Op: "cannot connect to duckdb database " + path, Err: fmt.Errorf("duckdb_connect failed")}
	}
	defer C.ddb_disconnect(&conn)
	// The watcher interrupts the connection when qctx ends; it is stopped, and waited
	// for, before the connection is closed, so it never touches a freed connection.
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-qctx.Done():
			C.ddb_interrupt(conn)
		case <-stop:
		}
	}()
	res, err := duckRun(qctx, conn, first, lim.MaxRows, lim.byteCap(), open)
	close(stop)
	<-stopped
	if err != nil {
		if qctx.Err() != nil {
			return nil, queryError(ctx, qctx, err)
		}
		return nil, err
	}
	return res, nil
}

// duckStatementSelect is DUCKDB_STATEMENT_TYPE_SELECT: the only statement type run.
const duckStatementSelect = 1

// duckRun prepares, checks and runs query on conn and reads its result (into open's
// sink; nil: into the Result returned).
func duckRun(ctx context.Context, conn unsafe.Pointer, query string, maxRows int, maxBytes int64, open func([]string) rowSink) (*Result, error) {
	cq := C.CString(query)
	defer C.free(unsafe.Pointer(cq))
	var st unsafe.Pointer
	rc := C.ddb_prepare(conn, cq, &st)
	defer C.ddb_destroy_prepare(&st)
	if rc != 0 {
		msg := "prepare failed"
		if st != nil {
			if e := C.ddb_prepare_error(st); e != nil {
				msg = C.GoString(e)
			}
		}
		return nil, duckError(msg)
	}
	if C.ddb_prepared_statement_type(st) != duckStatementSelect {
		return nil, ErrNotReadOnly
	}
	var r C.ddb_result
	if C.ddb_execute_prepared_streaming(st, &r) != 0 {
		defer C.ddb_destroy_result(&r)
		return nil, duckError(C.GoString(C.ddb_result_error(&r)))
	}
	defer C.ddb_destroy_result(&r)
	var b *ResultBuilder
	if open == nil {
		open = func(names []string) rowSink { b = NewResultBuilder(names); return b }
	}
	if err := duckStream(ctx, &r, open, maxRows, maxBytes); err != nil {
		return nil, err
	}
	if b == nil {
		return nil, nil // the rows went to the caller's sink
	}
	return b.Result(), nil
}

// duckError is DuckDB's message as a DBError, its class read from DuckDB's wording (the
// message names the error type, "Catalog Error: Table with name x does not exist!").
// A write the read-only database refused is ErrNotReadOnly; an interruption, a timeout.
func duckError(msg string) error {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "interrupted"):
		return context.DeadlineExceeded
	case strings.Contains(m, "read-only mode"), strings.Contains(m, "read_only mode"):
		return fmt.Errorf("%w: %s", ErrNotReadOnly, msg)
	case isDuckMemory(m):
		return fmt.Errorf("%w: %s", errDuckMemory, msg) // run again alone: duckdb_memory.go
	}
	return &DBError{Message: msg, Class: duckClass(m)}
}

// duckClass reads an error's class from DuckDB's lower-cased message.
func duckClass(m string) ErrorClass {
	switch {
	case strings.HasPrefix(m, "parser error"):
		return ClassSyntax
	case strings.Contains(m, "table with name"), strings.Contains(m, "table function with name"):
		return ClassNoTable
	case strings.Contains(m, "function with name"):
		return ClassNoFunction
	case strings.HasPrefix(m, "binder error") && strings.Contains(m, "column") && strings.Contains(m, "not found"):
		return ClassNoColumn
	}
	return ClassOther
}
