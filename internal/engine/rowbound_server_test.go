package engine_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// TestServerRowBounded (issue 45 #7, server engines): one row whose values together are
// over the byte cap fails with ErrByteLimit before the row is in our memory: pgx used
// to read the whole DataRow (80 MB here; 1.98 GB of RSS for three 250 MB values) before
// the cap was checked. A row that fits still comes back, NUMERIC values whose wire text
// is longer than their value (trailing zeros) included.
func TestServerRowBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("250 MB rows on the server are slow for -short; go test ./... runs it")
	}
	dsn := serverDSN(t, pgDSNVar)
	e := engine.NewPostgres(dsn, 2)
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	const limit = 16 << 20
	lim := engine.Limits{MaxBytes: limit}

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := e.Query(ctx, "public", "SELECT repeat('a', 40000000) AS a, repeat('b', 40000000) AS b", lim)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, engine.ErrByteLimit) {
		t.Fatalf("an 80 MB row under a 16 MiB cap: %v; want ErrByteLimit", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
		t.Errorf("an 80 MB row refused under a 16 MiB cap allocated %d MB: it was read before the cap was checked", got>>20)
	}
	// Later rows are bounded by what is left of the cap.
	_, err = e.Query(ctx, "public", "SELECT repeat('a', 6000000) FROM generate_series(1, 4)", lim)
	if !errors.Is(err, engine.ErrByteLimit) {
		t.Fatalf("four 6 MB rows under a 16 MiB cap: %v; want ErrByteLimit", err)
	}
	// The connection refused a row is not reused broken, and a row that fits is read.
	for range 3 {
		res, err := e.Query(ctx, "public", "SELECT repeat('a', 4000000) AS a, 1 AS b", lim)
		if err != nil || res.NumRows() != 1 || len(res.Text(0, 0)) != 4000000 {
			t.Fatalf("a 4 MB row under a 16 MiB cap: %v", err)
		}
	}
	// 40 NUMERIC columns of 1.000... (16383 zeros) are 655 KB on the wire, 40 floats in
	// a Result: a cap of 1 KiB holds them.
	cols := strings.TrimSuffix(strings.Repeat("round(1::numeric, 16383), ", 40), ", ")
	res, err := e.Query(ctx, "public", "SELECT "+cols+" FROM generate_series(1, 3)", engine.Limits{MaxBytes: 2 << 10})
	if err != nil || res.NumRows() != 3 || res.Float(2, 39) != 1 {
		t.Fatalf("40 NUMERIC 1.000... columns under a 2 KiB cap: %v", err)
	}
}
