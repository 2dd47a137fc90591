package taskdb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// pgCopy is a PostgreSQL copy and the one connection a task uses on it.
type pgCopy struct {
	p       *Postgres
	name    string
	conn    *pgx.Conn // connected on first use: a copy waiting in a Pool holds no connection
	dropped bool
	types   *pgtype.Map
	// dirty: a statement may have changed the copy (anything but SELECT ran, a
	// transaction was given an id, or it failed in a way that leaves doubt); seqs is the
	// sequences' state when the copy was opened. A copy neither dirty nor with other
	// sequences is the template's data still, and Reusable says so.
	dirty bool
	seqs  string
}

// roleDefaults and sessionDefaults list the settings a session took from the role
// (ALTER ROLE ... SET) and, for sessionDefaults, from its database: a copy has none of
// its own (CREATE DATABASE ... TEMPLATE copies no settings), so a copy's session must
// start with exactly the role's defaults the run began with. A prediction may change
// them (the role owns its copies and may set its own defaults); without this check
// every later task would be judged with them, a silent change of verdicts.
const (
	roleDefaults    = `SELECT coalesce(string_agg(format('%s=%s', name, setting), ', ' ORDER BY name), '') FROM pg_settings WHERE source = 'user'`
	sessionDefaults = `SELECT coalesce(string_agg(format('%s=%s', name, setting) || CASE source WHEN 'user' THEN '' ELSE ' (' || source || ')' END, ', ' ORDER BY name, source), '') FROM pg_settings WHERE source IN ('user', 'database', 'database user')`
)

// seqState is every sequence's last value: nextval changes it outside any transaction.
const seqState = `SELECT coalesce(string_agg(format('%s.%s=%s', schemaname, sequencename, last_value), ',' ORDER BY schemaname, sequencename), '') FROM pg_sequences`

// Reusable reports whether the copy still holds exactly the template's data: only
// SELECTs ran on it, none was given a transaction id (nothing was written, no temporary
// table), and its sequences are as they were. Then its connection is closed (no session
// state carries over) and it may serve another task; otherwise it must be dropped.
func (c *pgCopy) Reusable(ctx context.Context) bool {
	if c.dropped || c.dirty {
		return false
	}
	if c.conn == nil {
		return true // never used
	}
	var now string
	err := c.conn.QueryRow(ctx, seqState).Scan(&now)
	_ = c.conn.Close(ctx)
	c.conn = nil
	return err == nil && now == c.seqs
}

// open connects to the copy on its first use.
func (c *pgCopy) open(ctx context.Context) error {
	if c.dropped {
		return fmt.Errorf("use of %s: dropped", c.name)
	}
	if c.conn != nil {
		return nil
	}
	conn, err := c.p.connect(ctx, c.name)
	if err != nil {
		return err
	}
	if err := conn.QueryRow(ctx, seqState).Scan(&c.seqs); err != nil {
		_ = conn.Close(ctx)
		return fmt.Errorf("connect to database %s: %w: %v", c.name, ErrConnection, err)
	}
	var defaults string
	if err := conn.QueryRow(ctx, sessionDefaults).Scan(&defaults); err != nil {
		_ = conn.Close(ctx)
		return fmt.Errorf("connect to database %s: %w: %v", c.name, ErrConnection, err)
	}
	if defaults != c.p.roleDefaults {
		_ = conn.Close(ctx)
		return fmt.Errorf("connect to database %s: %w: its sessions start with [%s], the run began with [%s]; "+
			"undo it (ALTER ROLE %s RESET ...) before resuming", c.name, ErrRoleChanged, defaults, c.p.roleDefaults, c.p.base.User)
	}
	c.conn = conn
	return nil
}

func (c *pgCopy) Name() string { return c.name }

// timeoutGrace is how long after its statement_timeout a statement's context ends: the
// server's own timeout should come first, with its SQLSTATE.
const timeoutGrace = 2 * time.Second

// Exec runs sql as psycopg2 runs cursor.execute in the official evaluator: BEGIN, SET
// statement_timeout, the SQL as one simple query (several statements allowed, the last
// one's result returned), then COMMIT, or ROLLBACK when anything failed.
func (c *pgCopy) Exec(ctx context.Context, sql string, lim ExecLimits) (*Result, error) {
	if strings.IndexByte(sql, 0) >= 0 {
		// The protocol's query is a C string: the server drops the session with 08P01
		// (a lost connection, so a fault), although the fault is the SQL's.
		return nil, &SQLError{Code: "22021", Message: "the SQL holds a NUL (0x00) byte, which PostgreSQL cannot take"}
	}
	if err := c.open(ctx); err != nil {
		return nil, err
	}
	if lim.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Timeout+timeoutGrace)
		defer cancel()
	}
	pc := c.conn.PgConn()
	ms := int64(0)
	if lim.Timeout > 0 {
		ms = max(lim.Timeout.Milliseconds(), 1)
	}
	if err := pc.Exec(ctx, "BEGIN; SET statement_timeout = "+strconv.FormatInt(ms, 10)).Close(); err != nil {
		c.dirty = true
		return nil, c.execError(ctx, err)
	}
	res, err := c.run(ctx, pc, sql, lim)
	if err == nil {
		err = c.typeNames(ctx, res)
	}
	if err == nil && !c.dirty {
		// A transaction that wrote anything (through a function, SELECT INTO, a
		// temporary table) has been given an id.
		var wrote bool
		if qerr := c.conn.QueryRow(ctx, "SELECT pg_current_xact_id_if_assigned() IS NOT NULL").Scan(&wrote); qerr != nil || wrote {
			c.dirty = true
		}
	}
	if err != nil {
		if !errors.As(err, new(*SQLError)) && !errors.Is(err, ErrTooLarge) {
			var pe *pgconn.PgError
			if !errors.As(err, &pe) {
				c.dirty = true // not the statement's own error: the connection may be in doubt
			}
		}
		if rerr := pc.Exec(context.WithoutCancel(ctx), "ROLLBACK").Close(); rerr != nil && !errors.Is(err, ErrConnection) {
			err = fmt.Errorf("%w (and rollback: %v)", err, rerr)
		}
		return nil, c.execError(ctx, err)
	}
	if err := pc.Exec(ctx, "COMMIT").Close(); err != nil {
		return nil, c.execError(ctx, err)
	}
	return res, nil
}

// run reads every result of sql, keeping the last; rows past KeepRows are read and
// dropped, and more than MaxBytes of values in all fails.
func (c *pgCopy) run(ctx context.Context, pc *pgconn.PgConn, sql string, lim ExecLimits) (*Result, error) {
	mrr := pc.Exec(ctx, sql)
	var last *Result
	var total int64
	capped := false
	for mrr.NextResult() {
		rr := mrr.ResultReader()
		fds := rr.FieldDescriptions()
		res := &Result{HasRows: fds != nil}
		for _, fd := range fds {
			res.Columns = append(res.Columns, Column{Name: fd.Name, OID: fd.DataTypeOID})
		}
		for rr.NextRow() {
			res.TotalRows++
			if capped || (lim.KeepRows > 0 && len(res.Rows) >= lim.KeepRows) {
				continue
			}
			vals := rr.Values()
			row := make([]any, len(vals))
			for i, v := range vals {
				total += int64(len(v)) + 8
				if v != nil {
					row[i] = string(v)
				}
			}
			if total > lim.maxBytes() {
				capped = true // read on without keeping, so the connection stays usable
				continue
			}
			res.Rows = append(res.Rows, row)
		}
		tag, err := rr.Close()
		if err != nil {
			mrr.Close()
			return nil, err
		}
		res.Tag = tag.String()
		if !strings.HasPrefix(res.Tag, "SELECT") {
			c.dirty = true // a write, DDL, or a COMMIT that ends our transaction early
		}
		last = res
	}
	if err := mrr.Close(); err != nil {
		return nil, err
	}
	if capped {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, lim.maxBytes())
	}
	if last == nil || (!last.HasRows && last.Tag == "") {
		// The server's EmptyQueryResponse: psycopg2 raises ProgrammingError for it.
		return nil, &SQLError{Message: "can't execute an empty query"}
	}
	return last, nil
}

// typeNames fills each column's type name: pgx knows the built-in types; any other
// (an enum, a domain, a composite) is looked up in pg_type.
func (c *pgCopy) typeNames(ctx context.Context, res *Result) error {
	if c.types == nil {
		c.types = pgtype.NewMap()
	}
	for i, col := range res.Columns {
		if t, ok := c.types.TypeForOID(col.OID); ok {
			res.Columns[i].Type = t.Name
			continue
		}
		var name string
		err := c.conn.QueryRow(ctx, "SELECT typname FROM pg_type WHERE oid = $1", col.OID).Scan(&name)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		res.Columns[i].Type = name
	}
	return nil
}

// execError classifies err: a timeout, a lost connection, or the database's own error.
func (c *pgCopy) execError(ctx context.Context, err error) error {
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == "57014":
		return fmt.Errorf("%w: %s", ErrTimeout, pe.Message)
	case errors.As(err, &pe) && lostConnection(pe.Code):
		c.dirty = true
		return fmt.Errorf("exec on %s: %w: %s (SQLSTATE %s)", c.name, ErrConnection, pe.Message, pe.Code)
	case errors.As(err, &pe):
		return &SQLError{Code: pe.Code, Message: pe.Message}
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	case errors.Is(err, ErrTooLarge), errors.As(err, new(*SQLError)):
		return err
	case c.conn.PgConn().IsClosed():
		return fmt.Errorf("exec on %s: %w: %v", c.name, ErrConnection, err)
	}
	return fmt.Errorf("exec on %s: %w", c.name, err)
}

// lostConnection says whether SQLSTATE code ends the session rather than judging the
// SQL: class 08 (connection exception) and 57P01-57P05 (the server shutting down or
// crashed, the database dropped, the backend terminated: "terminating connection due to
// administrator command"). The server reports these as errors of the statement that was
// running; they are a fault of the infrastructure, never the prediction's verdict, even
// when the prediction itself called pg_terminate_backend on its own session.
func lostConnection(code string) bool {
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "57P")
}

// Drop closes the connection and drops the database.
func (c *pgCopy) Drop(ctx context.Context) error {
	c.dropped = true
	if c.conn != nil {
		_ = c.conn.Close(ctx)
		c.conn = nil
	}
	return c.p.dropDatabase(ctx, c.name)
}

// Checksum hashes each table of every user schema (its rows' text, sorted) and the
// columns of all of them.
func (c *pgCopy) Checksum(ctx context.Context) (map[string]string, error) {
	if err := c.open(ctx); err != nil {
		return nil, err
	}
	rows, err := c.conn.Query(ctx, `SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
		  AND n.nspname NOT LIKE 'pg\_toast%' AND n.nspname NOT LIKE 'pg\_temp%' ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	sums := map[string]string{}
	for _, t := range tables {
		var n int64
		var sum string
		q := "SELECT count(*), md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) FROM " + t + " r"
		if err := c.conn.QueryRow(ctx, q).Scan(&n, &sum); err != nil {
			return nil, fmt.Errorf("checksum %s: %w", t, err)
		}
		sums[t] = strconv.FormatInt(n, 10) + ":" + sum
	}
	var schema string
	err = c.conn.QueryRow(ctx, `SELECT md5(coalesce(string_agg(format('%s.%s.%s %s %s %s', table_schema, table_name,
		column_name, data_type, is_nullable, coalesce(column_default, '')), E'\n' ORDER BY table_schema, table_name, ordinal_position), ''))
		FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`).Scan(&schema)
	if err != nil {
		return nil, fmt.Errorf("checksum schema: %w", err)
	}
	sums["(schema)"] = schema
	return sums, nil
}
