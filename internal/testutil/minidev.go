package testutil

import (
	"strconv"
	"testing"
)

// MiniDevServerDeviations lists, as "stem/index" -> why, the BIRD mini-dev PostgreSQL /
// MySQL verdicts on superhero where nl2sqlbench differs from the official scripts on
// purpose. (NUMERIC / DECIMAL values compare exactly, as Python's Decimal does in the
// official scripts' drivers, so Decimal == float is not a deviation.) The engine and CLI
// conformance tests share it.
var MiniDevServerDeviations = map[string]string{
	"gpt-4_mysql/285": "ORDER BY ... LIMIT 1 over tied maxima: the plan picks the row",
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
