package engine

import (
	"context"
	"testing"
	"time"
)

const defaultBenchTimeout = 5 * time.Second

// BenchmarkSmallSelect runs one small SELECT per iteration on one database (run with
// -benchtime=1000x for the 1,000-query figure): the per-query overhead a judge pays.
func BenchmarkSmallSelect(b *testing.B) {
	path := makeDB(b, "bench.sqlite", fixtureStmts...)
	e := NewSQLite()
	defer e.Close()
	ctx := context.Background()
	lim := Limits{Timeout: defaultBenchTimeout, MaxRows: 1000}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := e.Query(ctx, path, `SELECT id, name FROM t WHERE id = 3`, lim)
		if err != nil || res.NumRows() != 1 {
			b.Fatalf("query: %v, %+v", err, res)
		}
	}
}

// BenchmarkMillionRows reads a 1,000,000-row, two-column result: B/op is the memory a
// large result costs.
func BenchmarkMillionRows(b *testing.B) {
	path := makeDB(b, "bench.sqlite", `CREATE TABLE x (y)`)
	e := NewSQLite()
	defer e.Close()
	ctx := context.Background()
	q := `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT x, 'row' || x FROM c`
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := e.Query(ctx, path, q, Limits{})
		if err != nil || res.NumRows() != 1000000 {
			b.Fatalf("query: %v", err)
		}
	}
}
