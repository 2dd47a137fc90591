package engine

import (
	"context"
	"fmt"
	"testing"
)

// TestReverseUnordered checks the audit's option: a scan without ORDER BY comes back
// reversed with it, the pooled connection is reset afterwards, and a user query still
// cannot set the pragma itself.
func TestReverseUnordered(t *testing.T) {
	path := makeDB(t, "rev.sqlite", "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2), (3)")
	e := newEngine(t)
	e.MaxConnsPerDB = 1 // every query reuses the one connection the pragma was set on
	first := func(lim Limits) string {
		r := mustQuery(t, e, path, "SELECT x FROM t", lim)
		return fmt.Sprint(r.BoxedRows())
	}
	if got := first(Limits{}); got != "[[1] [2] [3]]" {
		t.Fatalf("plain scan: %s", got)
	}
	if got := first(Limits{ReverseUnordered: true}); got != "[[3] [2] [1]]" {
		t.Errorf("reverse_unordered_selects scan: %s, want [[3] [2] [1]]", got)
	}
	if got := first(Limits{}); got != "[[1] [2] [3]]" {
		t.Errorf("after the reversed query the connection still reverses: %s", got)
	}
	if got := fmt.Sprint(mustQuery(t, e, path, "SELECT x FROM t ORDER BY x DESC", Limits{ReverseUnordered: true}).BoxedRows()); got != "[[3] [2] [1]]" {
		t.Errorf("ORDER BY is kept: %s", got)
	}
	if _, err := e.Query(context.Background(), path, "PRAGMA reverse_unordered_selects = 1", Limits{}); err == nil {
		t.Error("a user query set reverse_unordered_selects")
	}
}
