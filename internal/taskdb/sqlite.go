package taskdb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// SQLite makes templates and copies as files in one directory the tool owns. Names:
// nl2sb-t-<db>-<hash>.sqlite (a template, read-only once built), nl2sb-b-<owner>-<n>
// (being built), nl2sb-c-<owner>-<n>.sqlite (a copy).
type SQLite struct {
	dir string
	me  owner
}

// OpenSQLite uses dir (created if missing) for templates and copies.
func OpenSQLite(dir string) (*SQLite, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create task database directory: %w", err)
	}
	return &SQLite{dir: dir, me: self()}, nil
}

// SQLiteTemplate is a built template file.
type SQLiteTemplate struct {
	s    *SQLite
	path string
}

// Path is the template file.
func (t *SQLiteTemplate) Path() string { return t.path }

// Template returns the template file of setup, building it when missing.
func (s *SQLite) Template(ctx context.Context, setup Setup) (*SQLiteTemplate, error) {
	db := unsafeName.ReplaceAllString(strings.ToLower(setup.Name), "")
	if len(db) > 24 {
		db = db[:24]
	}
	path := filepath.Join(s.dir, "nl2sb-t-"+db+"-"+setup.Hash()[:16]+".sqlite")
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return &SQLiteTemplate{s: s, path: path}, nil
	}
	build := filepath.Join(s.dir, "nl2sb-b-"+s.me.tag()+"-"+strconv.FormatInt(nameSeq.Add(1), 10))
	if err := buildSQLite(ctx, build, setup); err != nil {
		os.Remove(build)
		return nil, err
	}
	if err := os.Chmod(build, 0o444); err != nil {
		os.Remove(build)
		return nil, fmt.Errorf("lock template: %w", err)
	}
	if err := os.Rename(build, path); err != nil {
		os.Remove(build)
		return nil, fmt.Errorf("install template: %w", err)
	}
	return &SQLiteTemplate{s: s, path: path}, nil
}

func buildSQLite(ctx context.Context, path string, setup Setup) error {
	db, err := engine.OpenSQLiteFile(path, "_journal_mode=OFF&_synchronous=OFF")
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("build %s: %w", setup.Name, err)
	}
	defer tx.Rollback()
	for _, st := range setup.Steps {
		for _, stmt := range statements(st.SQL) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("build %s: %s: %w", setup.Name, st.Source, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("build %s: commit: %w", setup.Name, err)
	}
	return nil
}

// statements splits sql as SQLite does (quotes and comments respected), dropping empty ones.
func statements(sql string) []string {
	var out []string
	for rest := sql; rest != ""; {
		first, more := sqlscan.FirstStatement(rest)
		if !sqlscan.OnlyTrivia(first) {
			out = append(out, first)
		}
		if !more {
			break
		}
		rest = rest[len(first):]
		rest = strings.TrimPrefix(strings.TrimLeft(rest, " \t\r\n\f"), ";")
	}
	return out
}

// Copy copies the template file and opens the copy.
func (t *SQLiteTemplate) Copy(ctx context.Context) (Copy, error) {
	s := t.s
	path := filepath.Join(s.dir, "nl2sb-c-"+s.me.tag()+"-"+strconv.FormatInt(nameSeq.Add(1), 10)+".sqlite")
	if err := copyFile(t.path, path); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("copy template: %w", err)
	}
	db, err := engine.OpenSQLiteFile(path, "_foreign_keys=1")
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return &sqliteCopy{path: path, db: db}, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Sweep removes copies and unfinished builds whose owner is gone.
func (s *SQLite) Sweep(context.Context) ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("list task databases: %w", err)
	}
	var dropped []string
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, "nl2sb-c-") && !strings.HasPrefix(n, "nl2sb-b-") {
			continue
		}
		tag := strings.ReplaceAll(strings.TrimSuffix(n[len("nl2sb-c-"):], ".sqlite"), "-", "_")
		o, _, ok := parseTag(tag)
		if !ok || !o.gone() {
			continue
		}
		p := filepath.Join(s.dir, n)
		for _, f := range []string{p, p + "-journal", p + "-wal", p + "-shm"} {
			if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
				return dropped, fmt.Errorf("remove %s: %w", f, err)
			}
		}
		dropped = append(dropped, p)
	}
	return dropped, nil
}

type sqliteCopy struct {
	path string
	db   *sql.DB
}

func (c *sqliteCopy) Name() string { return c.path }

// Exec runs each statement of sql in one transaction and returns the last one's rows,
// as SQLite stored the values (no conversion by declared type).
func (c *sqliteCopy) Exec(ctx context.Context, query string, lim ExecLimits) (*Result, error) {
	if lim.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Timeout)
		defer cancel()
	}
	if strings.IndexByte(query, 0) >= 0 {
		// SQLite reads SQL up to a NUL and would run what precedes it silently; Python's
		// sqlite3, which the official SQLite evaluators use, refuses such a query.
		return nil, &SQLError{Message: "the query contains a null character"}
	}
	stmts := statements(query)
	if len(stmts) == 0 {
		return nil, &SQLError{Message: "empty query"}
	}
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return nil, sqliteError(ctx, err)
	}
	defer conn.Close()
	var res *Result
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		if _, err := sc.ExecContext(ctx, "BEGIN", nil); err != nil {
			return err
		}
		var err error
		for i, st := range stmts {
			if i < len(stmts)-1 {
				if _, err = sc.ExecContext(ctx, st, nil); err != nil {
					break
				}
				continue
			}
			res, err = sqliteQuery(ctx, sc, st, lim)
		}
		if err != nil {
			_, _ = sc.ExecContext(context.WithoutCancel(ctx), "ROLLBACK", nil)
			return err
		}
		_, err = sc.ExecContext(ctx, "COMMIT", nil)
		return err
	})
	if err != nil {
		return nil, sqliteError(ctx, err)
	}
	return res, nil
}

func sqliteQuery(ctx context.Context, sc *sqlite3.SQLiteConn, st string, lim ExecLimits) (*Result, error) {
	drows, err := sc.QueryContext(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer drows.Close()
	rows := drows.(*sqlite3.SQLiteRows)
	decl := rows.DeclTypes()
	res := &Result{HasRows: len(rows.Columns()) > 0}
	for i, name := range rows.Columns() {
		res.Columns = append(res.Columns, Column{Name: name, Type: decl[i]})
		decl[i] = "" // no conversion by declared type (a DATE text stays text)
	}
	dest := make([]driver.Value, len(res.Columns))
	var total int64
	for {
		if err := rows.Next(dest); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		res.TotalRows++
		if lim.KeepRows > 0 && len(res.Rows) >= lim.KeepRows {
			continue
		}
		row := make([]any, len(dest))
		for i, v := range dest {
			switch x := v.(type) {
			case []byte:
				row[i] = append([]byte{}, x...)
				total += int64(len(x))
			case string:
				row[i] = strings.Clone(x)
				total += int64(len(x))
			default:
				row[i] = x
			}
			total += 8
		}
		if total > lim.maxBytes() {
			return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, lim.maxBytes())
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

func sqliteError(ctx context.Context, err error) error {
	var se sqlite3.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	case errors.As(err, &se):
		return &SQLError{Code: strconv.Itoa(int(se.ExtendedCode)), Message: se.Error()}
	}
	return err
}

func (c *sqliteCopy) Drop(context.Context) error {
	err := c.db.Close()
	for _, f := range []string{c.path, c.path + "-journal", c.path + "-wal", c.path + "-shm"} {
		if rerr := os.Remove(f); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = rerr
		}
	}
	return err
}

// Checksum hashes each table's rows (sorted) and the schema's SQL.
func (c *sqliteCopy) Checksum(ctx context.Context) (map[string]string, error) {
	lim := ExecLimits{}
	res, err := c.Exec(ctx, "SELECT name, coalesce(sql, '') FROM sqlite_master WHERE type IN ('table', 'index', 'view', 'trigger') ORDER BY type, name", lim)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	sums := map[string]string{}
	var schema []string
	for _, r := range res.Rows {
		name, ddl := r[0].(string), r[1].(string)
		schema = append(schema, ddl)
		if !strings.HasPrefix(strings.ToUpper(ddl), "CREATE TABLE") || strings.HasPrefix(name, "sqlite_") {
			continue
		}
		rows, err := c.Exec(ctx, "SELECT * FROM "+sqlscan.QuoteIdent(name), lim)
		if err != nil {
			return nil, fmt.Errorf("checksum %s: %w", name, err)
		}
		lines := make([]string, len(rows.Rows))
		for i, row := range rows.Rows {
			lines[i] = fmt.Sprintf("%#v", row)
		}
		sort.Strings(lines)
		sums[name] = strconv.Itoa(len(lines)) + ":" + hashLines(lines)
	}
	sums["(schema)"] = hashLines(schema)
	return sums, nil
}

func hashLines(lines []string) string {
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}
