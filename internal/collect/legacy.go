package collect

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// AdoptLegacyModulesFile renames dir/records.jsonl (LegacyModulesFile) to dir/modules.jsonl
// (ModulesFile) when dir is one of our run directories (dir/marker exists: collect's
// manifest, or pass 1's in a two-pass run) and holds only the old name, and says so on
// log. Anything else is left alone: a directory that is not ours, one with neither name,
// one that already has modules.jsonl (records.jsonl is then not read, and log says so).
// The rename is atomic, so an interruption leaves one of the two names, never both or
// neither; like a run itself, it assumes no other collect writes dir at the same time.
func AdoptLegacyModulesFile(dir, marker string, log io.Writer) error {
	legacy, path := filepath.Join(dir, LegacyModulesFile), filepath.Join(dir, ModulesFile)
	for _, p := range []string{filepath.Join(dir, marker), legacy} {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return fmt.Errorf("adopt %s: %w", legacy, err)
		}
	}
	if _, err := os.Lstat(path); err == nil {
		fmt.Fprintf(log, "note: %s is not read: module records are in %s\n", legacy, path)
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("adopt %s: %w", legacy, err)
	}
	if err := os.Rename(legacy, path); err != nil {
		return fmt.Errorf("adopt %s: %w", legacy, err)
	}
	fmt.Fprintf(log, "note: module records are now named %s (eval's judged records keep records.jsonl): renamed %s to %s\n",
		ModulesFile, legacy, path)
	return nil
}
