package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
)

// BenchmarkServerSmallSelect is the per-query cost a judge pays on each server engine
// (read-only transaction, timeout, query, rollback): one small SELECT per iteration.
func BenchmarkServerSmallSelect(b *testing.B) {
	src := filepath.Join(b.TempDir(), "bench.sqlite")
	writeSQLite(b, src, contractFixture...)
	for _, sv := range []struct {
		name, envVar string
		dialect      export.Dialect
		open         func(string) engine.Engine
	}{
		{"postgres", pgDSNVar, export.Postgres, func(d string) engine.Engine { return engine.NewPostgres(d, 4) }},
		{"mysql", mysqlDSNVar, export.MySQL, func(d string) engine.Engine { return engine.NewMySQL(d, 4) }},
	} {
		b.Run(sv.name, func(b *testing.B) {
			dsn := os.Getenv(sv.envVar)
			if dsn == "" {
				b.Skipf("%s not set", sv.envVar)
			}
			loadInto(b, sv.dialect, dsn, src, contractDB)
			e := sv.open(dsn)
			defer e.Close()
			lim := engine.Limits{Timeout: 5 * time.Second, MaxRows: 1000}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				res, err := e.Query(context.Background(), contractDB, "SELECT id, name FROM t WHERE id = 3", lim)
				if err != nil || res.NumRows() != 1 {
					b.Fatalf("query: %v", err)
				}
			}
		})
	}
}
