package rundir

import (
	"errors"
	"fmt"

	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// ErrOutside is Resolve's error for a path that would leave the run directory: absolute,
// climbing out with "..", holding a NUL byte, or reaching out through a symlink.
var ErrOutside = errors.New("path leaves the run directory")

// Resolve returns the file that rel (a slash-separated path read from a run file, such as
// a record's counterexample.path or summary.json's systems[].dir) names inside the run
// directory dir, with every symlink resolved. A run directory comes from someone else, so
// nothing it says may name a file outside it: rel must be relative, must not climb out,
// and no component (rel's or a symlink's target) may lead outside dir. A path that does
// not exist is the os error (errors.Is os.ErrNotExist), once its lexical form was checked.
func Resolve(dir, rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("%w: empty path", ErrOutside)
	}
	if strings.IndexByte(rel, 0) >= 0 {
		return "", fmt.Errorf("%w: %q holds a NUL byte", ErrOutside, rel)
	}
	local := filepath.FromSlash(rel)
	if filepath.IsAbs(local) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || filepath.VolumeName(local) != "" {
		return "", fmt.Errorf("%w: %q is absolute", ErrOutside, rel)
	}
	if !filepath.IsLocal(local) {
		return "", fmt.Errorf("%w: %q climbs out of it", ErrOutside, rel)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("run directory %s: %w", dir, err)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("run directory %s: %w", dir, err)
	}
	joined := filepath.Join(root, local)
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			// A missing file still must not be reached through a symlink leaving dir:
			// check the part that exists.
			if err := insideExisting(root, joined); err != nil {
				return "", fmt.Errorf("%q: %w", rel, err)
			}
		}
		return "", err
	}
	if !within(root, real) {
		return "", fmt.Errorf("%w: %q is a symlink to %s", ErrOutside, rel, real)
	}
	return real, nil
}

// within reports whether path (absolute, symlinks resolved) is root or under it.
func within(root, path string) bool {
	r, err := filepath.Rel(root, path)
	return err == nil && filepath.IsLocal(r) || r == "."
}

// insideExisting checks the longest existing prefix of path resolves inside root.
func insideExisting(root, path string) error {
	for p := filepath.Dir(path); within(root, p) && p != root; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		if !within(root, real) {
			return fmt.Errorf("%w: %s is a symlink to %s", ErrOutside, p, real)
		}
		return nil
	}
	return nil
}

// ErrNotRegular is the error for a path that is not a regular file (a FIFO would block
// the reader forever, a device never end): safefile's, so one sentinel matches both.
var ErrNotRegular = safefile.ErrNotRegular

// ErrTooLarge is the error for a file larger than the caller's cap (safefile's).
var ErrTooLarge = safefile.ErrTooLarge

// ReadInside reads the regular file rel names inside dir (Resolve), refusing one larger
// than max bytes before reading it, or growing past it while read (safefile.ReadFile).
func ReadInside(dir, rel string, max int64) ([]byte, error) {
	path, err := Resolve(dir, rel)
	if err != nil {
		return nil, err
	}
	return safefile.ReadFile(path, max)
}
