package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
)

// TestFaultClassification: connection losses are faults, errors about the query and the
// statement timeout are not.
func TestFaultClassification(t *testing.T) {
	opErr := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	cases := []struct {
		name      string
		err       error
		pg, mysql bool
	}{
		{"unexpected EOF", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true, true},
		{"EOF", io.EOF, true, true},
		{"bad conn", driver.ErrBadConn, true, true},
		{"net.OpError", opErr, true, true},
		{"connection reset", fmt.Errorf("write: %w", syscall.ECONNRESET), true, true},
		{"broken pipe", syscall.EPIPE, true, true},
		{"deadline", context.DeadlineExceeded, false, false},
		{"canceled", context.Canceled, false, false},
		{"plain error", errors.New("something"), false, false},
		{"pg admin_shutdown", &pgconn.PgError{Code: "57P01"}, true, false},
		{"pg crash_shutdown", &pgconn.PgError{Code: "57P02"}, true, false},
		{"pg cannot_connect_now", &pgconn.PgError{Code: "57P03"}, true, false},
		{"pg connection_failure", &pgconn.PgError{Code: "08006"}, true, false},
		{"pg connection_exception", &pgconn.PgError{Code: "08000"}, true, false},
		{"pg too_many_connections", &pgconn.PgError{Code: "53300"}, true, false},
		{"pg undefined_table", &pgconn.PgError{Code: "42P01"}, false, false},
		{"pg query_canceled", &pgconn.PgError{Code: "57014"}, false, false},
		{"pg division_by_zero", &pgconn.PgError{Code: "22012"}, false, false},
		{"mysql invalid conn", mysql.ErrInvalidConn, false, true},
		{"mysql 2006", &mysql.MySQLError{Number: 2006}, false, true},
		{"mysql 2013", &mysql.MySQLError{Number: 2013}, false, true},
		{"mysql 1053", &mysql.MySQLError{Number: 1053}, false, true},
		{"mysql 1040 too many connections", &mysql.MySQLError{Number: 1040}, false, true},
		{"mysql 1203 user connection limit", &mysql.MySQLError{Number: 1203}, false, true},
		{"mysql 1226 user resource limit", &mysql.MySQLError{Number: 1226}, false, true},
		{"mysql 1146", &mysql.MySQLError{Number: 1146}, false, false},
		{"mysql 1969", &mysql.MySQLError{Number: 1969}, false, false},
	}
	for _, tc := range cases {
		if got := pgFault(tc.err); got != tc.pg {
			t.Errorf("%s: pgFault = %v, want %v", tc.name, got, tc.pg)
		}
		if got := mysqlFault(tc.err); got != tc.mysql {
			t.Errorf("%s: mysqlFault = %v, want %v", tc.name, got, tc.mysql)
		}
		pe := pgDialect{}.dbError(tc.err)
		if got := errors.Is(pe, ErrInfrastructure); got != tc.pg {
			t.Errorf("%s: postgres dbError = %v, infrastructure %v, want %v", tc.name, pe, got, tc.pg)
		}
		me := (&mysqlDialect{}).dbError(tc.err)
		if got := errors.Is(me, ErrInfrastructure); got != tc.mysql {
			t.Errorf("%s: mysql dbError = %v, infrastructure %v, want %v", tc.name, me, got, tc.mysql)
		}
	}
}

func TestFaultErrorWraps(t *testing.T) {
	err := fmt.Errorf("question 3: %w", &FaultError{Op: "lost connection to postgres", Err: io.ErrUnexpectedEOF})
	if !errors.Is(err, ErrInfrastructure) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("%v: errors.Is does not see ErrInfrastructure and the cause", err)
	}
	if got, want := err.Error(), "question 3: lost connection to postgres: unexpected EOF"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// TestServerUnreachable: a server nobody listens for, and one that accepts connections
// and never answers, are faults for both server engines, not query errors or timeouts.
func TestServerUnreachable(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a probe timeout")
	}
	t.Parallel() // waits, 5 s in a row before (issue 44)
	closed := closedPort(t)
	silent := silentServer(t)
	cases := []struct {
		name string
		eng  Engine
	}{
		{"postgres refused", NewPostgres("postgres://u:secretpw@"+closed+"/db?sslmode=disable", 1)},
		{"mysql refused", NewMySQL("u:secretpw@tcp("+closed+")/{db}", 1)},
		{"postgres silent", NewPostgres("postgres://u:secretpw@"+silent+"/db?sslmode=disable", 1)},
		{"sqlpp refused", sqlppAt(t, "http://"+closed)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // an engine each; the listeners outlive the subtests (Cleanup of the parent)
			defer tc.eng.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := tc.eng.Query(ctx, "db", "SELECT 1", Limits{Timeout: 300 * time.Millisecond})
			if !errors.Is(err, ErrInfrastructure) {
				t.Fatalf("err = %v, want ErrInfrastructure", err)
			}
			if errors.Is(err, ErrTimeout) {
				t.Errorf("err = %v is also a timeout", err)
			}
		})
	}
}

func sqlppAt(t *testing.T, endpoint string) Engine {
	t.Helper()
	e, err := NewSQLPP(endpoint, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// closedPort is a loopback address nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// silentServer accepts connections on loopback and never writes a byte.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

// TestSQLiteFileGone: a database file that is not there (any more) when it is queried is
// a fault, and still ErrNoDatabase.
func TestSQLiteFileGone(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gone.sqlite")
	if err := createDB(p, fixtureStmts...); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t)
	_, err := e.Query(context.Background(), p, "SELECT 1 FROM t", Limits{})
	if !errors.Is(err, ErrInfrastructure) || !errors.Is(err, ErrNoDatabase) {
		t.Errorf("err = %v, want ErrInfrastructure and ErrNoDatabase", err)
	}
	for _, code := range []sqlite3.ErrNo{sqlite3.ErrCantOpen, sqlite3.ErrIoErr} {
		if err := dbError(sqlite3.Error{Code: code}); !errors.Is(err, ErrInfrastructure) {
			t.Errorf("sqlite code %d: %v, want ErrInfrastructure", code, err)
		}
	}
	if err := dbError(sqlite3.Error{Code: sqlite3.ErrError}); errors.Is(err, ErrInfrastructure) {
		t.Errorf("SQLITE_ERROR: %v is a fault", err)
	}
}
