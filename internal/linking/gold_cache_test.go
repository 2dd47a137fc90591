package linking

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestGoldUseSharedAcrossSystems: the gold query's schema use is extracted once and every
// system's record of the question holds the same read-only map (one map, not one copy per
// record: 88 MB at 200 systems), and a different gold text on the same database is not
// answered from the cache.
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
	r2 := annotate(q)
	if d := cmp.Diff(map[string][]string{"customers": {"city", "name"}}, r2.GoldSchema); d != "" {
		t.Errorf("second system's gold schema (-want +got):\n%s", d)
	}
	if reflect.ValueOf(r1.GoldSchema).Pointer() != reflect.ValueOf(r2.GoldSchema).Pointer() {
		t.Error("each record has its own copy of the question's gold schema")
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
