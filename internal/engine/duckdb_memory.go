package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// DuckDB's memory_limit (DuckDBOptions.MemoryLimit, 1GB by default) bounds what its
// buffer manager holds: hash tables, sorts, aggregates and lists stop with "Out of Memory
// Error" past it (a 200-million-element list: 1.0 GB peak RSS, refused). The limit is
// the database's, shared by every statement running on it at that moment, so a
// statement that meets it may be a victim of a neighbour: it is then run again alone
// (memGate: every statement holds it for reading, the rerun for writing), and only one
// that meets the limit alone is over it, ErrByteLimit naming the limit, as SQLite's heap
// limit (sqlite_heap.go). Never a verdict from a neighbour's memory.
//
// Not bounded by it: the temporaries of evaluating an expression (a string built from
// four 250 MB repeats took 4.2 GB RSS under a 1GB limit): DuckDB does not count them.
// Isolate's worker processes bound those (duckdb_worker.go); there a worker runs one
// statement at a time, and the gate is not used.

// errDuckMemory marks a statement that DuckDB stopped at its memory_limit.
var errDuckMemory = errors.New("duckdb memory_limit reached")

// isDuckMemory reports whether DuckDB's lower-cased message is its out-of-memory error.
func isDuckMemory(m string) bool { return strings.HasPrefix(m, "out of memory error") }

// duckMemoryError is the outcome of a statement that meets the memory limit alone.
func (d *DuckDB) duckMemoryError() error {
	return fmt.Errorf("%w: the statement needs more than DuckDB's memory_limit (%s)", ErrByteLimit, d.opt.MemoryLimit)
}

// gated runs q holding memGate for reading; a statement stopped at the memory limit is
// run again holding it alone, and only a second stop is the statement's own.
func (d *DuckDB) gated(ctx context.Context, q func() (*Result, error)) (*Result, error) {
	d.memGate.RLock()
	res, err := q()
	d.memGate.RUnlock()
	if !errors.Is(err, errDuckMemory) || ctx.Err() != nil {
		return res, err
	}
	d.memGate.Lock()
	defer d.memGate.Unlock()
	if res, err = q(); errors.Is(err, errDuckMemory) {
		return nil, d.duckMemoryError()
	}
	return res, err
}
