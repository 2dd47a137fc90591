package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DBCandidates lists, in order, the files where dbID's SQLite database may be. Each
// benchmark lays its databases out its own way:
//
//	bird:   <root>/<db>/<db>.sqlite, <root>/dev_databases/<db>/<db>.sqlite
//	spider: <root>/<db>/<db>.sqlite
//	spider2: <root>/<db>.sqlite, <root>/<db>/<db>.sqlite
//	jsonl:  <root>/<db>/<db>.sqlite, <root>/<db>.sqlite, <root>/databases/<db>/<db>.sqlite
//
// An id that could escape the root (a path separator, "." or "..") has no candidates.
func (d *Dataset) DBCandidates(dbID string) []string {
	if !safeDBID(dbID) {
		return nil
	}
	if k, ok := KindNamed(d.Kind); ok {
		return k.Layout(d.DBRoot, dbID)
	}
	return permissiveLayout(d.DBRoot, dbID) // datasets built by hand: the most permissive layout
}

// DBPath returns the first candidate database file for dbID that exists. For a
// Confined dataset it is DBPathInside's file, or none.
func (d *Dataset) DBPath(dbID string) (path string, ok bool) {
	if d.Confined {
		p, err := d.DBPathInside(dbID)
		return p, err == nil
	}
	for _, c := range d.DBCandidates(dbID) {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c, true
		}
	}
	return "", false
}

// ErrOutsideRoot is a database id or file that would lead out of the database root.
var ErrOutsideRoot = errors.New("outside the database root")

// ErrNoDatabase is a database id with no file under the database root.
var ErrNoDatabase = errors.New("database not available")

// DBPathInside returns dbID's database file with every symbolic link resolved, and
// only if it lies inside DBRoot (itself resolved): the lookup for database ids that
// come from an untrusted run directory (report and serve re-execute only under a root
// the user gave). An id naming a path ("..", an absolute path, a separator) and a
// file that is, or sits under, a link leading out of the root are ErrOutsideRoot,
// naming the file; no candidate at all is ErrNoDatabase.
func (d *Dataset) DBPathInside(dbID string) (string, error) {
	if !safeDBID(dbID) {
		return "", fmt.Errorf("%w: database id %q names a path", ErrOutsideRoot, dbID)
	}
	if d.DBRoot == "" {
		return "", fmt.Errorf("%w: %s (no database root)", ErrNoDatabase, dbID)
	}
	root, err := filepath.EvalSymlinks(d.DBRoot)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		return "", fmt.Errorf("database root: %w", err)
	}
	for _, c := range d.DBCandidates(dbID) {
		fi, err := os.Stat(c)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		real, err := filepath.EvalSymlinks(c)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			return "", fmt.Errorf("database %s: %w", c, err)
		}
		if !within(root, real) {
			return "", fmt.Errorf("%w: %s leads to %s, outside %s", ErrOutsideRoot, c, real, d.DBRoot)
		}
		return real, nil
	}
	return "", fmt.Errorf("%w: %s not found under %s", ErrNoDatabase, dbID, d.DBRoot)
}

// within says whether the absolute, resolved path p is root or lies below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
