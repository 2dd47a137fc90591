// Package demo holds a small benchmark written for nl2sqlbench, embedded in the binary, so
// that `nl2sqlbench demo` can show every verdict and every error category on a machine that
// has nothing but the program: two SQLite databases (as SQL scripts), about fifty questions
// with gold SQL, and the outputs of three made-up systems in NL2SQLBench's record formats.
// Every row, question and answer was written for this project; none comes from a benchmark.
//
// Materialize turns the embedded files into the layout the JSONL dataset loader and the
// prediction readers expect, in a directory named after a hash of the embedded content, so
// an unchanged demo is reused and an edited one is rebuilt.
//
// To extend the demo:
//   - a database: add data/sql/<db_id>.sql (CREATE TABLE ... then INSERT ...);
//   - a question: add a line to data/questions.jsonl, and a record for it to every file in
//     data/systems/ (the tests check that every system answers every question);
//   - a system: add data/systems/<name>.jsonl, flat records or module nodes.
//
// demo_test.go's outcome table names which question/system pair shows which verdict or
// error category; keep it in step when changing an answer.
package demo

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

//go:embed data
var embedded embed.FS

// Files says where a materialized demo lives.
type Files struct {
	Dir         string            // dir/<hash>: everything below lives here
	Questions   string            // the questions file, in the JSONL dataset form
	DBRoot      string            // databases as <DBRoot>/<db_id>/<db_id>.sqlite
	Systems     map[string]string // system name -> its prediction file
	SystemOrder []string          // system names, sorted
}

// Sentinel errors.
var (
	// ErrNoDir is returned when Materialize is given no directory.
	ErrNoDir = errors.New("no demo directory given")
	// ErrBuild wraps a failure to build one of the demo databases from its script.
	ErrBuild = errors.New("build demo database")
	// ErrBadData means the embedded files are not laid out as this package expects.
	ErrBadData = errors.New("embedded demo data is malformed")
)

// DefaultDir is where the demo is materialized unless told otherwise: the user's cache
// directory, or the system temporary directory when there is none (e.g. no $HOME).
func DefaultDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	dir, err := filepath.Abs(filepath.Join(base, "nl2sqlbench", "demo"))
	if err != nil {
		return "", fmt.Errorf("demo directory: %w", err)
	}
	return dir, nil
}

// Materialize writes the demo under dir/<first 12 hex digits of the SHA-256 of the embedded
// files>/ and returns where everything is. Files already there are reused; databases are
// built into a temporary file and renamed into place, so an interrupted or concurrent run
// never leaves a half-built database behind. Cancelling ctx stops a build in progress.
func Materialize(ctx context.Context, dir string) (*Files, error) {
	data, err := subData(embedded)
	if err != nil {
		return nil, err
	}
	return materialize(ctx, data, dir)
}
