package engine

import (
	"errors"
	"fmt"
	"os"
)

// ErrUnknownEngine is returned by OpenServer for an engine name it does not know.
var ErrUnknownEngine = errors.New("unknown engine")

// DSNFromEnv reads a DSN template from the environment variable name. The error names
// the variable, never its value (a DSN may hold a password).
func DSNFromEnv(name string) (string, error) {
	dsn := os.Getenv(name)
	if dsn == "" {
		return "", fmt.Errorf("environment variable %s: %w", name, ErrNoDSN)
	}
	return dsn, nil
}

// OpenServer returns the server engine called kind ("postgres" or "mysql") for the DSN
// template dsn; its Query takes a db_id where SQLite's takes a file path.
func OpenServer(kind, dsn string, maxConns int) (Engine, error) {
	if dsn == "" {
		return nil, fmt.Errorf("%s: %w", kind, ErrNoDSN)
	}
	switch kind {
	case "postgres", "postgresql":
		return NewPostgres(dsn, maxConns), nil
	case "mysql", "mariadb":
		return NewMySQL(dsn, maxConns), nil
	}
	return nil, fmt.Errorf("%w %q (want postgres or mysql)", ErrUnknownEngine, kind)
}
