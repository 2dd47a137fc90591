// Package engine executes one SQL statement against a database, read-only, with a timeout
// that really interrupts the database engine and caps on the rows and bytes it will read.
// It is the only package that opens SQLite: dbschema, match, counterex, demo and cli open
// through it.
//
// # SQLite
//
// A database file is read-only three times over: it is opened with mode=ro
// (OpenSQLiteReadOnly, with ReadOnlyDSN, the one read-only URI), and with immutable=1
// when no -wal or -journal file is beside it (no locks and no re-checks of the file per
// query, since a benchmark database does not change during a run); every connection has
// PRAGMA query_only=1; and each statement is prepared and refused unless SQLite reports
// it cannot write. A second statement in one query is refused, as Python's sqlite3 does
// for the official scripts. The timeout cancels a context that calls sqlite3_interrupt,
// so a runaway query stops using CPU. There is one connection pool per database file.
// Going below database/sql keeps go-sqlite3 from turning DATE columns into time.Time.
// OpenSQLiteMemory and OpenSQLiteFile open the databases the tool builds itself, and
// LoadScript loads a scratch database from an untrusted script.
//
// # Other engines
//
// PostgreSQL, MySQL/MariaDB and SQL++ (Couchbase's Query Service over HTTP) implement the
// same Engine interface; their db argument is a db_id put into a DSN template (server
// dialects share mysql_postgres.go). DuckDB (duckdb*.go) runs on DuckDB files (db is a
// path, as for SQLite) through libduckdb.so loaded at run time with dlopen (--duckdb-lib
// or NL2SQLBENCH_LIBDUCKDB; .ci/duckdb.sh fetches it): no Go module and no link-time
// dependency, so builds and tests without the library work. It opens files READ_ONLY,
// runs only what DuckDB prepares as a SELECT, interrupts with duckdb_interrupt, and
// streams chunks under the row and byte caps (docs/spider2.md#duckdb). With Isolate, each
// statement runs in a worker process with a capped address space (duckdb_worker.go).
//
// # Errors
//
// Database errors come back as DBError with the engine's own message and a Class read
// from its error codes (SQLite: from its message), which the judge maps to error
// categories. What says nothing about the query (a lost connection, a server that stops
// answering, a database file that cannot be opened) is a FaultError, matched by
// errors.Is(err, ErrInfrastructure) (fault.go), so that no infrastructure fault becomes a
// verdict.
//
// # Results
//
// Every engine returns results in one shape, Result (result.go), with values normalised
// to nil, int64, float64, string and []byte, plus an exact decimal (DecimalText,
// decimal.go) for a server NUMERIC/DECIMAL that no int64 or float64 holds exactly,
// compared as Python compares the official scripts' Decimals; so the comparators never
// care which engine ran a query. A Result holds its cells flat, row-major, not as an
// interface value per cell: one kind byte (NULL, int, real, text, blob, decimal; a column
// may mix them, as SQLite allows) and one uint64 per cell (the int64 or float64 bits, or
// an offset into a byte arena that holds every text and blob after its uvarint length),
// plus the sorted indices of SQL++ MISSING cells. A 3-column row of an int, a short text
// and a real costs about 40 bytes, where three boxed values would cost about 120. The
// stores grow in fixed-size chunks (chunk.go), so reading a large result never
// reallocates.
//
// Every engine fills a Result through a ResultBuilder (AppendInt, AppendFloat,
// AppendText, AppendBlob, AppendNull, AppendMissing or AppendValue, then EndRow), which
// also counts the bytes Limits.MaxBytes caps; a new engine only maps its driver's values
// to the kinds. Readers use NumRows, NumCols and the typed accessors (Kind, Int, Float,
// Text, Bytes: a text shares the arena, no copy); Value and Row box one value or row, and
// BoxedRows copies a whole result, only for paths whose results are small or that build a
// bigger text key per row anyway (the audit, tests).
//
// To add an engine: implement Engine (Query, Close) in a new file, run it through the
// contract suite (contract_test.go), which runs against every engine that is available,
// and add it to the engine flags in internal/cli/engines.go.
package engine
