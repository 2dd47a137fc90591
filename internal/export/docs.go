package export

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// KeyField is the field of every exported document that holds its document key. cbimport
// takes the key from it and leaves it out of the stored document:
//
//	cbimport json --format lines -g %_key% --ignore-fields _key ...
const KeyField = "_key"

// KeySeparator joins the values of a composite primary key in a document key.
const KeySeparator = "::"

// DocStats says what WriteDocsTo wrote.
type DocStats struct {
	Collections, Documents int
}

// WriteDocsTo writes every table of the SQLite database at src as a JSON Lines file
// <table>.jsonl in dir (the table's name encoded by FileName, so no table name can put a
// file outside dir): one document per row, fields in column order, values mapped as
// integers -> JSON integers, reals -> JSON numbers (non-finite ones as strings), text ->
// strings, NULL -> null, blobs -> base64 strings. Each document's KeyField is its key:
// the primary key's values (joined by KeySeparator) or, without one, the rowid, so
// re-exporting the same database gives the same keys.
func WriteDocsTo(ctx context.Context, src string, dir *Dir) (DocStats, error) {
	var st DocStats
	e := engine.NewSQLite()
	defer e.Close()
	tables, err := ReadTables(ctx, e, src)
	if err != nil {
		return st, err
	}
	for _, t := range tables {
		n, err := writeCollection(ctx, e, src, dir, t)
		if err != nil {
			return st, fmt.Errorf("export %q: %w", t.Name, err)
		}
		st.Collections++
		st.Documents += n
	}
	return st, nil
}

func writeCollection(ctx context.Context, e *engine.SQLite, src string, dir *Dir, t Table) (int, error) {
	pk := t.PK()
	var sel []string
	keyCols := make([]int, 0, len(pk))
	if len(pk) == 0 {
		if !t.RowID {
			return 0, fmt.Errorf("table %s has neither a primary key nor a rowid", t.Name)
		}
		sel = append(sel, "_rowid_")
		keyCols = append(keyCols, 0)
	}
	off := len(sel)
	for i, c := range t.Columns {
		sel = append(sel, sqlscan.QuoteIdent(c.Name))
		for _, p := range pk {
			if p.Name == c.Name {
				keyCols = append(keyCols, off+i)
			}
		}
	}
	if len(pk) > 0 { // keyCols must follow primary-key order, not column order
		keyCols = keyCols[:0]
		for _, p := range pk {
			for i, c := range t.Columns {
				if c.Name == p.Name {
					keyCols = append(keyCols, off+i)
				}
			}
		}
	}
	order := ""
	if t.RowID {
		order = " ORDER BY _rowid_"
	}
	// A whole table to export: no byte cap (the default is for predictions' results).
	res, err := e.Query(ctx, src, "SELECT "+strings.Join(sel, ", ")+" FROM "+sqlscan.QuoteIdent(t.Name)+order, engine.Limits{MaxBytes: -1})
	if err != nil {
		return 0, fmt.Errorf("read: %w", err)
	}
	f, path, err := dir.Create(t.Name, ".jsonl")
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	seen := make(map[string]bool, res.NumRows())
	for n := range res.NumRows() {
		r := res.Row(n)
		var kp []string
		for _, k := range keyCols {
			kp = append(kp, keyPart(r[k]))
		}
		key := strings.Join(kp, KeySeparator)
		if seen[key] {
			f.Close()
			return 0, fmt.Errorf("row %d: duplicate document key %q", n+1, key)
		}
		seen[key] = true
		w.WriteString(`{"` + KeyField + `":`)
		writeJSON(w, key)
		for i, c := range t.Columns {
			w.WriteByte(',')
			writeJSON(w, c.Name)
			w.WriteByte(':')
			writeJSON(w, docValue(r[off+i]))
		}
		w.WriteString("}\n")
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	return res.NumRows(), nil
}

func writeJSON(w *bufio.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil { // only values docValue produced reach here: all marshal
		b = []byte("null")
	}
	w.Write(b)
}

// docValue maps one SQLite value to its JSON form.
func docValue(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	}
	return v // nil, int64, string
}

func keyPart(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	}
	return fmt.Sprint(v)
}
