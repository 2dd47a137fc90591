package linking

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestGoldUseSharedAcrossSystems: the gold query's schema use is extracted once, yet every
// record gets its own gold schema (changing one record's does not reach another's), and a
// different gold text on the same database is not answered from the cache.
func TestGoldUseSharedAcrossSystems(t *testing.T) {
	db := makeDB(t)
	a := New(&dataset.Dataset{}, Options{})
	q := &dataset.Question{DBID: "shop", Gold: []string{"SELECT name FROM customers WHERE city = 'x'"}}
	annotate := func(q *dataset.Question) *record.Record {
		rec := &record.Record{Verdict: record.Correct, GoldSQL: q.Gold[0], PredSQL: "SELECT id FROM orders"}
		if err := a.Annotate(context.Background(), q, db, rec); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	r1 := annotate(q)
	r1.GoldSchema["customers"][0] = "changed"
	r2 := annotate(q)
	if d := cmp.Diff(map[string][]string{"customers": {"city", "name"}}, r2.GoldSchema); d != "" {
		t.Errorf("second system's gold schema (-want +got):\n%s", d)
	}
	r3 := annotate(&dataset.Question{DBID: "shop", Gold: []string{"SELECT total FROM orders"}})
	if d := cmp.Diff(map[string][]string{"orders": {"total"}}, r3.GoldSchema); d != "" {
		t.Errorf("other gold's schema (-want +got):\n%s", d)
	}
	n := 0
	a.golds.Range(func(goldKey, *goldEntry) { n++ })
	if n != 2 {
		t.Errorf("%d gold uses cached, want 2 (one per gold text)", n)
	}
}
