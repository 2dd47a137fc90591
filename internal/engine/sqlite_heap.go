package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// A result's byte cap (Limits.MaxBytes) is checked as rows are read, and SQLite's
// SQLITE_LIMIT_LENGTH stops one value over it; neither bounds what one statement holds
// while SQLite computes a row: ten `printf('%.*c', 250000000, 'a')` terms of one SELECT
// are ten 250 MB values at once (2.46 GB peak, issue 45 #7). SQLite's hard heap limit
// bounds every allocation of the library in this process: over it, an allocation fails
// and the statement ends with SQLITE_NOMEM.
//
// The limit is the process's, shared by every query running at that moment, so a query
// that meets it may be a victim of another's appetite. It is then run again alone
// (heapGate: every query holds it for reading, the rerun for writing); only a statement
// that meets the limit alone is over it, a bounded outcome (ErrByteLimit) like a result
// over the byte cap. Never a verdict from a neighbour's memory.

// heapFactor is how many times a result's byte cap SQLite's heap may hold: a statement
// streams its result, so its own working memory (sorters spill to disk past the page
// cache) is far below the cap; twice it leaves room for the rows being copied out.
const heapFactor = 2

var (
	heapGate  sync.RWMutex
	heapMu    sync.Mutex
	heapLimit int64 = -1 // the limit set (0: none); -1 before the first query
)

// errHeapLimit marks a statement that failed an allocation under the heap limit.
var errHeapLimit = errors.New("sqlite heap limit reached")

// ensureHeapLimit raises the process's SQLite heap limit to what a result cap of
// maxBytes needs (0: no cap, no limit). It never lowers it: a cap is per query, the
// limit per process, and a larger cap asked by one caller holds for all.
//
// The limit belongs to the SQLite library, not to a connection: it is set through a
// private in-memory connection of the plain driver, since the engine's own connections
// refuse every PRAGMA that sets a value (readOnlyAuthorizer).
func ensureHeapLimit(maxBytes int64) error {
	want := heapFactor * maxBytes // 0 when there is no cap
	heapMu.Lock()
	defer heapMu.Unlock()
	switch {
	case heapLimit == 0, heapLimit >= want && want > 0:
		return nil
	}
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return fmt.Errorf("set sqlite heap limit: %w", err)
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf("PRAGMA hard_heap_limit = %d", want)); err != nil {
		return fmt.Errorf("set sqlite heap limit: %w", err)
	}
	heapLimit = want
	return nil
}

// heapLimitError is the outcome of a statement that meets the heap limit alone.
func heapLimitError() error {
	heapMu.Lock()
	n := heapLimit
	heapMu.Unlock()
	return fmt.Errorf("%w: the statement needs more than SQLite's %d MiB heap limit (%d times the result cap)", ErrByteLimit, n>>20, heapFactor)
}

// gated runs q holding heapGate for reading; a heap-limit failure is run again holding
// it alone, and only a second failure is the statement's own.
func gated(ctx context.Context, q func() error) error {
	heapGate.RLock()
	err := q()
	heapGate.RUnlock()
	if !errors.Is(err, errHeapLimit) || ctx.Err() != nil {
		return err
	}
	heapGate.Lock()
	defer heapGate.Unlock()
	if err = q(); errors.Is(err, errHeapLimit) {
		return heapLimitError()
	}
	return err
}
