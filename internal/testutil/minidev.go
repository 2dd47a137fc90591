package testutil

import (
	"strconv"
	"testing"
)

// MiniDevServerDeviations lists, as "stem/index" -> why, the BIRD mini-dev PostgreSQL /
// MySQL verdicts on superhero where nl2sqlbench differs from the official scripts on
// purpose. Most are Python's Decimal == float, which is exact: the official scripts see
// a NUMERIC / DECIMAL result (psycopg2, pymysql) as unequal to a float that prints the
// same, while the engines normalise NUMERIC to float64 so that every comparator, for
// every engine, sees the same Go types. The engine and CLI conformance tests share it.
var MiniDevServerDeviations = map[string]string{
	"gpt-4_postgresql/267":                       "decimal vs float: 60.8695652173913043 vs 60.869565217391305",
	"gpt-4_postgresql/275":                       "decimal vs float: 2.4630541871921182 vs 2.4630541871921183",
	"gpt-4_postgresql/289":                       "decimal vs float: 31.2000000000000000 vs 31.2",
	"meta-llama-3-70b-instruct-2_postgresql/290": "decimal vs float: 2.5566502463054187 vs 2.5566502463054186",
	"gpt-4_mysql/289":                            "decimal vs float (MySQL's / on integers is DECIMAL)",
	"meta-llama-3-70b-instruct-2_mysqljson/289":  "decimal vs float (MySQL's / on integers is DECIMAL)",
	"gpt-4_mysql/285":                            "ORDER BY ... LIMIT 1 over tied maxima: the plan picks the row",
}

// Atoi parses a number from a reference file, failing the test on anything else.
func Atoi(tb testing.TB, s string) int {
	tb.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		tb.Fatalf("not a number: %q", s)
	}
	return n
}

// ReadReferenceColumn maps each row's "index" to the integer in column col of a
// reference verdict file (e.g. bird_ex).
func ReadReferenceColumn(tb testing.TB, path, col string) map[int]int {
	tb.Helper()
	out := map[int]int{}
	for _, r := range ReadTSV(tb, path) {
		out[Atoi(tb, r["index"])] = Atoi(tb, r[col])
	}
	return out
}

// ReadPlanSensitive maps "stem/index" to the verdict under the alternative query plan,
// for the entries of mini_dev_pg_mysql_plan_sensitive.tsv where it differs from the
// reference verdict.
func ReadPlanSensitive(tb testing.TB, path string) map[string]int {
	tb.Helper()
	out := map[string]int{}
	for _, r := range ReadTSV(tb, path) {
		if r["alt_ex"] != r["bird_ex"] {
			out[r["stem"]+"/"+r["index"]] = Atoi(tb, r["alt_ex"])
		}
	}
	return out
}
