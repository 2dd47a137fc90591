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
