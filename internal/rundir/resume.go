package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// What eval --resume checks before it continues a run directory (the error texts name
// the flag: they are shown to the user as they are).

// ErrNoManifest is --resume's error on a run directory that holds records but no
// manifest.json (written by an nl2sqlbench before manifests): what its records were
// judged from cannot be checked, so they are not continued.
var ErrNoManifest = errors.New("no manifest.json")

// ResumeManifest reads the manifest of the run in out, which --resume continues. It is
// nil, without error, when out holds no records yet (the run starts afresh).
func ResumeManifest(out string) (*Manifest, error) {
	m, err := ReadManifest(out)
	if err == nil {
		return m, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	recs, _ := filepath.Glob(filepath.Join(out, "*", RecordsFile))
	for _, r := range recs {
		if fi, err := os.Stat(r); err == nil && fi.Size() > 0 {
			return nil, fmt.Errorf("--resume: %w in %s, which holds records (%s): it was written by an older nl2sqlbench and what they were judged from cannot be checked; rerun without --resume (--force replaces it)",
				ErrNoManifest, out, r)
		}
	}
	return nil, nil
}

// CheckResumable refuses to continue a finished run in out whose files differ from the
// hashes it recorded (Check): its records are not what it wrote. A run that did
// not finish has no summary.json and recorded no hashes yet.
func CheckResumable(out string) error {
	sum, err := ReadSummary(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--resume: %w", err)
	}
	if err := Check(out, sum).Err(); err != nil {
		return fmt.Errorf("--resume: %s: %w", out, err)
	}
	return nil
}
