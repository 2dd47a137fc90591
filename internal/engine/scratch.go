package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// A scratch database is a private in-memory SQLite database loaded from a script that
// came from someone else (a counterexample in a run directory). Loading it must write,
// so the read-only file path cannot be used; instead every statement is held to a short
// list (CREATE TABLE, CREATE INDEX, INSERT, PRAGMA foreign_keys) twice over, by its
// leading keyword and, when SQLite prepares it, by scriptAuthorizer. The connection
// can attach nothing (SQLITE_LIMIT_ATTACHED = 0), loads no extension, holds at most
// MaxPages pages and values of at most MaxValueBytes, and the whole script is
// interrupted at Timeout. Once loaded, the connection is query_only with the read-only
// authorizer, as a benchmark database's is.

// scratchDriverName is the go-sqlite3 driver of scratch databases (scratchConnect).
const scratchDriverName = "sqlite3_nl2sqlbench_scratch"

func init() {
	sql.Register(scratchDriverName, &sqlite3.SQLiteDriver{ConnectHook: scratchConnect})
}

// scratchDSN is a private in-memory database with foreign keys enforced.
const scratchDSN = "file::memory:?_foreign_keys=1"

// ScriptLimits bound loading a script into a scratch database.
type ScriptLimits struct {
	Timeout       time.Duration // the whole script; 0: DefaultScriptLimits'
	MaxPages      int           // the database's size (PRAGMA max_page_count); 0: default
	MaxValueBytes int           // one value, and one statement's text; 0: default
}

// DefaultScriptLimits are far above what a counterexample (a few dozen rows) needs.
var DefaultScriptLimits = ScriptLimits{Timeout: 10 * time.Second, MaxPages: 16384, MaxValueBytes: 16 << 20}

func (l ScriptLimits) orDefault() ScriptLimits {
	d := DefaultScriptLimits
	if l.Timeout > 0 {
		d.Timeout = l.Timeout
	}
	if l.MaxPages > 0 {
		d.MaxPages = l.MaxPages
	}
	if l.MaxValueBytes > 0 {
		d.MaxValueBytes = l.MaxValueBytes
	}
	return d
}

// ErrScriptRefused is LoadScript's error for a statement outside the script whitelist.
var ErrScriptRefused = errors.New("script statement refused")

// scratchConnect sets what no statement may change: nothing can be attached, and the
// script authorizer is in place before the first statement is prepared.
func scratchConnect(c *sqlite3.SQLiteConn) error {
	c.SetLimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
	c.SetLimit(sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH, 1)
	c.RegisterAuthorizer(scriptAuthorizer)
	return nil
}

// scriptStatements are the leading keywords a script statement may have. VACUUM (which
// with INTO writes a new file) has no authorizer action, so the keyword is checked too.
var scriptKeywords = map[string]bool{"CREATE": true, "INSERT": true, "PRAGMA": true}

// scriptAuthorizer allows what loading a counterexample needs and nothing else: tables
// and indexes in main (and the schema rows SQLite writes for them), inserts, reads,
// functions other than extension loading, and PRAGMA foreign_keys / foreign_key_check.
func scriptAuthorizer(op int, arg1, arg2, db string) int {
	switch op {
	case sqlite3.SQLITE_CREATE_TABLE, sqlite3.SQLITE_CREATE_INDEX, sqlite3.SQLITE_INSERT:
		if db == "main" {
			return sqlite3.SQLITE_OK
		}
	case sqlite3.SQLITE_UPDATE:
		if db == "main" && isSchemaTable(arg1) { // CREATE TABLE fills in its schema row
			return sqlite3.SQLITE_OK
		}
	case sqlite3.SQLITE_READ, sqlite3.SQLITE_SELECT, sqliteRecursive:
		return sqlite3.SQLITE_OK
	case sqlite3.SQLITE_FUNCTION:
		if !deniedFunctions[strings.ToLower(arg2)] {
			return sqlite3.SQLITE_OK
		}
	case sqlite3.SQLITE_PRAGMA:
		switch strings.ToLower(arg1) {
		case "foreign_keys", "foreign_key_check":
			return sqlite3.SQLITE_OK
		}
	}
	return sqlite3.SQLITE_DENY
}

// sqliteRecursive is SQLITE_RECURSIVE (a WITH RECURSIVE), which go-sqlite3 does not name.
const sqliteRecursive = 33

// deniedFunctions load code or reach into the process.
var deniedFunctions = map[string]bool{"load_extension": true, "fts3_tokenizer": true}

func isSchemaTable(name string) bool {
	switch strings.ToLower(name) {
	case "sqlite_master", "sqlite_schema":
		return true
	}
	return false
}

// Scratch is a scratch database loaded by LoadScript; its queries run read-only.
type Scratch struct {
	db   *sql.DB
	conn *sql.Conn
}

// LoadScript loads script into a fresh scratch database, statement by statement, under
// lim (see the top of this file). A statement outside the whitelist is ErrScriptRefused;
// SQLite's own errors (a broken constraint, a full database, a value too large) are
// *DBError; running past lim.Timeout is ErrTimeout.
func LoadScript(ctx context.Context, script string, lim ScriptLimits) (*Scratch, error) {
	lim = lim.orDefault()
	if err := checkNUL(script); err != nil {
		return nil, err
	}
	if len(script) > lim.MaxValueBytes*4 {
		return nil, fmt.Errorf("%w: the script is %d bytes, more than %d", ErrScriptRefused, len(script), lim.MaxValueBytes*4)
	}
	db, err := sql.Open(scratchDriverName, scratchDSN)
	if err != nil {
		return nil, fmt.Errorf("open scratch database: %w", err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open scratch database: %w", err)
	}
	s := &Scratch{db: db, conn: conn}
	lctx, cancel := withTimeout(ctx, lim.Timeout)
	defer cancel()
	err = s.Raw(func(c *sqlite3.SQLiteConn) error {
		c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, lim.MaxValueBytes)
		c.SetLimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, lim.MaxValueBytes)
		c.RegisterAuthorizer(nil) // our own settings, not the script's
		_, err := c.Exec("PRAGMA max_page_count = "+strconv.Itoa(lim.MaxPages), nil)
		c.RegisterAuthorizer(scriptAuthorizer)
		if err != nil {
			return fmt.Errorf("set max_page_count: %w", err)
		}
		for _, st := range scriptStatements(script) {
			if err := execScript(lctx, c, st); err != nil {
				return err
			}
		}
		// From here on the database is only read, as a benchmark file is.
		c.RegisterAuthorizer(nil)
		_, err = c.Exec("PRAGMA query_only = 1", nil)
		c.RegisterAuthorizer(readOnlyAuthorizer)
		return err
	})
	if err != nil {
		s.Close()
		return nil, queryError(ctx, lctx, err)
	}
	return s, nil
}

// execScript runs one statement of a script, once its keyword and SQLite's authorizer
// allowed it.
func execScript(ctx context.Context, c *sqlite3.SQLiteConn, st string) error {
	kw := leadingKeyword(st)
	if !scriptKeywords[kw] {
		return fmt.Errorf("%w: %s", ErrScriptRefused, abbrev(st))
	}
	ss, err := prepareSQLite(c, st)
	if errors.Is(err, ErrNotReadOnly) || err != nil && strings.Contains(err.Error(), "not authorized") {
		return fmt.Errorf("%w: not authorized: %s", ErrScriptRefused, abbrev(st))
	}
	if err != nil {
		return err
	}
	defer ss.Close()
	if _, err := ss.ExecContext(ctx, nil); err != nil {
		return dbError(err)
	}
	return nil
}

// scriptStatements splits script at the semicolons that end statements (as
// firstStatement reads them), leaving out empty ones.
func scriptStatements(script string) []string {
	var out []string
	for {
		first, _ := sqlscan.FirstStatement(script)
		if !sqlscan.OnlyTrivia(first) {
			out = append(out, first)
		}
		if len(first) >= len(script) {
			return out
		}
		script = script[len(first)+1:]
	}
}

// leadingKeyword is the letters that start st's first token after white space and
// comments, upper-cased ("" when that token does not start with a letter).
func leadingKeyword(st string) string {
	code := sqlscan.Code(st)
	if len(code) == 0 {
		return ""
	}
	w := code[0].Text(st)
	j := 0
	for j < len(w) && (w[j] >= 'a' && w[j] <= 'z' || w[j] >= 'A' && w[j] <= 'Z') {
		j++
	}
	return strings.ToUpper(w[:j])
}

// abbrev is a statement's start, for an error message.
func abbrev(st string) string {
	st = strings.Join(strings.Fields(st), " ")
	if len(st) > 80 {
		st = st[:80] + "..."
	}
	return strconv.Quote(st)
}

// Raw calls fn with the scratch database's connection (for callers that run several
// queries through QueryConn). fn must not change the connection's settings.
func (s *Scratch) Raw(fn func(c *sqlite3.SQLiteConn) error) error {
	return s.conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		return fn(c)
	})
}

// Query runs one read-only statement on the scratch database, as QueryConn does.
func (s *Scratch) Query(ctx context.Context, query string, lim Limits) (*Result, error) {
	var res *Result
	err := s.Raw(func(c *sqlite3.SQLiteConn) error {
		var err error
		res, err = QueryConn(ctx, c, query, lim)
		return err
	})
	return res, err
}

// Close closes the scratch database; it is gone with its connection.
func (s *Scratch) Close() error {
	s.conn.Close()
	return s.db.Close()
}
