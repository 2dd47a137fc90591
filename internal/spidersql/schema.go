package spidersql

import (
	"slices"
	"strings"
)

// Schema is the table -> columns map process_sql works with: every name lowercased, and
// an id map giving "__table.column__" for "table.column", "__table__" for "table" and
// "__all__" for "*".
type Schema struct {
	tables map[string][]string // lowercased table -> lowercased columns, in the given order
	ids    map[string]string   // process_sql's idMap
}

// NewSchema builds a Schema from original table names to original column names (as read
// from a SQLite file or from tables.json's table_names_original / column_names_original).
// Names are lowercased as Spider does. Tables whose names differ only in case (impossible
// in SQLite) are merged.
func NewSchema(tables map[string][]string) *Schema {
	s := &Schema{tables: make(map[string][]string, len(tables)), ids: map[string]string{"*": "__all__"}}
	names := make([]string, 0, len(tables))
	for t := range tables {
		names = append(names, t)
	}
	slices.Sort(names) // deterministic merge order
	for _, orig := range names {
		t := strings.ToLower(orig)
		for _, c := range tables[orig] {
			c = strings.ToLower(c)
			s.tables[t] = append(s.tables[t], c)
			s.ids[t+"."+c] = "__" + t + "." + c + "__"
		}
		if _, ok := s.tables[t]; !ok {
			s.tables[t] = nil
		}
		s.ids[t] = "__" + t + "__"
	}
	return s
}

// TableNames returns the lowercased table names, sorted.
func (s *Schema) TableNames() []string {
	out := make([]string, 0, len(s.tables))
	for t := range s.tables {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// Columns returns the lowercased columns of a lowercased table name.
func (s *Schema) Columns(table string) ([]string, bool) {
	c, ok := s.tables[table]
	return c, ok
}

// ID looks a key up in process_sql's idMap: "*", "table" or "table.column" (lowercased).
func (s *Schema) ID(key string) (string, bool) {
	id, ok := s.ids[key]
	return id, ok
}
