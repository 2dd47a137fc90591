package dbschema

import (
	"encoding/json"
	"fmt"
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
func ReadTablesJSON(path string) (map[string]*Schema, error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("read tables.json: %w", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %w", ErrBadTablesJSON, path, jsonscan.ErrorLine(data, err), err)
	}
	out := make(map[string]*Schema, len(raw))
	for i, r := range raw {
		var e tablesEntry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("%w: %s: entry %d: %w", ErrBadTablesJSON, path, i, err)
		}
		if e.DBID == "" {
			return nil, fmt.Errorf("%w: %s: entry %d has no db_id", ErrBadTablesJSON, path, i)
		}
		if _, dup := out[e.DBID]; dup {
			return nil, fmt.Errorf("%w: %s: db_id %q appears twice (entry %d)", ErrBadTablesJSON, path, e.DBID, i)
		}
		s, err := e.schema()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: db_id %q: %w", ErrBadTablesJSON, path, e.DBID, err)
		}
		out[e.DBID] = s
	}
	return out, nil
}

// colRef is where a global column index of tables.json landed.
type colRef struct {
	table *Table
	col   *Column
}

func (e *tablesEntry) schema() (*Schema, error) {
	s := &Schema{DBID: e.DBID}
	for _, n := range e.TableNames {
		s.Tables = append(s.Tables, &Table{Name: n})
	}
	if len(e.ColumnTypes) > 0 && len(e.ColumnTypes) != len(e.ColumnNames) {
		return nil, fmt.Errorf("%d column_types for %d column_names_original", len(e.ColumnTypes), len(e.ColumnNames))
	}
	cols := make([]colRef, len(e.ColumnNames)) // by global index; zero for "*"
	for i, r := range e.ColumnNames {
		var pair []json.RawMessage
		var ti int
		var name string
		if err := json.Unmarshal(r, &pair); err != nil || len(pair) != 2 ||
			json.Unmarshal(pair[0], &ti) != nil || json.Unmarshal(pair[1], &name) != nil {
			return nil, fmt.Errorf("column_names_original[%d]: want [table_index, name], got %s", i, r)
		}
		if ti == -1 {
			continue
		}
		if ti < 0 || ti >= len(s.Tables) {
			return nil, fmt.Errorf("column_names_original[%d]: table index %d out of range (%d tables)", i, ti, len(s.Tables))
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
			return nil, fmt.Errorf("primary_keys[%d]: want a column index or a list of them, got %s", i, r)
		}
		for _, idx := range idxs {
			ref, err := lookup("primary_keys", i, idx)
			if err != nil {
				return nil, err
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
			return nil, fmt.Errorf("foreign_keys[%d]: want [column index, referenced column index], got %s", i, r)
		}
		from, err := lookup("foreign_keys", i, pair[0])
		if err != nil {
			return nil, err
		}
		to, err := lookup("foreign_keys", i, pair[1])
		if err != nil {
			return nil, err
		}
		from.table.ForeignKeys = append(from.table.ForeignKeys, ForeignKey{
			Columns: []string{from.col.Name}, RefTable: to.table.Name, RefColumns: []string{to.col.Name},
		})
	}
	return s, nil
}
