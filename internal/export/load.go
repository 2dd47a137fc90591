package export

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// Dialect is a server that LoadSQLite writes to.
type Dialect int

// Supported servers.
const (
	Postgres Dialect = iota
	MySQL
)

// ErrBadSchemaName is returned for a target schema name that is empty or not a plain
// identifier (db_ids are: letters, digits, underscores).
var ErrBadSchemaName = errors.New("target schema name must be letters, digits and underscores")

func (d Dialect) quote(name string) string {
	if d == MySQL {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return sqlscan.QuoteIdent(name)
}

// columnType is the column's type on d. keyText is the VARCHAR length a text column of
// the primary key gets on MySQL, whose index keys are bounded.
func (d Dialect) columnType(c Column, keyText int) string {
	switch d {
	case MySQL:
		switch c.Kind {
		case KindInteger:
			return "BIGINT"
		case KindReal:
			return "DOUBLE"
		case KindBlob:
			return "LONGBLOB"
		}
		if c.PKOrder > 0 {
			return "VARCHAR(" + strconv.Itoa(keyText) + ")"
		}
		return "LONGTEXT"
	default:
		switch c.Kind {
		case KindInteger:
			return "BIGINT"
		case KindReal:
			return "DOUBLE PRECISION"
		case KindBlob:
			return "BYTEA"
		}
		return "TEXT"
	}
}

func (d Dialect) placeholder(n int) string {
	if d == MySQL {
		return "?"
	}
	return "$" + strconv.Itoa(n)
}

// LoadStats says what LoadSQLite wrote.
type LoadStats struct {
	Tables, Rows int
	// Repaired counts text values that PostgreSQL cannot store as they are (invalid
	// UTF-8, NUL characters) and were written with those bytes replaced.
	Repaired int
}

// LoadSQLite copies every table of the SQLite database at src into schema (a
// PostgreSQL schema, a MySQL database) on dst, replacing tables of the same names:
// column types from the stored values (BIGINT, DOUBLE, TEXT, BLOB/BYTEA), primary
// keys kept, foreign keys left out (BIRD's data does not always satisfy them). Rows
// are inserted in multi-row batches inside one transaction per table.
func LoadSQLite(ctx context.Context, src string, d Dialect, dst *sql.DB, schema string) (LoadStats, error) {
	var st LoadStats
	if !plainName(schema) {
		return st, fmt.Errorf("%w: %q", ErrBadSchemaName, schema)
	}
	e := engine.NewSQLite()
	defer e.Close()
	tables, err := ReadTables(ctx, e, src)
	if err != nil {
		return st, err
	}
	create := "CREATE SCHEMA IF NOT EXISTS " + d.quote(schema)
	if d == MySQL {
		create = "CREATE DATABASE IF NOT EXISTS " + d.quote(schema) + " CHARACTER SET utf8mb4"
	}
	if _, err := dst.ExecContext(ctx, create); err != nil {
		return st, fmt.Errorf("create schema %s: %w", schema, err)
	}
	for _, t := range tables {
		n, rep, err := loadTable(ctx, e, src, d, dst, schema, t)
		if err != nil {
			return st, fmt.Errorf("load %s.%s: %w", schema, t.Name, err)
		}
		st.Tables++
		st.Rows += n
		st.Repaired += rep
	}
	return st, nil
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func loadTable(ctx context.Context, e *engine.SQLite, src string, d Dialect, dst *sql.DB, schema string, t Table) (rows, repaired int, err error) {
	qname := d.quote(schema) + "." + d.quote(t.Name)
	// MySQL keys hold at most 3,072 bytes, 4 per utf8mb4 character, 8 per BIGINT.
	nText, nOther := 0, 0
	for _, c := range t.PK() {
		if c.Kind == KindText {
			nText++
		} else {
			nOther++
		}
	}
	keyText := 255
	if nText > 0 {
		keyText = max(1, (3072-8*nOther)/4/nText)
	}
	var defs []string
	for _, c := range t.Columns {
		defs = append(defs, d.quote(c.Name)+" "+d.columnType(c, keyText))
	}
	if pk := t.PK(); len(pk) > 0 {
		var names []string
		for _, c := range pk {
			names = append(names, d.quote(c.Name))
		}
		defs = append(defs, "PRIMARY KEY ("+strings.Join(names, ", ")+")")
	}
	drop := "DROP TABLE IF EXISTS " + qname
	if d == Postgres {
		drop += " CASCADE"
	}
	if _, err := dst.ExecContext(ctx, drop); err != nil {
		return 0, 0, fmt.Errorf("drop: %w", err)
	}
	if _, err := dst.ExecContext(ctx, "CREATE TABLE "+qname+" (\n  "+strings.Join(defs, ",\n  ")+"\n)"); err != nil {
		return 0, 0, fmt.Errorf("create: %w", err)
	}
	var sel []string
	for _, c := range t.Columns {
		sel = append(sel, sqlscan.QuoteIdent(c.Name))
	}
	// A whole table of a database we were asked to copy: no byte cap (the default is for
	// predictions' results), whatever its size.
	res, err := e.Query(ctx, src, "SELECT "+strings.Join(sel, ", ")+" FROM "+sqlscan.QuoteIdent(t.Name), engine.Limits{MaxBytes: -1})
	if err != nil {
		return 0, 0, fmt.Errorf("read: %w", err)
	}
	if res.NumRows() == 0 || len(t.Columns) == 0 {
		return 0, 0, nil
	}
	tx, err := dst.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	batch := max(1, min(500, 60000/len(t.Columns)))
	var cols []string
	for _, c := range t.Columns {
		cols = append(cols, d.quote(c.Name))
	}
	head := "INSERT INTO " + qname + " (" + strings.Join(cols, ", ") + ") VALUES "
	for start := 0; start < res.NumRows(); start += batch {
		end := min(start+batch, res.NumRows())
		var b strings.Builder
		b.WriteString(head)
		args := make([]any, 0, (end-start)*len(t.Columns))
		for i := start; i < end; i++ {
			r := res.Row(i)
			if i > start {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j, v := range r {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(d.placeholder(len(args) + 1))
				v, fixed := toTarget(d, t.Columns[j].Kind, v)
				if fixed {
					repaired++
				}
				args = append(args, v)
			}
			b.WriteByte(')')
		}
		if _, err := tx.ExecContext(ctx, b.String(), args...); err != nil {
			return 0, 0, fmt.Errorf("insert rows %d-%d: %w", start+1, end, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, fmt.Errorf("commit: %w", err)
	}
	return res.NumRows(), repaired, nil
}

// toTarget converts a value for a column of kind k: numbers into a text column become
// their SQLite text form, and text that PostgreSQL cannot hold is repaired (fixed true).
func toTarget(d Dialect, k Kind, v any) (any, bool) {
	if k == KindText {
		switch x := v.(type) {
		case int64:
			return strconv.FormatInt(x, 10), false
		case float64:
			return strconv.FormatFloat(x, 'g', 15, 64), false
		case []byte:
			v = string(x)
		}
	}
	s, ok := v.(string)
	if !ok || d != Postgres || k == KindBlob {
		if ok && k == KindBlob {
			return []byte(s), false
		}
		return v, false
	}
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s, false
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", ""), true
}
