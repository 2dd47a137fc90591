package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
)

// MySQL runs queries on a MySQL or MariaDB server (go-sql-driver/mysql). Each query runs
// in a START TRANSACTION READ ONLY that is rolled back, after the session's server-side
// limit is set (max_statement_time on MariaDB, max_execution_time on MySQL), and the
// driver drops the connection when the context ends. Multi-statement mode is never
// enabled, so the server refuses a second statement. The db argument of Query is a
// db_id, put into the DSN where it says {db}. Safe for concurrent use.
type MySQL struct{ *serverEngine }

var _ Engine = MySQL{}

// NewMySQL returns an engine for the go-sql-driver DSN template dsn
// ("user:pw@tcp(host:3306)/{db}"; see DBPlaceholder). maxConns caps each pool.
func NewMySQL(dsn string, maxConns int) MySQL {
	return MySQL{newServerEngine(&mysqlDialect{}, dsn, maxConns)}
}

type mysqlDialect struct {
	// flavour is 0 until known, then flavourMariaDB or flavourMySQL: which variable
	// bounds a statement's time.
	flavour atomic.Int32
	// noKill makes watchCancel send no KILL: the tests' way to show that the server's
	// own limit (backstop) stops a statement whose KILL is lost.
	noKill bool
}

// killGrace is how long after its context's deadline a statement may run before the
// server's own limit stops it: the KILL comes first, so the context's error is the one
// reported.
const killGrace = time.Second

// backstop is the server-side limit for a statement: its timeout, and when ctx has a
// deadline, no later than killGrace after it. A statement cancelled before its deadline
// is stopped by the KILL alone; one with neither a timeout nor a deadline has no limit.
func backstop(ctx context.Context, timeout time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		left := max(time.Until(dl), 0) + killGrace
		if timeout <= 0 || left < timeout {
			return left
		}
	}
	return timeout
}

const (
	flavourMariaDB = 1
	flavourMySQL   = 2
)

func (*mysqlDialect) name() string { return "mysql" }

// open builds the pool with a dial timeout (connectTimeout) unless the DSN sets one.
func (*mysqlDialect) open(dsn string) (*sql.DB, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	// The driver prints what it drops (a killed connection) on the process's stderr;
	// nothing below main writes there, and the query's error says it.
	cfg.Logger = quietLogger{}
	if cfg.Timeout == 0 {
		cfg.Timeout = connectTimeout
	}
	// Rows over the byte cap are refused unread (mysql_rowbound.go): the socket is ours,
	// and compression, which would hide a row's length from it, is off.
	bounded := cfg.DialFunc == nil && (cfg.Net == "tcp" || cfg.Net == "unix")
	if bounded {
		cfg.DialFunc = dialBounded(usesTLS(cfg))
		if compressed(cfg) {
			if err := cfg.Apply(mysql.EnableCompression(false)); err != nil {
				return nil, err
			}
		}
	}
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	if bounded {
		return sql.OpenDB(boundConnector{c}), nil
	}
	return sql.OpenDB(c), nil
}

func (*mysqlDialect) expandDSN(tmpl, db string) string {
	return strings.ReplaceAll(tmpl, DBPlaceholder, url.PathEscape(db))
}

// setTimeout sets the session's statement limit (0 switches it off, so a limit of an
// earlier query never leaks into the next one on a pooled connection). The limit is
// backstop(ctx, d): it also stops, on the server, a statement whose context ends and
// whose KILL is lost (a runaway once ran 890 s on MariaDB: it had no timeout, only a
// cancelled context, so no limit was set). Both variables count from the statement's
// start; MariaDB's is in seconds (three decimals), MySQL's in milliseconds, and neither
// is rounded down to 0, which is no limit.
func (m *mysqlDialect) setTimeout(ctx context.Context, tx *sql.Tx, d time.Duration) error {
	if d = backstop(ctx, d); d > 0 {
		d = max(d, time.Millisecond)
	}
	maria := func() error {
		_, err := tx.ExecContext(ctx, "SET SESSION max_statement_time = "+strconv.FormatFloat(d.Seconds(), 'f', 3, 64))
		return err
	}
	mysqlOnly := func() error {
		_, err := tx.ExecContext(ctx, "SET SESSION max_execution_time = "+strconv.FormatInt(d.Milliseconds(), 10))
		return err
	}
	switch m.flavour.Load() {
	case flavourMariaDB:
		return maria()
	case flavourMySQL:
		return mysqlOnly()
	}
	err := maria()
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number == 1193 { // unknown system variable: MySQL
		if err = mysqlOnly(); err == nil {
			m.flavour.Store(flavourMySQL)
		}
		return err
	}
	if err == nil {
		m.flavour.Store(flavourMariaDB)
	}
	return err
}

// watchCancel kills the statement (KILL QUERY), then its session (KILL CONNECTION), when ctx
// ends: the driver only drops its connection, and the server would go on running the
// statement, holding its locks, until it next writes to the client. KILL QUERY alone was not
// enough: a cancel that came while the statement was still on its way found the session
// idle, the KILL succeeded on nothing, and the statement then ran unbounded (a contract
// test's cancelled cross join ran over 300 s). The driver discards a cancelled connection,
// so killing the session loses nothing. The KILL goes over a connection of its own (dial), never
// the capped pool: under load every pooled connection is busy, and a KILL queued behind
// them came too late. max_statement_time (setTimeout) is the backstop. OnCancel makes sure the
// KILL is sent even when the statement returned (its connection dropped by the driver) before
// the KILL started, and that the returned stop waits for it.
func (m *mysqlDialect) watchCancel(ctx context.Context, tx *sql.Tx, dial func() (*sql.DB, error)) func() {
	if m.noKill {
		return func() {}
	}
	var id int64
	if err := tx.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return func() {}
	}
	return OnCancel(ctx, func() {
		// Retried for a few seconds: a KILL can fail on a busy server or a pool
		// connection that just went stale. Still best effort: max_statement_time is the
		// backstop when the query has a timeout.
		kctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p, err := dial()
		if err != nil {
			return
		}
		defer p.Close()
		for kctx.Err() == nil {
			_, err := p.ExecContext(kctx, "KILL QUERY "+strconv.FormatInt(id, 10))
			var me *mysql.MySQLError
			if err == nil || errors.As(err, &me) && me.Number == 1094 { // killed, or no such thread: done
				// Then the session itself: a statement still on its way when KILL QUERY
				// found the session idle cannot run on a dead session. Until the server
				// no longer lists it, so that a returned Query has stopped on the server.
				waitGone(kctx, p, id)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// waitGone kills session id (KILL CONNECTION) until the server no longer lists it, or ctx
// ends.
func waitGone(ctx context.Context, p *sql.DB, id int64) {
	for ctx.Err() == nil {
		_, _ = p.ExecContext(ctx, "KILL CONNECTION "+strconv.FormatInt(id, 10))
		var n int
		err := p.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?", id).Scan(&n)
		if err == nil && n == 0 || err != nil && ctx.Err() == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mysqlCategories maps server error numbers to the judge's categories.
var mysqlCategories = map[uint16]ErrorClass{
	1146: ClassNoTable,    // ER_NO_SUCH_TABLE
	1049: ClassNoTable,    // ER_BAD_DB_ERROR
	1054: ClassNoColumn,   // ER_BAD_FIELD_ERROR
	1305: ClassNoFunction, // ER_SP_DOES_NOT_EXIST ("FUNCTION x does not exist")
	1630: ClassNoFunction, // ER_FUNC_INEXISTENT_NAME_COLLISION
	1064: ClassSyntax,     // ER_PARSE_ERROR
	1149: ClassSyntax,     // ER_SYNTAX_ERROR
}

func (*mysqlDialect) dbError(err error) error {
	if e, ok := commonServerError(err, "mysql", mysqlFault); ok {
		return e
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1969, 3024, 1317: // statement time exceeded (MariaDB, MySQL), query interrupted
			return ErrTimeout
		case 1792: // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
			return fmt.Errorf("%w: %s", ErrNotReadOnly, me.Message)
		}
		return &DBError{Message: fmt.Sprintf("%s (MySQL error %d)", me.Message, me.Number), Class: mysqlCategories[me.Number]}
	}
	return &DBError{Message: err.Error()}
}

// normalise maps go-sql-driver's values (int64 and float64 for numbers; bytes for the
// rest) to SQLite's: DECIMAL (and an integer beyond int64) an int64 or a float64 when one
// holds it exactly, else a Decimal (decimal.go), binary strings and BLOBs []byte,
// everything else text.
func (*mysqlDialect) normalise(dbType string, v any) (any, error) {
	switch x := v.(type) {
	case nil, int64, float64:
		return x, nil
	case float32:
		return float64(x), nil
	case uint64:
		if x <= 1<<63-1 {
			return int64(x), nil
		}
		return parseDecimal(strconv.FormatUint(x, 10)) // pymysql gives an int: keep it exact
	case time.Time:
		return formatTime(dbType, x), nil
	case []byte:
		return mysqlBytes(dbType, x)
	case string:
		return mysqlBytes(dbType, []byte(x))
	default:
		return fmt.Sprint(x), nil
	}
}

func mysqlBytes(dbType string, b []byte) (any, error) {
	switch {
	case dbType == "DECIMAL" || dbType == "NEWDECIMAL":
		return parseDecimal(string(b))
	case strings.Contains(dbType, "INT") || dbType == "YEAR":
		if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return i, nil
		}
		return parseDecimal(string(b))
	case dbType == "FLOAT" || dbType == "DOUBLE":
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			return nil, fmt.Errorf("float %q: %w", b, err)
		}
		return f, nil
	case strings.Contains(dbType, "BLOB") || strings.Contains(dbType, "BINARY") || dbType == "BIT" || dbType == "GEOMETRY":
		return copyBytes(b), nil
	}
	return string(b), nil
}

// quietLogger is a mysql.Logger that prints nothing.
type quietLogger struct{}

func (quietLogger) Print(...any) {}
