package counterex

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// dbInfo is what the search needs from one original database, read once (read-only)
// and shared by every question on it.
type dbInfo struct {
	path   string
	schema *dbschema.Schema
	// collate is each column's declared collation ("table\x00column" lowercased).
	collate map[string]string
	// fkOK says, per "table\x00index" of a foreign key, whether it can be enforced: its
	// parent exists, its parent columns are unique, and the original data satisfies it.
	fkOK map[string]bool
	// fkDirty describes, per key as fkOK, a declared single-column foreign key the data
	// breaks only a little (dirtyFK): kept as a realistic fact, its dirty rows named.
	fkDirty map[string]string
	// samples holds up to sampleRows rows of each table, read lazily.
	mu      sync.Mutex
	samples map[string][][]any
	ro      *sql.DB
	// prof is the data's profile (profile.go), built on first use.
	profOnce sync.Once
	prof     *profile
}

// profile returns the data's profile, built once.
func (d *dbInfo) profile(ctx context.Context) *profile {
	d.profOnce.Do(func() { d.prof = buildProfile(context.WithoutCancel(ctx), d) })
	return d.prof
}

const (
	sampleRows   = 200
	probeTimeout = 2 * time.Second
)

func key(a, b string) string { return strings.ToLower(a) + "\x00" + strings.ToLower(b) }

// openDBInfo introspects the database at path and checks its foreign keys.
func openDBInfo(ctx context.Context, path string, declared ...*dbschema.Schema) (*dbInfo, error) {
	s, err := dbschema.Introspect(ctx, path)
	if err != nil {
		return nil, err
	}
	for _, extra := range declared {
		addForeignKeys(s, extra)
	}
	ro, err := engine.OpenSQLiteReadOnly(path, 2)
	if err != nil {
		return nil, err
	}
	d := &dbInfo{path: path, schema: s, collate: map[string]string{}, fkOK: map[string]bool{}, fkDirty: map[string]string{}, samples: map[string][][]any{}, ro: ro}
	for _, t := range s.Tables {
		var ddl sql.NullString
		_ = ro.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type='table' AND name=?`, t.Name).Scan(&ddl)
		for _, c := range t.Columns {
			if coll := columnCollation(ddl.String, c.Name); coll != "" {
				d.collate[key(t.Name, c.Name)] = coll
			}
		}
		for i, fk := range t.ForeignKeys {
			d.fkOK[key(t.Name, fmt.Sprint(i))] = d.fkUsable(ctx, t, fk)
			if !d.fkOK[key(t.Name, fmt.Sprint(i))] {
				if desc, ok := d.dirtyFK(ctx, t, fk); ok {
					d.fkDirty[key(t.Name, fmt.Sprint(i))] = desc
				}
			}
		}
	}
	return d, nil
}

func (d *dbInfo) Close() error { return d.ro.Close() }

// fkUsable reports whether fk can be declared in a variant: SQLite refuses a foreign key
// whose parent columns are not unique ("foreign key mismatch"), and one the original
// data violates is a documentation hint, not a constraint the queries may rely on.
func (d *dbInfo) fkUsable(ctx context.Context, t *dbschema.Table, fk dbschema.ForeignKey) bool {
	p := d.schema.Table(fk.RefTable)
	if p == nil || len(fk.RefColumns) != len(fk.Columns) || len(fk.Columns) == 0 || strings.EqualFold(p.Name, t.Name) {
		return false
	}
	for _, c := range fk.RefColumns {
		if p.Column(c) == nil {
			return false
		}
	}
	for _, c := range fk.Columns {
		if t.Column(c) == nil {
			return false
		}
	}
	if !sameCols(p.PrimaryKey, fk.RefColumns) && !p.IsUnique(fk.RefColumns...) {
		return false
	}
	var notNull, match []string
	for i, c := range fk.Columns {
		notNull = append(notNull, "c."+sqlscan.QuoteIdent(c)+" IS NOT NULL")
		match = append(match, "p."+sqlscan.QuoteIdent(fk.RefColumns[i])+" = c."+sqlscan.QuoteIdent(c))
	}
	q := fmt.Sprintf("SELECT 1 FROM %s AS c WHERE %s AND NOT EXISTS (SELECT 1 FROM %s AS p WHERE %s) LIMIT 1",
		sqlscan.QuoteIdent(t.Name), strings.Join(notNull, " AND "), sqlscan.QuoteIdent(p.Name), strings.Join(match, " AND "))
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	rows, err := d.ro.QueryContext(ctx, q)
	if err != nil {
		return false
	}
	defer rows.Close()
	violated := rows.Next()
	return !violated && rows.Err() == nil
}

// sample returns up to sampleRows rows of table (all its columns, in order).
func (d *dbInfo) sample(ctx context.Context, t *dbschema.Table) [][]any {
	d.mu.Lock()
	defer d.mu.Unlock()
	if rows, ok := d.samples[strings.ToLower(t.Name)]; ok {
		return rows
	}
	var cols []string
	for _, c := range t.Columns {
		cols = append(cols, sqlscan.QuoteIdent(c.Name))
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var out [][]any
	q := fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(cols, ", "), sqlscan.QuoteIdent(t.Name), sampleRows)
	if conn, err := d.ro.Conn(ctx); err == nil {
		_ = conn.Raw(func(dc any) error {
			if c, ok := dc.(*sqlite3.SQLiteConn); ok {
				if res, err := engine.QueryConn(ctx, c, q, engine.Limits{MaxRows: sampleRows, MaxBytes: 8 << 20}); err == nil {
					out = res.BoxedRows() // at most sampleRows rows
				}
			}
			return nil
		})
		conn.Close()
	}
	d.samples[strings.ToLower(t.Name)] = out
	return out
}

var collateRe = regexp.MustCompile(`(?i)\bCOLLATE\s+("?)(\w+)("?)`)

// columnCollation finds the COLLATE clause of column name in a CREATE TABLE text: the
// definition is cut at the next top-level comma.
func columnCollation(ddl, name string) string {
	open := strings.Index(ddl, "(")
	if open < 0 {
		return ""
	}
	for _, def := range splitTopLevel(ddl[open+1:]) {
		def = strings.TrimSpace(def)
		first := strings.Trim(firstWord(def), "\"`[]'")
		if strings.EqualFold(first, name) {
			if m := collateRe.FindStringSubmatch(def); m != nil {
				return strings.ToUpper(m[2])
			}
			return ""
		}
	}
	return ""
}

// firstWord is a column definition's name: a quoted one, or up to the first white space.
func firstWord(s string) string {
	if s == "" {
		return ""
	}
	switch s[0] {
	case '"', '`', '\'':
		if j := strings.IndexByte(s[1:], s[0]); j >= 0 {
			return s[:j+2]
		}
	case '[':
		if j := strings.IndexByte(s, ']'); j >= 0 {
			return s[:j+1]
		}
	}
	if i := strings.IndexAny(s, " \t\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// splitTopLevel splits s at commas outside parentheses, quotes and comments, up to the
// parenthesis that closes the list.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for _, t := range sqlscan.All(s) {
		if t.Kind != sqlscan.Punct {
			continue
		}
		switch s[t.Start] {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return append(out, s[start:t.Start])
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:t.Start])
				start = t.End
			}
		}
	}
	return append(out, s[start:])
}

func sameCols(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

// dirtyFKShare is the share of a child's rows that may break a declared foreign key
// for it to count as dirty data rather than a false declaration (1%).
const dirtyFKShare = 0.01

// dirtyFK reports whether a declared single-column foreign key that the data breaks is
// broken only a little: by at most 1% of the child's rows, or only by values equal to a
// parent value up to case and surrounding spaces (Spider car_1's ' volkswagen'). desc
// names the dirty values and how many rows hold them.
func (d *dbInfo) dirtyFK(ctx context.Context, t *dbschema.Table, fk dbschema.ForeignKey) (desc string, ok bool) {
	p := d.schema.Table(fk.RefTable)
	if p == nil || len(fk.Columns) != 1 || len(fk.RefColumns) != 1 || t.Column(fk.Columns[0]) == nil || p.Column(fk.RefColumns[0]) == nil || strings.EqualFold(p.Name, t.Name) {
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	c, pc := sqlscan.QuoteIdent(fk.Columns[0]), sqlscan.QuoteIdent(fk.RefColumns[0])
	ct, pt := sqlscan.QuoteIdent(t.Name), sqlscan.QuoteIdent(p.Name)
	var total int
	if err := d.ro.QueryRowContext(ctx, "SELECT count(*) FROM "+ct).Scan(&total); err != nil || total == 0 {
		return "", false
	}
	q := fmt.Sprintf("SELECT c.%s, count(*), EXISTS (SELECT 1 FROM %s AS p WHERE lower(trim(CAST(p.%s AS TEXT))) = lower(trim(CAST(c.%s AS TEXT)))) "+
		"FROM %s AS c WHERE c.%s IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %s AS p WHERE p.%s = c.%s) GROUP BY c.%s LIMIT 1001",
		c, pt, pc, c, ct, c, pt, pc, c, c)
	rows, err := d.ro.QueryContext(ctx, q)
	if err != nil {
		return "", false
	}
	defer rows.Close()
	var bad []string
	broken, variants := 0, true
	for rows.Next() {
		var v any
		var n int
		var alike bool
		if err := rows.Scan(&v, &n, &alike); err != nil {
			return "", false
		}
		broken += n
		variants = variants && alike
		if len(bad) < 5 {
			bad = append(bad, sqlLiteral(v))
		}
	}
	if rows.Err() != nil || broken == 0 || broken > 1000 {
		return "", false
	}
	if float64(broken) > dirtyFKShare*float64(total) && !variants {
		return "", false
	}
	return fmt.Sprintf("declared foreign key %s.%s -> %s.%s; the data breaks it in %d of %d rows: %s.%s = %s", t.Name, fk.Columns[0], p.Name, fk.RefColumns[0],
		broken, total, t.Name, fk.Columns[0], strings.Join(bad, ", ")), true
}

// addForeignKeys adds to s the foreign keys extra (a tables.json entry) declares that
// s (the SQLite file) lacks, where every table and column named exists; they are then
// checked against the data like the file's own.
func addForeignKeys(s, extra *dbschema.Schema) {
	if extra == nil {
		return
	}
	for _, et := range extra.Tables {
		t := s.Table(et.Name)
		if t == nil {
			continue
		}
	next:
		for _, fk := range et.ForeignKeys {
			p := s.Table(fk.RefTable)
			if p == nil || len(fk.Columns) != len(fk.RefColumns) || len(fk.Columns) == 0 {
				continue
			}
			fk = dbschema.ForeignKey{Columns: slices.Clone(fk.Columns), RefTable: p.Name, RefColumns: slices.Clone(fk.RefColumns)}
			for i := range fk.Columns {
				c, pc := t.Column(fk.Columns[i]), p.Column(fk.RefColumns[i])
				if c == nil || pc == nil {
					continue next
				}
				fk.Columns[i], fk.RefColumns[i] = c.Name, pc.Name
			}
			for _, have := range t.ForeignKeys {
				if strings.EqualFold(have.RefTable, fk.RefTable) && sameCols(have.Columns, fk.Columns) && sameCols(have.RefColumns, fk.RefColumns) {
					continue next
				}
			}
			t.ForeignKeys = append(t.ForeignKeys, fk)
		}
	}
}
