package dbschema

import (
	"errors"
	"strings"
)

// Sentinel errors.
var (
	ErrNoDatabase    = errors.New("database file not found")
	ErrBadTablesJSON = errors.New("malformed tables.json")
)

// Schema is one database's schema.
type Schema struct {
	DBID   string
	Tables []*Table // in the order the source lists them
}

// Table is one table. Names keep the case the source gives them.
type Table struct {
	Name        string
	Columns     []*Column // in declaration order
	PrimaryKey  []string  // columns of the primary key, in key order; empty when none is declared
	ForeignKeys []ForeignKey
	// Unique lists each UNIQUE constraint and unique index (columns in index order). The
	// primary key is not repeated here. Partial and expression indexes are left out: they
	// do not make a set of columns unique over the whole table.
	Unique [][]string
}

// Column is one column of a table.
type Column struct {
	Name       string
	Type       string // the declared type as written (SQLite) or tables.json's column type
	NotNull    bool   // declared NOT NULL (always false from tables.json, which does not say)
	PrimaryKey bool   // part of the table's primary key
}

// ForeignKey is one (possibly multi-column) foreign key. Columns[i] refers to RefColumns[i].
type ForeignKey struct {
	Columns    []string
	RefTable   string
	RefColumns []string
}

// Table returns the table called name, ignoring case, or nil.
func (s *Schema) Table(name string) *Table {
	if s == nil {
		return nil
	}
	for _, t := range s.Tables {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// TableColumns maps each table's name to its column names, in order, as the source spells
// them (the Spider loader and schema-selection metrics work on these names).
func (s *Schema) TableColumns() map[string][]string {
	if s == nil {
		return nil
	}
	m := make(map[string][]string, len(s.Tables))
	for _, t := range s.Tables {
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = c.Name
		}
		m[t.Name] = cols
	}
	return m
}

// Column returns the column called name, ignoring case, or nil.
func (t *Table) Column(name string) *Column {
	if t == nil {
		return nil
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// IsUnique reports whether rows are unique on cols: the primary key or some unique index
// is a subset of cols (names compared ignoring case). With no cols it reports false.
func (t *Table) IsUnique(cols ...string) bool {
	if t == nil || len(cols) == 0 {
		return false
	}
	if len(t.PrimaryKey) > 0 && subset(t.PrimaryKey, cols) {
		return true
	}
	for _, u := range t.Unique {
		if len(u) > 0 && subset(u, cols) {
			return true
		}
	}
	return false
}

// subset reports whether every name of sub is in set, ignoring case.
func subset(sub, set []string) bool {
	for _, a := range sub {
		found := false
		for _, b := range set {
			if strings.EqualFold(a, b) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
