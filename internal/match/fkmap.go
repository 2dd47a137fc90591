package match

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// ErrTables is returned (wrapped) for a tables.json that cannot be read as Spider's.
var ErrTables = errors.New("bad tables.json")

// FKMap maps a column id ("__table.column__", lowercased) to the id of the column that
// stands for its foreign-key group, so that joining on either side of a foreign key
// counts as the same column (build_foreign_key_map of evaluation.py).
type FKMap map[string]string

// fkEntry is the part of one tables.json element the foreign-key map needs.
type fkEntry struct {
	DBID        string            `json:"db_id"`
	Tables      []string          `json:"table_names_original"`
	Columns     []json.RawMessage `json:"column_names_original"` // [table index, name]
	ForeignKeys [][2]int          `json:"foreign_keys"`          // [column index, column index]
}

// ReadFKMaps reads a Spider tables.json into one FKMap per db_id.
//
// A file dbschema reads without error (its checks are the stricter: every column index
// names a real column) is taken from dbschema's parse, shared with the rest of the run;
// any other file is read here, so its error says what it always said.
func ReadFKMaps(path string) (map[string]FKMap, error) {
	if es, err := dbschema.ReadTablesEntries(path); err == nil {
		return fkMapsOf(es), nil
	}
	return readFKMapsFile(path)
}

// readFKMapsFile is ReadFKMaps reading the file itself.
func readFKMapsFile(path string) (map[string]FKMap, error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("read foreign keys: %w", err)
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %w", ErrTables, path, jsonscan.ErrorLine(data, err), err)
	}
	out := make(map[string]FKMap, len(entries))
	for i, raw := range entries {
		var e fkEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("%w: %s: entry %d: %w", ErrTables, path, i, err)
		}
		// The same checks as dbschema.ReadTablesJSON, so that one tables.json is not
		// refused for hardness and accepted for exact set match.
		if e.DBID == "" {
			return nil, fmt.Errorf("%w: %s: entry %d has no db_id", ErrTables, path, i)
		}
		if _, dup := out[e.DBID]; dup {
			return nil, fmt.Errorf("%w: %s: db_id %q appears twice (entry %d)", ErrTables, path, e.DBID, i)
		}
		m, err := e.fkMap()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: db_id %q: %w", ErrTables, path, e.DBID, err)
		}
		out[e.DBID] = m
	}
	return out, nil
}

// fkMap groups the foreign-key pairs and maps every member of a group to the member with
// the smallest column index. Grouping follows the reference exactly: a pair joins the
// first earlier group holding either of its columns, and groups are never merged.
func (e *fkEntry) fkMap() (FKMap, error) {
	ids := make([]string, len(e.Columns))
	for i, raw := range e.Columns {
		var pair [2]json.RawMessage
		if err := json.Unmarshal(raw, &pair); err != nil {
			return nil, fmt.Errorf("column %d: %w", i, err)
		}
		var t int
		var name string
		if err := json.Unmarshal(pair[0], &t); err != nil {
			return nil, fmt.Errorf("column %d: table index: %w", i, err)
		}
		if err := json.Unmarshal(pair[1], &name); err != nil {
			return nil, fmt.Errorf("column %d: name: %w", i, err)
		}
		switch {
		case t == -1:
			ids[i] = "__all__"
		case t < 0:
			return nil, fmt.Errorf("column %d: table index %d out of range", i, t)
		case t < len(e.Tables):
			ids[i] = "__" + strings.ToLower(e.Tables[t]) + "." + strings.ToLower(name) + "__"
		default:
			return nil, fmt.Errorf("column %d: table index %d out of range", i, t)
		}
	}
	for _, fk := range e.ForeignKeys {
		for _, c := range fk {
			if c < 0 || c >= len(ids) {
				return nil, fmt.Errorf("foreign key %v: column index out of range", fk)
			}
		}
	}
	return groupFKs(ids, e.ForeignKeys), nil
}

// fkMapsOf builds the foreign-key maps from entries dbschema read and checked.
func fkMapsOf(es []dbschema.TablesEntry) map[string]FKMap {
	out := make(map[string]FKMap, len(es))
	for _, e := range es {
		ids := make([]string, len(e.Columns))
		for i, c := range e.Columns {
			if c.Table == -1 {
				ids[i] = "__all__"
			} else {
				ids[i] = "__" + strings.ToLower(e.Tables[c.Table]) + "." + strings.ToLower(c.Name) + "__"
			}
		}
		out[e.DBID] = groupFKs(ids, e.ForeignKeys)
	}
	return out
}

// groupFKs groups the foreign-key pairs (column indexes into ids, in range) and maps
// every member of a group to the member with the smallest column index.
func groupFKs(ids []string, fks [][2]int) FKMap {
	var groups [][]int
	for _, fk := range fks {
		g := -1
		for i, members := range groups {
			if slices.Contains(members, fk[0]) || slices.Contains(members, fk[1]) {
				g = i
				break
			}
		}
		if g < 0 {
			groups = append(groups, nil)
			g = len(groups) - 1
		}
		for _, c := range fk {
			if !slices.Contains(groups[g], c) {
				groups[g] = append(groups[g], c)
			}
		}
	}
	m := FKMap{}
	for _, members := range groups {
		rep := ids[slices.Min(members)]
		for _, c := range members {
			m[ids[c]] = rep
		}
	}
	return m
}
