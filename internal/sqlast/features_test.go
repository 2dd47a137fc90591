package sqlast

import "testing"

func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want Features
	}{
		{"SELECT name FROM singer", Features{}},
		{"SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid JOIN stadium AS T3 ON T3.id = T2.stid",
			Features{Joins: 2}},
		{"SELECT a FROM x, y", Features{Joins: 1}},
		{"SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 1",
			Features{Aggregation: true, GroupBy: true, Having: true}},
		{"SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)", Features{Nested: true, Aggregation: true}},
		{"SELECT name FROM singer ORDER BY age DESC LIMIT 1", Features{OrderLimit: true}},
		{"SELECT name FROM singer ORDER BY age DESC", Features{}},
		{"SELECT name FROM a UNION SELECT name FROM b", Features{SetOp: true}},
		{"SELECT rank() OVER (ORDER BY x) FROM t", Features{Window: true}},
		{"SELECT CASE WHEN a > 1 THEN 1 ELSE 0 END FROM t", Features{Case: true}},
		{"SELECT a FROM t WHERE b LIKE '%x%'", Features{Like: true}},
		{"SELECT strftime('%Y', d) FROM t", Features{DateTime: true}},
		{"SELECT a * 100.0 / b FROM t", Features{Arithmetic: true}},
		{"SELECT a FROM t WHERE a + 1 > 2", Features{}}, // arithmetic outside SELECT's columns
		{"SELECT DISTINCT a FROM t", Features{Distinct: true}},
		{"SELECT count(DISTINCT a) FROM t", Features{Distinct: true, Aggregation: true}},
		{"SELECT max(a, b) FROM t", Features{}}, // the scalar two-argument max
		{"WITH c AS (SELECT 1 AS x) SELECT x FROM c", Features{Nested: true}},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			q, err := Parse(tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.Features(); got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
