package match

import (
	"context"
	"testing"
	"time"
)

// fuzzMaxSQL bounds fuzzed SQL: normalisation of long IN lists is being made linear
// separately, and a fuzzer that grows inputs would only rediscover that.
const fuzzMaxSQL = 2048

// fuzzSlow is how long one normalisation may take before the input counts as a hang.
const fuzzSlow = 10 * time.Second

var fuzzSQLSeeds = []string{
	"",
	"SELECT count(*) FROM singer",
	"SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.stadium_id WHERE T1.age > 20 GROUP BY T1.country HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 3",
	"SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer) UNION SELECT name FROM stadium",
	"SELECT name FROM singer WHERE name LIKE '%a%' OR age BETWEEN 1 AND 2 INTERSECT SELECT value FROM singer",
	"SELECT DISTINCT t1.name FROM t1 LEFT JOIN t2 ON t1.id = t2.t1_id WHERE t2.val IS NULL",
	"SELECT name, count(*) FROM t1 WHERE id IN (1, 2, 3) AND code = '20200101' GROUP BY name",
	"WITH c AS (SELECT id FROM t1) SELECT * FROM c EXCEPT SELECT t1_id FROM t2",
	"SELECT CAST(score AS REAL) / COUNT(*) FROM t1 ORDER BY 1 LIMIT 1 OFFSET 2",
	"SELECT max(age), min(age) FROM t1 WHERE NOT EXISTS (SELECT 1 FROM e)",
	"SELECT a FROM t AS",
	"SELECT name FROM singer WHERE 'x",
	"((((",
	"SELECT 1; DROP TABLE t1",
}

// runGuarded runs fn and fails t if it has not returned within fuzzSlow.
func runGuarded(t testing.TB, what, sql string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(fuzzSlow):
		t.Fatalf("%s(%q) still running after %v", what, sql, fuzzSlow)
	}
}

// FuzzESM: exact set matching never panics on any pair of SQL strings, and a gold query
// that parses matches itself given as the prediction.
func FuzzESM(f *testing.F) {
	for _, s := range fuzzSQLSeeds {
		f.Add(s, "SELECT count(*) FROM singer")
	}
	s, fk := testSchema(), testFK()
	f.Fuzz(func(t *testing.T, pred, gold string) {
		if len(pred) > fuzzMaxSQL || len(gold) > fuzzMaxSQL {
			t.Skip("longer than fuzzMaxSQL")
		}
		for _, opt := range []Options{{}, {Values: true, Distinct: true}} {
			runGuarded(t, "ExactSetMatch", pred, func() { _, _ = ExactSetMatch(pred, gold, s, fk, opt) })
			runGuarded(t, "ExactSetMatch", gold, func() {
				g, err := PrepareGold(gold, s, fk, opt)
				if err != nil || PredText(gold) != gold {
					return
				}
				if !g.Match(gold, s, fk, opt) {
					t.Errorf("ESM %s: %q does not match itself", opt.Label(), gold)
				}
			})
		}
	})
}

// FuzzETMNormalize: ETM's normalisation never panics, and a query it normalises matches
// itself (its normal form is deterministic), in both modes.
func FuzzETMNormalize(f *testing.F) {
	for _, s := range fuzzSQLSeeds {
		f.Add(s)
	}
	f.Add("SELECT name, rank() OVER (PARTITION BY age, code ORDER BY score DESC ROWS 2 PRECEDING) AS r FROM t1 ORDER BY r")
	f.Add("SELECT t.name AS n FROM t1 AS t JOIN t2 ON t.id = t2.t1_id WHERE n IN (SELECT n FROM t2) GROUP BY n HAVING count(DISTINCT t2.id) > 1")
	d := etmTestDB(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, sql string) {
		if len(sql) > fuzzMaxSQL {
			t.Skip("longer than fuzzMaxSQL")
		}
		for _, m := range ETMModes {
			runGuarded(t, "Normalize", sql, func() {
				n, err := d.NormalizeMode(ctx, sql, m)
				if err != nil {
					return
				}
				if v := d.CompareTo(ctx, sql, n); !v.Match {
					t.Errorf("ETM %s: %q does not match itself: %+v", m, sql, v)
				}
			})
		}
	})
}
