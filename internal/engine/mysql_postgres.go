package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// DBPlaceholder in a server DSN is replaced by the question's db_id, so one DSN serves a
// whole dataset: "postgres://u@host/bird?search_path={db}" (one PostgreSQL schema per
// db_id), "u:pw@tcp(host:3306)/{db}" (one MySQL database per db_id). A DSN without it
// sends every db_id to the same database (BIRD mini-dev's dumps put all tables in one).
const DBPlaceholder = "{db}"

// ErrNoDSN is returned by a server engine that was given no DSN.
var ErrNoDSN = errors.New("no DSN for the database server")

// serverDialect is what differs between PostgreSQL and MySQL once both are behind
// database/sql: how to open, how to bound a statement's time, and how to read errors
// and values.
type serverDialect interface {
	name() string
	// open returns a pool for one expanded DSN.
	open(dsn string) (*sql.DB, error)
	// expandDSN puts db into the DSN template, escaped as the DSN syntax needs.
	expandDSN(tmpl, db string) string
	// setTimeout runs, inside the read-only transaction, what makes the server itself
	// stop the statement after d (0: no limit).
	setTimeout(ctx context.Context, tx *sql.Tx, d time.Duration) error
	// watchCancel arranges for the server to stop the transaction's statement when ctx
	// ends, where the driver does not do it itself; it returns the function that
	// disarms that.
	// dial opens a connection of its own, outside the capped pool.
	watchCancel(ctx context.Context, tx *sql.Tx, dial func() (*sql.DB, error)) (stop func())
	// dbError turns a driver error into ErrTimeout, a *DBError or itself.
	dbError(err error) error
	// normalise maps one scanned value of a column of type dbType to the Result types.
	normalise(dbType string, v any) (any, error)
}

// serverEngine runs queries on a database server through database/sql, one pool per
// expanded DSN, each query in its own read-only transaction that is rolled back.
type serverEngine struct {
	d       serverDialect
	tmpl    string
	maxConn int

	mu    sync.Mutex
	pools map[string]*sql.DB
}

func newServerEngine(d serverDialect, dsn string, maxConns int) *serverEngine {
	if maxConns <= 0 {
		maxConns = 4
	}
	return &serverEngine{d: d, tmpl: dsn, maxConn: maxConns, pools: map[string]*sql.DB{}}
}

func (s *serverEngine) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for k, db := range s.pools {
		if err := db.Close(); err != nil && first == nil {
			first = fmt.Errorf("close %s pool: %w", s.d.name(), err)
		}
		delete(s.pools, k)
	}
	return first
}

func (s *serverEngine) pool(db string) (*sql.DB, error) {
	if s.tmpl == "" {
		return nil, fmt.Errorf("%s: %w", s.d.name(), ErrNoDSN)
	}
	dsn := s.d.expandDSN(s.tmpl, db)
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.pools[dsn]; ok {
		return p, nil
	}
	p, err := s.d.open(dsn)
	if err != nil {
		// The driver's message may quote the DSN; never echo it (it can hold a password).
		return nil, fmt.Errorf("open %s database for %q: invalid DSN", s.d.name(), db)
	}
	p.SetMaxOpenConns(s.maxConn)
	p.SetMaxIdleConns(s.maxConn)
	p.SetConnMaxIdleTime(5 * time.Minute)
	s.pools[dsn] = p
	return p, nil
}

// readOnlyStart lists the first keywords a read-only query may start with. It is a
// first lock, before the read-only transaction: MySQL commits implicitly before DDL, so
// a CREATE or DROP would otherwise escape the transaction.
var readOnlyStart = map[string]bool{"select": true, "with": true, "values": true, "table": true, "(": true}

// firstKeyword returns the lower-cased first word of q after white space and comments,
// or "(" when q starts with a parenthesis.
func firstKeyword(q string) string {
	i := 0
	for i < len(q) {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(q) && q[i+1] == '-', c == '#':
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			i = sqlscan.Next(q, i).End
		case c == '(':
			return "("
		default:
			j := i
			for j < len(q) && (q[j] == '_' || q[j] >= 'a' && q[j] <= 'z' || q[j] >= 'A' && q[j] <= 'Z') {
				j++
			}
			return strings.ToLower(q[i:j])
		}
	}
	return ""
}

// Query executes one read-only statement on database db (a db_id, put into the DSN
// template). Guards, in order: one statement only (the server refuses a second one
// too: multi-statement mode is never enabled), a first keyword that only reads, a
// read-only transaction that is always rolled back, a server-side statement timeout and
// context cancellation.
func (s *serverEngine) Query(ctx context.Context, db, query string, lim Limits) (*Result, error) {
	if err := checkText(query); err != nil {
		return nil, err
	}
	first, more := sqlscan.FirstStatement(query)
	if !more {
		// Send the statement without its trailing semicolon; when the SQLite splitter
		// sees more (maybe wrongly, e.g. MySQL's backslash escapes) the server decides.
		query = first
	}
	if sqlscan.OnlyTrivia(query) {
		return nil, ErrEmptyQuery
	}
	if !readOnlyStart[firstKeyword(query)] {
		return nil, ErrNotReadOnly
	}
	p, err := s.pool(db)
	if err != nil {
		return nil, err
	}
	qctx, cancel := withTimeout(ctx, lim.Timeout)
	defer cancel()
	start := time.Now()
	res, err := s.run(qctx, p, db, query, lim)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, ErrTimeout) {
			if notOurCancel(qctx, start, lim.Timeout) {
				return nil, &FaultError{Op: s.d.name() + " cancelled the statement", Hint: "find what cancels or kills statements on the server (an administrator, a monitor), then resume",
					Err: fmt.Errorf("stopped after %s, before its limit (%s) and not by us", time.Since(start).Round(time.Millisecond), limitText(lim.Timeout))}
			}
			return nil, ErrTimeout // the server itself stopped the statement: it is there
		}
		if qctx.Err() != nil {
			// The deadline passed on our side. A slow statement, or a server that no
			// longer answers (at the connection, BEGIN or the statement): ask it.
			if perr := s.probe(ctx, db); perr != nil {
				return nil, s.redact(perr)
			}
			return nil, ErrTimeout
		}
		return nil, s.redact(err)
	}
	return res, nil
}

// cancelSlack is how much earlier than its limit the server may stop a statement for it:
// MariaDB's limit is sent in seconds with three decimals, rounded.
const cancelSlack = 50 * time.Millisecond

// notOurCancel reports whether a statement the server says was cancelled (PostgreSQL's
// 57014, MySQL's 1317: the same codes as its statement limit) was cancelled by someone
// else: our deadline had not passed and the statement had not run for its limit. A
// cancel we did not send is not a timeout verdict: the same query may well finish (the
// attack: pg_cancel_backend or KILL QUERY from another session turned a 4 s query under a
// 10 s limit into "query timed out").
func notOurCancel(qctx context.Context, start time.Time, limit time.Duration) bool {
	if qctx.Err() != nil {
		return false
	}
	return limit <= 0 || time.Since(start)+cancelSlack < limit
}

func limitText(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return d.String()
}

// probe pings the server of database db after a statement ran out of time without the
// server saying so; an error is a *FaultError. The ping goes over a connection of its
// own: the pool's may all be busy with slow statements, and waiting for one would make
// a busy server look like a silent one.
func (s *serverEngine) probe(ctx context.Context, db string) error {
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	p, err := s.d.open(s.d.expandDSN(s.tmpl, db))
	if err != nil {
		return nil // the pool opened with the same DSN: cannot happen; and it says nothing about the server
	}
	defer p.Close()
	err = p.PingContext(pctx)
	if err == nil || ctx.Err() != nil {
		return nil
	}
	if f := s.d.dbError(err); errors.Is(f, ErrInfrastructure) {
		return f
	}
	if pctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &FaultError{Op: s.d.name() + " stopped answering", Err: fmt.Errorf("a query ran out of time, then a ping got no answer: %w", err)}
	}
	return nil // the server answered, if with an error: it is there, the statement was slow
}

// dialer opens, on each call, a one-connection handle on database db outside its pool:
// for a KILL, which must not queue behind the pool's other statements (under load the
// pool's connections are all busy, and a KILL waiting for one let a cancelled statement
// run on for 578 s on MariaDB).
func (s *serverEngine) dialer(db string) func() (*sql.DB, error) {
	return func() (*sql.DB, error) {
		p, err := s.d.open(s.d.expandDSN(s.tmpl, db))
		if err != nil {
			return nil, err
		}
		p.SetMaxOpenConns(1)
		return p, nil
	}
}

// redact keeps the DSN's password out of an error, whose message may reach a record:
// a driver's connection error can quote the DSN.
func (s *serverEngine) redact(err error) error {
	pw := dsnPassword(strings.ReplaceAll(s.tmpl, DBPlaceholder, "db"))
	if pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	var fe *FaultError
	if errors.As(err, &fe) {
		return &FaultError{Op: fe.Op, Err: errors.New(strings.ReplaceAll(fe.Err.Error(), pw, "***"))}
	}
	msg := strings.ReplaceAll(err.Error(), pw, "***")
	var dbe *DBError
	if errors.As(err, &dbe) {
		return &DBError{Message: msg, Class: dbe.Class}
	}
	return errors.New(msg)
}

func (s *serverEngine) run(ctx context.Context, p *sql.DB, db, query string, lim Limits) (*Result, error) {
	maxBytes := lim.byteCap()
	c, setBound, overBound, done, err := boundedConn(ctx, s.d, p, maxBytes)
	if err == nil {
		defer done()
	}
	var tx *sql.Tx
	if err == nil {
		tx, err = c.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	}
	if err != nil {
		if err := s.d.dbError(err); errors.Is(err, ErrInfrastructure) {
			return nil, err // says itself what failed
		}
		return nil, fmt.Errorf("connect to %s: %w", s.d.name(), s.d.dbError(err))
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep, and the error says nothing useful
	if err := s.d.setTimeout(ctx, tx, lim.Timeout); err != nil {
		return nil, fmt.Errorf("set %s statement timeout: %w", s.d.name(), s.d.dbError(err))
	}
	defer s.d.watchCancel(ctx, tx, s.dialer(db))()
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		if overBound(err) {
			return nil, byteLimitError(maxBytes)
		}
		return nil, s.d.dbError(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, s.d.dbError(err)
	}
	names := make([]string, len(cts))
	types := make([]string, len(cts))
	for i, ct := range cts {
		names[i] = ct.Name()
		types[i] = strings.ToUpper(ct.DatabaseTypeName())
	}
	b := NewResultBuilder(names)
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	setBound(types, maxBytes)
	for rows.Next() {
		if lim.MaxRows > 0 && b.NumRows() >= lim.MaxRows {
			return nil, fmt.Errorf("%w (%d rows)", ErrRowLimit, lim.MaxRows)
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, s.d.dbError(err)
		}
		for i, v := range vals {
			nv, err := s.d.normalise(types[i], v)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", names[i], err)
			}
			b.AppendValue(nv)
			if maxBytes > 0 && b.Bytes() > maxBytes {
				return nil, byteLimitError(maxBytes)
			}
		}
		if err := b.EndRow(); err != nil {
			return nil, err
		}
		setBound(types, maxBytes-b.Bytes())
	}
	if err := rows.Err(); err != nil {
		if overBound(err) {
			return nil, byteLimitError(maxBytes)
		}
		return nil, s.d.dbError(err)
	}
	return b.Result(), nil
}

// copyBytes copies a driver buffer (drivers reuse them) and keeps an empty value non-nil.
func copyBytes(b []byte) []byte {
	c := make([]byte, len(b))
	copy(c, b)
	return c
}
