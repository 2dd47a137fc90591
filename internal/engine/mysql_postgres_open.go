package engine

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/go-sql-driver/mysql"
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

// RedactDSNError returns err's message with the password of the DSN template dsn
// replaced by "***": connection errors of some drivers quote parts of the DSN, and a
// password must never reach a log or a record.
func RedactDSNError(err error, dsn string) error {
	if err == nil {
		return nil
	}
	pw := dsnPassword(strings.ReplaceAll(dsn, DBPlaceholder, "db"))
	if pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), pw, "***"))
}

var keyValuePassword = regexp.MustCompile(`(?:^|\s)password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)`)

// dsnPassword finds the password in a PostgreSQL URL or key=value DSN or a MySQL DSN.
func dsnPassword(dsn string) string {
	if strings.Contains(dsn, "://") {
		if u, err := url.Parse(dsn); err == nil && u.User != nil {
			pw, _ := u.User.Password()
			return pw
		}
		return ""
	}
	if m := keyValuePassword.FindStringSubmatch(dsn); m != nil {
		return strings.Trim(m[1], "'")
	}
	if cfg, err := mysql.ParseDSN(dsn); err == nil {
		return cfg.Passwd
	}
	return ""
}
