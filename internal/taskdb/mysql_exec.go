package taskdb

import (
	"context"
	"crypto/md5"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// myCopy is a MySQL copy and the one session a task uses on it.
type myCopy struct {
	m       *MySQL
	name    string
	pool    *sql.DB
	conn    *sql.Conn
	id      int64 // the session's CONNECTION_ID(), for KILL QUERY
	dropped bool
	// coms is the session's Com_ counters (statements run, by kind) when it was opened:
	// Reusable compares them, so a copy on which only SELECTs ran serves another task.
	coms map[string]int64
	// dirty: the session was lost mid-task (what ran is not known).
	dirty bool
}

// comCounters reads the session's statement counters.
func comCounters(ctx context.Context, conn *sql.Conn) (map[string]int64, error) {
	rows, err := conn.QueryContext(ctx, `SHOW SESSION STATUS LIKE 'Com\_%'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var name, v string
		if err := rows.Scan(&name, &v); err != nil {
			return nil, err
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		out[strings.ToLower(name)] = n
	}
	return out, rows.Err()
}

// readOnlyCom reports whether a statement counter counts statements that write nothing
// in the database: SELECT, SHOW, SET (a session's variables; the session is closed before
// the copy serves again) and the transaction's own. Every other kind (INSERT, DDL, DO,
// CALL, LOCK, a failed write too) makes the copy one to drop.
func readOnlyCom(name string) bool {
	switch name {
	case "com_select", "com_set_option", "com_begin", "com_commit", "com_rollback", "com_empty_query":
		return true
	}
	return strings.HasPrefix(name, "com_show_")
}

// Reusable reports whether the copy still holds exactly the template's data: only
// statements that write nothing ran on it (its Com_ counters say so). Then its session is
// closed and it may serve another task; otherwise it must be dropped.
func (c *myCopy) Reusable(ctx context.Context) bool {
	if c.dropped || c.dirty {
		return false
	}
	if c.conn == nil {
		return c.coms == nil // never used; a session lost since is dirty
	}
	now, err := comCounters(ctx, c.conn)
	c.close()
	if err != nil {
		return false
	}
	for name, n := range now {
		if n != c.coms[name] && !readOnlyCom(name) {
			return false
		}
	}
	c.coms = nil
	return true
}

func (c *myCopy) Name() string { return c.name }

func (c *myCopy) open(ctx context.Context) error {
	if c.dropped {
		return fmt.Errorf("use of %s: dropped", c.name)
	}
	if c.conn != nil {
		return nil
	}
	pool, err := c.m.open(c.name)
	if err != nil {
		return err
	}
	conn, err := pool.Conn(ctx)
	if err == nil {
		err = conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&c.id)
	}
	if err == nil {
		c.coms, err = comCounters(ctx, conn)
	}
	if err != nil {
		pool.Close()
		return fmt.Errorf("connect to database %s: %w: %s", c.name, ErrConnection, redact(err, c.m.cfg.Passwd))
	}
	c.pool, c.conn = pool, conn
	return nil
}

func (c *myCopy) close() {
	if c.conn != nil {
		c.conn.Close()
		c.pool.Close()
		c.conn, c.pool = nil, nil
	}
}

// Exec runs sql as one multi-statement query in a transaction (statements that commit
// implicitly, DDL, do so as on the server), committed after, rolled back on error. The
// session's statement limit is max_statement_time (MariaDB) or max_execution_time
// (MySQL, SELECTs only); when the context ends first, the statement is killed through a
// maintenance connection (kill). The result is the last statement's that returned rows
// (go-sql-driver skips the results without rows), or none when no statement did.
func (c *myCopy) Exec(ctx context.Context, q string, lim ExecLimits) (*Result, error) {
	if err := c.open(ctx); err != nil {
		return nil, err
	}
	if strings.TrimSpace(q) == "" {
		return nil, &SQLError{Code: "1065", Message: "Query was empty"}
	}
	if lim.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Timeout+timeoutGrace)
		defer cancel()
	}
	set := "SET SESSION max_statement_time = " + strconv.FormatFloat(lim.Timeout.Seconds(), 'f', 3, 64)
	if !c.m.maria {
		set = "SET SESSION max_execution_time = " + strconv.FormatInt(lim.Timeout.Milliseconds(), 10)
	}
	if _, err := c.conn.ExecContext(ctx, set+"; START TRANSACTION"); err != nil {
		return nil, c.execError(ctx, err)
	}
	stop := engine.OnCancel(ctx, c.kill)
	res, err := c.run(ctx, q, lim)
	stop()
	if err != nil {
		if c.conn != nil {
			_, _ = c.conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		}
		return nil, c.execError(ctx, err)
	}
	if _, err := c.conn.ExecContext(ctx, "COMMIT"); err != nil {
		return nil, c.execError(ctx, err)
	}
	return res, nil
}

// killFor bounds how long kill keeps stopping a session.
const killFor = 5 * time.Second

// kill ends the session's statement and the session (KILL QUERY, then KILL CONNECTION,
// through the maintenance connection) and waits until the server no longer lists it. The
// session is lost to us anyway: the driver drops its connection the moment the context
// ends. KILL QUERY alone, as before, missed a statement still on its way (it found the
// session idle, and the statement then ran on: on MySQL without any limit, as
// max_execution_time bounds SELECTs only); a killed session runs nothing that arrives
// after. Its caller (engine.OnCancel) waits for it.
func (c *myCopy) kill() {
	kctx, cancel := context.WithTimeout(context.Background(), killFor)
	defer cancel()
	id := strconv.FormatInt(c.id, 10)
	_ = c.m.exec(kctx, "KILL QUERY "+id)
	for kctx.Err() == nil {
		_ = c.m.exec(kctx, "KILL CONNECTION "+id)
		var n int
		err := c.m.admin.QueryRowContext(kctx, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?", c.id).Scan(&n)
		if err == nil && n == 0 || err != nil && kctx.Err() == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *myCopy) run(ctx context.Context, q string, lim ExecLimits) (*Result, error) {
	rows, err := c.conn.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	last := &Result{}
	var total int64
	capped := false
	for {
		types, err := rows.ColumnTypes()
		if err != nil {
			return nil, err
		}
		res := &Result{HasRows: len(types) > 0}
		binary := make([]bool, len(types))
		for i, t := range types {
			res.Columns = append(res.Columns, Column{Name: t.Name(), Type: strings.ToLower(t.DatabaseTypeName())})
			n := t.DatabaseTypeName()
			binary[i] = strings.Contains(n, "BLOB") || strings.Contains(n, "BINARY") || n == "BIT" || n == "GEOMETRY"
		}
		vals := make([]any, len(types))
		ptrs := make([]any, len(types))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			res.TotalRows++
			if capped || (lim.KeepRows > 0 && len(res.Rows) >= lim.KeepRows) {
				continue
			}
			if err := rows.Scan(ptrs...); err != nil {
				return nil, err
			}
			row := make([]any, len(vals))
			for i, v := range vals {
				switch x := v.(type) {
				case []byte:
					total += int64(len(x))
					if binary[i] {
						row[i] = slices.Clone(x)
					} else {
						row[i] = string(x)
					}
				case nil:
				default:
					row[i] = x
				}
				total += 8
			}
			if total > lim.maxBytes() {
				capped = true
				continue
			}
			res.Rows = append(res.Rows, row)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if res.HasRows {
			last = res
		}
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if capped {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, lim.maxBytes())
	}
	return last, nil
}

// execError classifies err: a timeout (the server's limit, error 1969 on MariaDB and
// 3024 on MySQL, or the context's deadline), the database's own error, or a lost
// connection, after which the session is opened again on next use.
func (c *myCopy) execError(ctx context.Context, err error) error {
	var me *mysql.MySQLError
	switch {
	case errors.As(err, &me) && (me.Number == 1969 || me.Number == 3024):
		return fmt.Errorf("%w: %s", ErrTimeout, me.Message)
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		c.close()
		c.dirty = true
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	case errors.As(err, &me) && !myLostConnection(me.Number):
		return &SQLError{Code: strconv.Itoa(int(me.Number)), Message: me.Message}
	case errors.Is(err, ErrTooLarge):
		return err
	}
	c.close()
	c.dirty = true
	return fmt.Errorf("exec on %s: %w: %s", c.name, ErrConnection, redact(err, c.m.cfg.Passwd))
}

// myLostConnection says whether a server error number ends the session rather than
// judging the SQL: 1053 (the server shutting down), 1927 (MariaDB's "Connection was
// killed", what KILL CONNECTION_ID() gives), 2006 and 2013 (gone away, lost). Like
// PostgreSQL's 57P01, a fault of the infrastructure, never a verdict.
func myLostConnection(n uint16) bool {
	switch n {
	case 1053, 1927, 2006, 2013:
		return true
	}
	return false
}

// Drop closes the session and drops the database.
func (c *myCopy) Drop(ctx context.Context) error {
	c.dropped = true
	c.close()
	return c.m.dropDatabase(ctx, c.name)
}

// Checksum hashes each table's rows (their text, sorted) and the columns of all of them.
func (c *myCopy) Checksum(ctx context.Context) (map[string]string, error) {
	if err := c.open(ctx); err != nil {
		return nil, err
	}
	tables, err := c.m.tables(ctx, c.name)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	for _, t := range tables {
		res, err := c.run(ctx, "SELECT * FROM "+myIdent(t), ExecLimits{})
		if err != nil {
			return nil, fmt.Errorf("checksum %s: %w", t, err)
		}
		lines := make([]string, len(res.Rows))
		for i, row := range res.Rows {
			var b strings.Builder
			for _, v := range row {
				if v == nil {
					b.WriteString("\x01NULL")
				} else {
					fmt.Fprint(&b, v)
				}
				b.WriteByte(0)
			}
			lines[i] = b.String()
		}
		slices.Sort(lines)
		h := md5.Sum([]byte(strings.Join(lines, "\n")))
		sums[t] = strconv.Itoa(res.TotalRows) + ":" + hex.EncodeToString(h[:])
	}
	res, err := c.run(ctx, "SELECT CONCAT_WS(' ', TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, IFNULL(COLUMN_DEFAULT, ''), EXTRA) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION", ExecLimits{})
	if err != nil {
		return nil, fmt.Errorf("checksum schema: %w", err)
	}
	var b strings.Builder
	for _, row := range res.Rows {
		fmt.Fprintln(&b, row[0])
	}
	h := md5.Sum([]byte(b.String()))
	sums["(schema)"] = hex.EncodeToString(h[:])
	return sums, nil
}
