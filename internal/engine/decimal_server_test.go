package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// TestServerDecimalsExact: NUMERIC (PostgreSQL) and DECIMAL (MySQL/MariaDB) values are
// compared as Python compares the Decimals psycopg2 and pymysql return: exactly, against
// each other, ints and floats. Through float64, the first pair was equal.
func TestServerDecimalsExact(t *testing.T) {
	type pair struct {
		name       string
		gold, pred string
		equal      bool
	}
	dialects := []struct {
		name, envVar, db string
		open             func(dsn string) engine.Engine
		dec, dbl         func(string) string // a literal as an exact decimal / a double
	}{
		{"postgres", pgDSNVar, "public", func(d string) engine.Engine { return engine.NewPostgres(d, 1) },
			func(s string) string { return "CAST('" + s + "' AS NUMERIC)" },
			func(s string) string { return "CAST('" + s + "' AS DOUBLE PRECISION)" }},
		{"mysql", mysqlDSNVar, "information_schema", func(d string) engine.Engine { return engine.NewMySQL(d, 1) },
			func(s string) string { return "CAST('" + s + "' AS DECIMAL(65, 20))" },
			func(s string) string { return "CAST('" + s + "' AS DOUBLE)" }},
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			eng := d.open(serverDSN(t, d.envVar))
			defer eng.Close()
			pairs := []pair{
				{"30 digits differ in the last", d.dec("123456789012345678901234567890"), d.dec("123456789012345678901234567891"), false},
				{"30 digits equal", d.dec("123456789012345678901234567890"), d.dec("123456789012345678901234567890.000"), true},
				{"20 fractional digits differ", d.dec("2.4630541871921182"), d.dec("2.4630541871921183"), false},
				{"trailing zeros", d.dec("1.10"), d.dec("1.1"), true},
				{"decimal 0.1 vs float 0.1", d.dec("0.1"), d.dbl("0.1"), false},
				{"decimal 2.5 vs float 2.5", d.dec("2.5"), d.dbl("2.5"), true},
				{"decimal 7.000 vs int 7", d.dec("7.000"), "SELECT 7", true},
				{"decimal beyond int64 vs float", d.dec("99999999999999999999"), d.dbl("1e20"), false},
			}
			for _, p := range pairs {
				t.Run(p.name, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					defer cancel()
					q := func(sel string) *engine.Result {
						if len(sel) < 6 || sel[:6] != "SELECT" {
							sel = "SELECT " + sel
						}
						r, err := eng.Query(ctx, d.db, sel, engine.Limits{})
						if err != nil {
							t.Fatalf("%s: %v", sel, err)
						}
						return r
					}
					g, pr := q(p.gold), q(p.pred)
					if got := judge.BirdEqual(pr, g); got != p.equal {
						t.Errorf("BirdEqual(%v, %v) = %v, want %v", pr.BoxedRows(), g.BoxedRows(), got, p.equal)
					}
					if got := judge.SpiderEqual(g, pr, false); got != p.equal {
						t.Errorf("SpiderEqual = %v, want %v", got, p.equal)
					}
					if got := judge.NewSoftF1Gold(g).Score(pr) == 1; got != p.equal {
						t.Errorf("SoftF1 = %v, want 1: %v", judge.NewSoftF1Gold(g).Score(pr), p.equal)
					}
				})
			}
		})
	}
}
