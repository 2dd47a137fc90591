package dbschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleSchema() *Schema {
	return &Schema{DBID: "shop", Tables: []*Table{
		{
			Name:       "Orders",
			Columns:    []*Column{{Name: "OrderID", PrimaryKey: true}, {Name: "Customer"}, {Name: "Day"}, {Name: "Seq"}},
			PrimaryKey: []string{"OrderID"},
			Unique:     [][]string{{"Customer", "Day", "Seq"}},
		},
		{
			Name:       "line item",
			Columns:    []*Column{{Name: "order_id"}, {Name: "line"}, {Name: "sku"}},
			PrimaryKey: []string{"order_id", "line"},
		},
		{Name: "log", Columns: []*Column{{Name: "msg"}}},
	}}
}

func TestLookups(t *testing.T) {
	s := sampleSchema()
	tests := []struct {
		table, column string
		wantTable     string // "" means no such table
		wantColumn    string // "" means no such column
	}{
		{"orders", "orderid", "Orders", "OrderID"},
		{"ORDERS", "CUSTOMER", "Orders", "Customer"},
		{"Line Item", "SKU", "line item", "sku"},
		{"line_item", "sku", "", ""},
		{"orders", "nope", "Orders", ""},
		{"", "", "", ""},
	}
	for _, tc := range tests {
		tb := s.Table(tc.table)
		gotTable := ""
		if tb != nil {
			gotTable = tb.Name
		}
		if gotTable != tc.wantTable {
			t.Errorf("Table(%q) = %q, want %q", tc.table, gotTable, tc.wantTable)
		}
		c := tb.Column(tc.column) // nil-safe on a missing table
		gotCol := ""
		if c != nil {
			gotCol = c.Name
		}
		if gotCol != tc.wantColumn {
			t.Errorf("Table(%q).Column(%q) = %q, want %q", tc.table, tc.column, gotCol, tc.wantColumn)
		}
	}
	var nilSchema *Schema
	if nilSchema.Table("x") != nil || nilSchema.TableColumns() != nil {
		t.Error("nil schema lookups should return nil")
	}
}

func TestIsUnique(t *testing.T) {
	s := sampleSchema()
	tests := []struct {
		table string
		cols  []string
		want  bool
	}{
		{"Orders", []string{"OrderID"}, true},
		{"Orders", []string{"orderid"}, true},
		{"Orders", []string{"Customer", "orderid"}, true}, // superset of the key
		{"Orders", []string{"Customer"}, false},
		{"Orders", []string{"seq", "day", "customer"}, true}, // unique index, any order
		{"Orders", []string{"Customer", "Day"}, false},
		{"Orders", nil, false},
		{"line item", []string{"line", "order_id"}, true},
		{"line item", []string{"order_id"}, false},
		{"line item", []string{"order_id", "sku"}, false},
		{"log", []string{"msg"}, false}, // no key at all
		{"missing", []string{"x"}, false},
	}
	for _, tc := range tests {
		if got := s.Table(tc.table).IsUnique(tc.cols...); got != tc.want {
			t.Errorf("%s.IsUnique(%q) = %v, want %v", tc.table, tc.cols, got, tc.want)
		}
	}
}

func TestTableColumns(t *testing.T) {
	want := map[string][]string{
		"Orders":    {"OrderID", "Customer", "Day", "Seq"},
		"line item": {"order_id", "line", "sku"},
		"log":       {"msg"},
	}
	if diff := cmp.Diff(want, sampleSchema().TableColumns()); diff != "" {
		t.Errorf("TableColumns (-want +got):\n%s", diff)
	}
}
