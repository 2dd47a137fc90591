package sqlast

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// testSchema is a small shop database; note Orders/ORDER_ITEMS mixed case, and the
// column "name" in two tables, to exercise ambiguity.
func testSchema(tb testing.TB) *dbschema.Schema {
	tb.Helper()
	mk := func(name string, cols ...string) *dbschema.Table {
		t := &dbschema.Table{Name: name}
		for _, c := range cols {
			t.Columns = append(t.Columns, &dbschema.Column{Name: c})
		}
		return t
	}
	return &dbschema.Schema{DBID: "shop", Tables: []*dbschema.Table{
		mk("customers", "id", "name", "city", "segment"),
		mk("Orders", "id", "customer_id", "Total", "order date"),
		mk("products", "id", "name", "price"),
		mk("ORDER_ITEMS", "order_id", "product_id", "qty"),
	}}
}
