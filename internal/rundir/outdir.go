package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrRunExists is the error of a new run into a --out that already holds something,
// without --resume or --force: the earlier results are never overwritten by accident.
var ErrRunExists = errors.New("run directory is not empty")

// OutDir is where a run is written: Out, the run directory the user named, and Work,
// the directory records go to while the run lasts. They differ when --force replaces an
// earlier run: the new run is written into a sibling directory and swapped in by Commit
// only once it is complete, so a failed or killed run leaves the earlier one whole.
type OutDir struct {
	Out, Work string
}

// Replacing reports whether the run is written beside an earlier one.
func (d OutDir) Replacing() bool { return d.Work != d.Out }

// PlanOut decides where a run into out is written. An absent or empty out is
// written in place; a non-empty one only with resume (continued in place) or force
// (written beside it, see OutDir); otherwise the error matches ErrRunExists.
func PlanOut(out string, resume, force bool) (OutDir, error) {
	d := OutDir{Out: out, Work: out}
	names, err := os.ReadDir(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return d, nil
	case err != nil:
		return d, fmt.Errorf("--out %s: %w", out, err)
	case len(names) == 0 || resume:
		return d, nil
	case !force:
		if CheckReplaceable(out) != nil { // not a run: --force would refuse it too
			return d, fmt.Errorf("%w: --out %s already holds %s and is not a run directory; use another --out",
				ErrRunExists, out, entries(len(names)))
		}
		return d, fmt.Errorf("%w: --out %s already holds %s; use --resume to continue it, --force to replace it once the new run is complete, or another --out",
			ErrRunExists, out, entries(len(names)))
	}
	// --force replaces a run directory only: never a folder of someone's other files.
	if err := CheckReplaceable(out); err != nil {
		return d, err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return d, fmt.Errorf("create run directory: %w", err)
	}
	work, err := os.MkdirTemp(parent, filepath.Base(out)+".new-")
	if err != nil {
		return d, fmt.Errorf("create run directory: %w", err)
	}
	// MkdirTemp makes the folder 0700, and once swapped in it was the run's: a replaced
	// run (and runs/demo, replaced on every demo) became unreadable to the group. Made
	// again under its unique name, it gets the mode of any new run (0755 under the umask).
	if err := os.Remove(work); err != nil {
		return d, fmt.Errorf("create run directory: %w", err)
	}
	if err := os.Mkdir(work, 0o755); err != nil {
		return d, fmt.Errorf("create run directory: %w", err)
	}
	d.Work = work
	return d, nil
}

// Commit swaps a complete replacement run into Out: Out moves aside, Work takes its
// name, and the earlier run is removed. Without a replacement it does nothing.
func (d OutDir) Commit() error {
	if !d.Replacing() {
		return nil
	}
	aside, err := os.MkdirTemp(filepath.Dir(d.Out), filepath.Base(d.Out)+".old-")
	if err != nil {
		return fmt.Errorf("replace %s: %w", d.Out, err)
	}
	if err := os.Remove(aside); err != nil { // only its unique name is wanted
		return fmt.Errorf("replace %s: %w", d.Out, err)
	}
	if err := os.Rename(d.Out, aside); err != nil {
		return fmt.Errorf("replace %s (the new run is complete in %s): %w", d.Out, d.Work, err)
	}
	if err := os.Rename(d.Work, d.Out); err != nil {
		if rerr := os.Rename(aside, d.Out); rerr != nil {
			return fmt.Errorf("replace %s: %w (and the earlier run stays in %s: %v); the new run is complete in %s", d.Out, err, aside, rerr, d.Work)
		}
		return fmt.Errorf("replace %s (the new run is complete in %s): %w", d.Out, d.Work, err)
	}
	if err := os.RemoveAll(aside); err != nil {
		return fmt.Errorf("remove the earlier run %s: %w", aside, err)
	}
	return nil
}

// Abandon removes an unfinished replacement run that cannot be continued; the earlier
// run in Out is untouched. Without a replacement it does nothing: a run written in
// place keeps its records for --resume.
func (d OutDir) Abandon() {
	if d.Replacing() {
		os.RemoveAll(d.Work)
	}
}

func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}
