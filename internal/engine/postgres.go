package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib" // also registers the "pgx" database/sql driver, which the tests use
)

// Postgres runs queries on a PostgreSQL server (jackc/pgx/v5). Each query runs in a
// READ ONLY transaction that is rolled back, with SET LOCAL statement_timeout so the
// server itself stops a runaway query, and pgx cancels it when the context ends. The
// db argument of Query is a db_id, put into the DSN where it says {db}. Safe for
// concurrent use; one pool per expanded DSN.
type Postgres struct{ *serverEngine }

var _ Engine = Postgres{}

// NewPostgres returns an engine for the DSN template dsn (a postgres:// URL or a
// key=value string; see DBPlaceholder). maxConns caps each pool (default 4).
func NewPostgres(dsn string, maxConns int) Postgres {
	return Postgres{newServerEngine(pgDialect{}, dsn, maxConns)}
}

type pgDialect struct{}

func (pgDialect) name() string { return "postgres" }

// open builds the pool with a context handler that sends PostgreSQL a cancel request
// when a query's context ends. pgx's default only drops the socket's deadline, and the
// server would go on running the statement, holding its locks, until it next writes.
func (pgDialect) open(dsn string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 2 * time.Second}
	}
	return stdlib.OpenDB(*cfg), nil
}

// expandDSN puts db into tmpl. In the value of search_path, each schema that names
// {db} ("{db}", "{db}_cli") is written as a quoted identifier: PostgreSQL folds an
// unquoted one to lower case, so Spider's cre_Doc_Template_Mgt, which load-db creates as
// "cre_Doc_Template_Mgt", was never found (every question on it a gold error), and a
// comma in a db_id would have made a list of schemas.
func (pgDialect) expandDSN(tmpl, db string) string {
	url_ := strings.Contains(tmpl, "://")
	const key = "search_path="
	if i := strings.Index(tmpl, key); i >= 0 {
		start := i + len(key)
		end := strings.IndexAny(tmpl[start:], "& \t")
		if end < 0 {
			end = len(tmpl) - start
		}
		end += start
		val := tmpl[start:end]
		if url_ {
			if v, err := url.QueryUnescape(val); err == nil {
				val = v
			}
		}
		parts := strings.Split(val, ",")
		for k, p := range parts {
			if strings.Contains(p, DBPlaceholder) {
				parts[k] = `"` + strings.ReplaceAll(strings.ReplaceAll(p, DBPlaceholder, db), `"`, `""`) + `"`
			}
		}
		val = strings.Join(parts, ",")
		if url_ {
			val = url.QueryEscape(val)
		}
		tmpl = tmpl[:start] + val + tmpl[end:]
	}
	if url_ {
		return strings.ReplaceAll(tmpl, DBPlaceholder, url.QueryEscape(db))
	}
	return strings.ReplaceAll(tmpl, DBPlaceholder, db) // key=value form: db_ids have no spaces
}

func (pgDialect) setTimeout(ctx context.Context, tx *sql.Tx, d time.Duration) error {
	if d <= 0 {
		return nil // SET LOCAL ends with the transaction: nothing to reset
	}
	ms := max(d.Milliseconds(), 1)
	_, err := tx.ExecContext(ctx, "SET LOCAL statement_timeout = "+strconv.FormatInt(ms, 10))
	return err
}

// watchCancel does nothing: the pool's context handler (open) cancels on the server.
func (pgDialect) watchCancel(context.Context, *sql.Tx, func() (*sql.DB, error)) func() {
	return func() {}
}

// pgCategories maps SQLSTATE codes to the judge's categories.
var pgCategories = map[string]ErrorClass{
	"42P01": ClassNoTable,    // undefined_table
	"3F000": ClassNoTable,    // invalid_schema_name
	"42703": ClassNoColumn,   // undefined_column
	"42883": ClassNoFunction, // undefined_function
	"42601": ClassSyntax,     // syntax_error
}

func (pgDialect) dbError(err error) error {
	if e, ok := commonServerError(err, "postgres", pgFault); ok {
		return e
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57014": // query_canceled: statement_timeout or a cancel request
			return ErrTimeout
		case "25006": // read_only_sql_transaction
			return fmt.Errorf("%w: %s", ErrNotReadOnly, pe.Message)
		}
		return &DBError{Message: fmt.Sprintf("%s (SQLSTATE %s)", pe.Message, pe.Code), Class: pgCategories[pe.Code]}
	}
	return &DBError{Message: err.Error()}
}

// normalise maps pgx's values to SQLite's: booleans become 0/1, NUMERIC an int64 or a
// float64 when one holds it exactly, else a Decimal (decimal.go), dates and times their
// ISO text, anything else its text form.
func (pgDialect) normalise(dbType string, v any) (any, error) {
	switch x := v.(type) {
	case nil, int64, float64:
		return x, nil
	case string:
		if dbType == "NUMERIC" {
			return parseDecimal(x)
		}
		return x, nil
	case []byte:
		if dbType == "BYTEA" {
			return copyBytes(x), nil
		}
		return string(x), nil
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case float32:
		return float64(x), nil
	case int32:
		return int64(x), nil
	case time.Time:
		return formatTime(dbType, x), nil
	default:
		return fmt.Sprint(x), nil
	}
}

// formatTime writes a date or time value as the text SQLite's date functions produce.
func formatTime(dbType string, t time.Time) string {
	switch dbType {
	case "DATE":
		return t.Format("2006-01-02")
	case "TIMESTAMPTZ":
		return t.Format("2006-01-02 15:04:05.999999-07:00")
	default:
		return t.Format("2006-01-02 15:04:05.999999")
	}
}
