package rundir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Args is DIR/args.json: the eval arguments a run directory remembers, so that
// `eval --resume --out DIR` alone continues it. Which flags are remembered, and which
// resume refuses to take from it, is the cli's business (its flags); this is the file.
type Args struct {
	Command string   `json:"command"` // "eval"
	Args    []string `json:"args"`    // flags as --name=value, paths absolute
}

// WriteArgs writes DIR/args.json for an eval run with args.
func WriteArgs(dir string, args []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create run directory: %w", err)
	}
	return WriteJSON(filepath.Join(dir, ArgsFile), Args{Command: "eval", Args: args})
}

// ReadArgs reads DIR/args.json, inside the run (never through a symlink out of it) and
// within MaxArgs. A missing file's error matches os.ErrNotExist.
func ReadArgs(dir string) (*Args, error) {
	data, err := ReadInside(dir, ArgsFile, MaxArgs)
	if err != nil {
		return nil, err
	}
	var a Args
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, ArgsFile), err)
	}
	return &a, nil
}
