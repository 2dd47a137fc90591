package dbschema

import "testing"

func TestAffinityOf(t *testing.T) {
	tests := []struct {
		decl string
		want Affinity
	}{
		{"INTEGER", AffinityInteger},
		{"bigint", AffinityInteger},
		{"CHARINT", AffinityInteger}, // INT is checked first
		{"VARCHAR(20)", AffinityText},
		{"nvarchar", AffinityText},
		{"CLOB", AffinityText},
		{"text", AffinityText},
		{"BLOB", AffinityBlob},
		{"", AffinityBlob},
		{"REAL", AffinityReal},
		{"double precision", AffinityReal},
		{"FLOAT", AffinityReal},
		{"NUMERIC", AffinityNumeric},
		{"DECIMAL(10,5)", AffinityNumeric},
		{"DATE", AffinityNumeric},
		{"BOOLEAN", AffinityNumeric},
		{"FLOATING POINT", AffinityInteger}, // "POINT" holds INT: SQLite's own example
	}
	for _, tc := range tests {
		if got := AffinityOf(tc.decl); got != tc.want {
			t.Errorf("AffinityOf(%q) = %d, want %d", tc.decl, got, tc.want)
		}
	}
}
