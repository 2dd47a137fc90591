package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutputInRun is the error of an output path (report --html/--md) that names one of a
// run directory's own files, a folder of it, or the directory itself: writing there
// would replace the run being read (`report r --md r/D/records.jsonl` replaced the
// records; `--html r/summary.json` made the run unloadable).
var ErrOutputInRun = errors.New("output path is inside the run directory's own files")

// CheckOutput refuses out, a file an output is about to be written to, when it would
// land on run's own files, or on those of another run directory (a folder holding a
// manifest.json or summary.json) that out is in or in a system folder of: `report A --md
// B/D/records.jsonl` replaced run B's records. Inside a run directory only a new
// top-level file may be written, and report.html (the run's report, which eval writes
// itself and no hash covers); never a file the run writes (summary.json, manifest.json,
// args.json, ...), nothing inside a system folder, and never a folder. Paths are compared
// after resolving symlinks of the folders on the way, so neither a relative path nor a
// symlinked folder gets around it.
func CheckOutput(run, out string) error {
	real, err := realPath(filepath.Dir(out))
	if err != nil {
		return nil // the output's folder does not exist: writing reports that
	}
	target := filepath.Join(real, filepath.Base(out))
	if root, err := realPath(run); err == nil {
		if err := checkOutputIn(root, run, out, target); err != nil {
			return err
		}
	}
	// Another run the output would land on or in: itself, its folder, or the run of a
	// system folder.
	for _, dir := range []string{target, real, filepath.Dir(real)} {
		if isRunDir(dir) {
			if err := checkOutputIn(dir, dir, out, target); err != nil {
				return err
			}
		}
	}
	return nil
}

// isRunDir reports whether dir holds a run's manifest.json or summary.json.
func isRunDir(dir string) bool {
	for _, f := range []string{ManifestFile, SummaryFile} {
		if fi, err := os.Lstat(filepath.Join(dir, f)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// checkOutputIn applies CheckOutput's rules for the run directory root (named run) to
// target, out resolved.
func checkOutputIn(root, run, out, target string) error {
	rel, err := filepath.Rel(root, target)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return nil // outside the run
	}
	base := filepath.Base(out)
	switch {
	case rel == "." || base == "." || base == "..":
		return fmt.Errorf("%w: %s is the run directory %s", ErrOutputInRun, out, run)
	case strings.ContainsRune(rel, filepath.Separator):
		return fmt.Errorf("%w: %s is inside %s, a folder of the run %s; write it outside the run, or beside its summary.json under a new name", ErrOutputInRun, out, filepath.Dir(rel), run)
	case topFiles[rel] && rel != ReportFile, systemFiles[rel]:
		return fmt.Errorf("%w: %s is the run's own %s (in %s); write it under another name", ErrOutputInRun, out, rel, run)
	}
	if fi, err := os.Lstat(target); err == nil && fi.IsDir() {
		return fmt.Errorf("%w: %s is a folder of the run %s", ErrOutputInRun, out, run)
	}
	return nil
}

// realPath is path absolute with every symlink resolved.
func realPath(path string) (string, error) {
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}
