package collect

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// A database as prompts show it: CREATE TABLE statements, each column followed by a
// comment with a few of its distinct values (read through the read-only engine), so the
// model sees how values are spelt.

// dbInfo is one database's schema and sample values, read once per run.
type dbInfo struct {
	path    string // where the engine runs the pipeline's queries
	schema  *dbschema.Schema
	samples map[string][]string // "table\x00column" -> rendered values
	shapes  *docShapes          // SQL++: the document shapes prompts show instead
}

type dbCache struct {
	mu  sync.Mutex
	dbs map[string]*dbEntry
}

type dbEntry struct {
	once sync.Once
	info *dbInfo
	err  error
}

// get returns the database loaded under key, loading it once.
func (c *dbCache) get(key string, load func() (*dbInfo, error)) (*dbInfo, error) {
	c.mu.Lock()
	e := c.dbs[key]
	if e == nil {
		e = &dbEntry{}
		c.dbs[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.info, e.err = load() })
	return e.info, e.err
}

func loadDB(ctx context.Context, eng engine.Engine, path string, samples int) (*dbInfo, error) {
	s, err := dbschema.Introspect(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	info := &dbInfo{path: path, schema: s, samples: map[string][]string{}}
	if samples == 0 {
		return info, nil
	}
	for _, t := range s.Tables {
		for _, c := range t.Columns {
			q := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL LIMIT %d", quoteIdent(c.Name), quoteIdent(t.Name), quoteIdent(c.Name), samples)
			res, err := eng.Query(ctx, path, q, engine.Limits{Timeout: 5 * time.Second, MaxRows: samples})
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				continue // a column we cannot sample is shown without values
			}
			var vals []string
			for rowI := range res.NumRows() {
				row := res.Row(rowI)
				if len(row) > 0 {
					vals = append(vals, renderValue(row[0]))
				}
			}
			info.samples[t.Name+"\x00"+c.Name] = vals
		}
	}
	return info, nil
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func quoteIdent(s string) string {
	if plainIdent.MatchString(s) {
		return s
	}
	return sqlscan.QuoteIdent(s)
}

func renderValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []byte:
		return "<blob>"
	case string:
		if utf8.RuneCountInString(x) > 40 {
			r := []rune(x)
			x = string(r[:40]) + "..."
		}
		x = strings.ReplaceAll(x, "\n", " ")
		return sqlscan.QuoteString(x)
	}
	return fmt.Sprint(v)
}

// renderSchema writes CREATE TABLE statements for the selected tables and columns (all of
// them when sel is nil). Key columns of a selected table are always kept, so joins stay
// possible; a selected table with no columns listed shows all of its columns.
func (d *dbInfo) renderSchema(sel map[string][]string) string {
	if d.shapes != nil {
		return d.shapes.render(sel)
	}
	var b strings.Builder
	for _, t := range d.schema.Tables {
		want, ok := pick(sel, t)
		if !ok {
			continue
		}
		var lines []string
		singlePK := len(t.PrimaryKey) == 1
		for _, c := range t.Columns {
			if !want(c) {
				continue
			}
			line := "  " + quoteIdent(c.Name)
			if c.Type != "" {
				line += " " + c.Type
			}
			if singlePK && strings.EqualFold(t.PrimaryKey[0], c.Name) {
				line += " PRIMARY KEY"
			}
			if vals := d.samples[t.Name+"\x00"+c.Name]; len(vals) > 0 {
				line += ", -- examples: " + strings.Join(vals, ", ")
			} else {
				line += ","
			}
			lines = append(lines, line)
		}
		if len(t.PrimaryKey) > 1 {
			lines = append(lines, "  PRIMARY KEY ("+joinIdents(t.PrimaryKey)+"),")
		}
		for _, fk := range t.ForeignKeys {
			if _, ok := pick(sel, d.schema.Table(fk.RefTable)); !ok {
				continue
			}
			lines = append(lines, fmt.Sprintf("  FOREIGN KEY (%s) REFERENCES %s(%s),", joinIdents(fk.Columns), quoteIdent(fk.RefTable), joinIdents(fk.RefColumns)))
		}
		fmt.Fprintf(&b, "CREATE TABLE %s (\n", quoteIdent(t.Name))
		for i, l := range lines {
			if i == len(lines)-1 {
				// the last definition takes no comma; keep its comment
				if k := strings.Index(l, ", -- "); k >= 0 {
					l = l[:k] + " -- " + l[k+len(", -- "):]
				} else {
					l = strings.TrimSuffix(l, ",")
				}
			}
			b.WriteString(l + "\n")
		}
		b.WriteString(");\n\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// pick says whether table t is selected and which of its columns to show.
func pick(sel map[string][]string, t *dbschema.Table) (func(*dbschema.Column) bool, bool) {
	if t == nil {
		return nil, false
	}
	if sel == nil {
		return func(*dbschema.Column) bool { return true }, true
	}
	var cols []string
	found := false
	for name, cs := range sel {
		if strings.EqualFold(name, t.Name) {
			cols, found = append(cols, cs...), true
		}
	}
	if !found {
		return nil, false
	}
	if len(cols) == 0 {
		return func(*dbschema.Column) bool { return true }, true
	}
	keys := map[string]bool{}
	for _, k := range t.PrimaryKey {
		keys[strings.ToLower(k)] = true
	}
	for _, fk := range t.ForeignKeys {
		for _, k := range fk.Columns {
			keys[strings.ToLower(k)] = true
		}
	}
	for _, c := range cols {
		keys[strings.ToLower(c)] = true
	}
	return func(c *dbschema.Column) bool { return keys[strings.ToLower(c.Name)] }, true
}

func joinIdents(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = quoteIdent(x)
	}
	return strings.Join(out, ", ")
}
