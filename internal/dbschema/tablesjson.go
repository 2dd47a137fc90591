package dbschema

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// tablesEntry is one element of a Spider/BIRD tables.json. The index-bearing fields are
// kept raw so that a bad element is reported with its db_id and position.
type tablesEntry struct {
	DBID        string            `json:"db_id"`
	TableNames  []string          `json:"table_names_original"`
	ColumnNames []json.RawMessage `json:"column_names_original"` // [table_index, name]
	ColumnTypes []string          `json:"column_types"`
	PrimaryKeys []json.RawMessage `json:"primary_keys"` // column index, or a list for a composite key
	ForeignKeys []json.RawMessage `json:"foreign_keys"` // [column index, referenced column index]
}

// ReadTablesJSON reads a Spider/BIRD tables.json and returns its schemas by db_id.
//
// The format carries original table and column names, column types, primary keys and
// single-column foreign-key pairs. It says nothing of NOT NULL or UNIQUE, so those stay
// empty; and it cannot group a multi-column foreign key, so each pair becomes its own
// one-column ForeignKey. The "*" column (table index -1) is skipped.
//
// A file is parsed once per process while its contents stay the same (tablescache.go):
// the dataset's hardness, schema linking and ESM's foreign-key maps all read it.
// The map is the caller's; the schemas are shared and must not be modified.
func ReadTablesJSON(path string) (map[string]*Schema, error) {
	f, err := readTablesFile(path)
	if err != nil {
		return nil, err
	}
	return maps.Clone(f.schemas), nil
}

// TablesEntry is one tables.json element at the level of its indexes, as ReadTablesJSON
// read and checked it: what a reader needing the file's own numbering (ESM's foreign-key
// groups) uses instead of parsing the file again.
type TablesEntry struct {
	DBID        string
	Tables      []string      // table_names_original
	Columns     []TableColumn // column_names_original, "*" included
	ForeignKeys [][2]int      // [column index, referenced column index], in file order
}

// TableColumn is one element of column_names_original.
type TableColumn struct {
	Table int // -1 for "*"
	Name  string
}

// ReadTablesEntries returns the elements of a tables.json in file order, from the same
// parse as ReadTablesJSON (and with its errors). They are shared: read only.
func ReadTablesEntries(path string) ([]TablesEntry, error) {
	f, err := readTablesFile(path)
	if err != nil {
		return nil, err
	}
	return f.entries, nil
}

// tablesFile is one tables.json, parsed and checked.
type tablesFile struct {
	schemas map[string]*Schema
	entries []TablesEntry
}

func readTablesData(path string) ([]byte, error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("read tables.json: %w", err)
	}
	return data, nil
}

// parseTablesData checks and parses data, the contents of the tables.json at path.
func parseTablesData(path string, data []byte) (*tablesFile, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %w", ErrBadTablesJSON, path, jsonscan.ErrorLine(data, err), err)
	}
	out := &tablesFile{schemas: make(map[string]*Schema, len(raw)), entries: make([]TablesEntry, 0, len(raw))}
	for i, r := range raw {
		var e tablesEntry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("%w: %s: entry %d: %w", ErrBadTablesJSON, path, i, err)
		}
		if e.DBID == "" {
			return nil, fmt.Errorf("%w: %s: entry %d has no db_id", ErrBadTablesJSON, path, i)
		}
		if _, dup := out.schemas[e.DBID]; dup {
			return nil, fmt.Errorf("%w: %s: db_id %q appears twice (entry %d)", ErrBadTablesJSON, path, e.DBID, i)
		}
		s, te, err := e.schema()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: db_id %q: %w", ErrBadTablesJSON, path, e.DBID, err)
		}
		out.schemas[e.DBID] = s
		out.entries = append(out.entries, te)
	}
	return out, nil
}

// colRef is where a global column index of tables.json landed.
type colRef struct {
	table *Table
	col   *Column
}

func (e *tablesEntry) schema() (*Schema, TablesEntry, error) {
	s := &Schema{DBID: e.DBID}
	te := TablesEntry{DBID: e.DBID, Tables: e.TableNames, Columns: make([]TableColumn, len(e.ColumnNames)), ForeignKeys: make([][2]int, 0, len(e.ForeignKeys))}
	for _, n := range e.TableNames {
		s.Tables = append(s.Tables, &Table{Name: n})
	}
	if len(e.ColumnTypes) > 0 && len(e.ColumnTypes) != len(e.ColumnNames) {
		return nil, TablesEntry{}, fmt.Errorf("%d column_types for %d column_names_original", len(e.ColumnTypes), len(e.ColumnNames))
	}
	cols := make([]colRef, len(e.ColumnNames)) // by global index; zero for "*"
	for i, r := range e.ColumnNames {
		var pair []json.RawMessage
		var ti int
		var name string
		if err := json.Unmarshal(r, &pair); err != nil || len(pair) != 2 ||
			json.Unmarshal(pair[0], &ti) != nil || json.Unmarshal(pair[1], &name) != nil {
			return nil, TablesEntry{}, fmt.Errorf("column_names_original[%d]: want [table_index, name], got %s", i, r)
		}
		te.Columns[i] = TableColumn{Table: ti, Name: name}
		if ti == -1 {
			continue
		}
		if ti < 0 || ti >= len(s.Tables) {
			return nil, TablesEntry{}, fmt.Errorf("column_names_original[%d]: table index %d out of range (%d tables)", i, ti, len(s.Tables))
		}
		c := &Column{Name: name}
		if len(e.ColumnTypes) > 0 {
			c.Type = e.ColumnTypes[i]
		}
		t := s.Tables[ti]
		t.Columns = append(t.Columns, c)
		cols[i] = colRef{t, c}
	}
	lookup := func(field string, pos, idx int) (colRef, error) {
		if idx < 0 || idx >= len(cols) || cols[idx].col == nil {
			return colRef{}, fmt.Errorf("%s[%d]: column index %d does not name a column", field, pos, idx)
		}
		return cols[idx], nil
	}
	for i, r := range e.PrimaryKeys {
		var idxs []int
		var one int
		if json.Unmarshal(r, &one) == nil {
			idxs = []int{one}
		} else if err := json.Unmarshal(r, &idxs); err != nil || len(idxs) == 0 {
			return nil, TablesEntry{}, fmt.Errorf("primary_keys[%d]: want a column index or a list of them, got %s", i, r)
		}
		for _, idx := range idxs {
			ref, err := lookup("primary_keys", i, idx)
			if err != nil {
				return nil, TablesEntry{}, err
			}
			if ref.col.PrimaryKey {
				continue
			}
			ref.col.PrimaryKey = true
			ref.table.PrimaryKey = append(ref.table.PrimaryKey, ref.col.Name)
		}
	}
	for i, r := range e.ForeignKeys {
		var pair []int
		if err := json.Unmarshal(r, &pair); err != nil || len(pair) != 2 {
			return nil, TablesEntry{}, fmt.Errorf("foreign_keys[%d]: want [column index, referenced column index], got %s", i, r)
		}
		from, err := lookup("foreign_keys", i, pair[0])
		if err != nil {
			return nil, TablesEntry{}, err
		}
		to, err := lookup("foreign_keys", i, pair[1])
		if err != nil {
			return nil, TablesEntry{}, err
		}
		te.ForeignKeys = append(te.ForeignKeys, [2]int{pair[0], pair[1]})
		from.table.ForeignKeys = append(from.table.ForeignKeys, ForeignKey{
			Columns: []string{from.col.Name}, RefTable: to.table.Name, RefColumns: []string{to.col.Name},
		})
	}
	return s, te, nil
}
