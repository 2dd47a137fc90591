package rundir

import (
	"errors"
	"fmt"
	"path/filepath"
)

// ErrInsideRun is the error of a new output directory inside a run directory (beside its
// summary.json, or in a system folder): `eval --out A/D/sub` nested a run in run A's
// system folder, and `export-docs --out A` added a folder to run A; a later --force on
// A, or A's own tools, would then meet files no run of A wrote.
var ErrInsideRun = errors.New("output directory is inside a run directory")

// CheckNotInsideRun refuses dir when a run directory (a folder holding a manifest.json or
// summary.json) is its folder or its folder's folder; with self, also when dir is one.
// A path that does not exist yet is checked through the folders that do.
func CheckNotInsideRun(dir string, self bool) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil // the write reports it
	}
	if self && isRunDir(abs) {
		return fmt.Errorf("%w: %s is a run directory; write to a folder of its own", ErrInsideRun, dir)
	}
	for _, up := range []string{filepath.Dir(abs), filepath.Dir(filepath.Dir(abs))} {
		if up != abs && isRunDir(up) {
			return fmt.Errorf("%w: %s is inside the run directory %s; write it outside the run", ErrInsideRun, dir, up)
		}
	}
	return nil
}
