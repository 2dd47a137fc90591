package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// ErrInfrastructure marks an error that says nothing about the query: the connection to
// the server was lost, the server stopped answering, or the database could not be opened.
// A judge must not turn it into a verdict: the same query may well run once the database
// is back. Match it with errors.Is; the error itself is a *FaultError.
var ErrInfrastructure = errors.New("infrastructure fault")

// FaultError is an infrastructure fault: Op says what failed ("lost connection to
// postgres"), Err is the driver's or the operating system's error, Hint (may be empty)
// what to do before resuming ("end the process writing it"); without one, callers say to
// restart the database server.
type FaultError struct {
	Op   string
	Err  error
	Hint string
}

func (e *FaultError) Error() string { return e.Op + ": " + e.Err.Error() }

// Unwrap gives the cause, so errors.Is(err, io.ErrUnexpectedEOF) still works.
func (e *FaultError) Unwrap() error { return e.Err }

// Is makes every FaultError match ErrInfrastructure.
func (e *FaultError) Is(target error) bool { return target == ErrInfrastructure }

// FaultHint is the Hint of the FaultError in err's chain, or "restart the database
// server" when it has none.
func FaultHint(err error) string {
	var fe *FaultError
	if errors.As(err, &fe) && fe.Hint != "" {
		return fe.Hint
	}
	return "restart the database server"
}

// probeTimeout bounds the ping that tells a slow query from a server that stopped
// answering (serverEngine.Query).
const probeTimeout = 5 * time.Second

// connectTimeout bounds opening a connection to a server, so a server that accepts TCP
// connections but never answers cannot hang a query that has no timeout.
const connectTimeout = 10 * time.Second

// netFault reports whether err is the network or the driver saying the connection is
// gone or cannot be made, whichever server it was talking to: EOF in the middle of a
// reply, a refused or reset connection, database/sql's ErrBadConn, a failed dial.
func netFault(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the caller's context or the statement timeout: not the server's doing
	}
	var opErr *net.OpError
	var dnsErr *net.DNSError
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) ||
		errors.As(err, &opErr) || errors.As(err, &dnsErr)
}

// pgFaultCodes are the SQLSTATEs of a server going away or refusing connections; the
// whole class 08 (connection_exception) counts too.
var pgFaultCodes = map[string]bool{
	"57P01": true, // admin_shutdown: pg_ctl stop, or the backend terminated
	"57P02": true, // crash_shutdown
	"57P03": true, // cannot_connect_now: the server is starting or stopping
	"53300": true, // too_many_connections
}

// commonServerError is how every server dialect's dbError starts: the end of ctx stays
// itself and a fault (as fault judges it) becomes serverFault's error; ok is false for a
// database's own error, which the dialect maps by its codes.
func commonServerError(err error, name string, fault func(error) bool) (_ error, ok bool) {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return err, true
	case fault(err):
		return serverFault(name, err), true
	}
	return nil, false
}

// serverFault is the *FaultError of a server engine for err.
func serverFault(name string, err error) error {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.Is(err, syscall.ECONNREFUSED) {
		return &FaultError{Op: "cannot connect to " + name, Err: err}
	}
	return &FaultError{Op: "lost connection to " + name, Err: err}
}

// pgFault reports whether a pgx error is an infrastructure fault.
func pgFault(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pgFaultCodes[pe.Code] || len(pe.Code) == 5 && pe.Code[:2] == "08"
	}
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || netFault(err)
}

// mysqlFaultCodes are MySQL/MariaDB error numbers of a server going away.
var mysqlFaultCodes = map[uint16]bool{
	1040: true, // ER_CON_COUNT_ERROR: too many connections
	1053: true, // ER_SERVER_SHUTDOWN
	// A user's connection limit (MAX_USER_CONNECTIONS, max_user_connections: how
	// docs/scale.md bounds N shards on one server) says nothing about the query either.
	1203: true, // ER_TOO_MANY_USER_CONNECTIONS
	1226: true, // ER_USER_LIMIT_REACHED
	1927: true, // ER_CONNECTION_KILLED (MariaDB)
	2002: true, // CR_CONNECTION_ERROR
	2003: true, // CR_CONN_HOST_ERROR
	2006: true, // CR_SERVER_GONE_ERROR
	2013: true, // CR_SERVER_LOST
}

// mysqlFault reports whether a go-sql-driver error is an infrastructure fault.
func mysqlFault(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return mysqlFaultCodes[me.Number]
	}
	return errors.Is(err, mysql.ErrInvalidConn) || netFault(err)
}
