package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Args is DIR/args.json: the eval arguments a run directory remembers, so that
// `eval --resume --out DIR` alone continues it. Which flags are remembered, and which
// resume refuses to take from it, is the cli's business (its flag table, given to Resume
// as ArgRules); this is the file and how resume takes it back.
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

// ErrUntrustedArgs is resume's error when args.json holds settings it does not take and
// the command line does not give them.
var ErrUntrustedArgs = errors.New("the run directory asks for settings it cannot set")

// ErrNoArgs is the error of `eval --resume --out DIR` without --dataset or --pred when
// DIR does not remember its arguments (or remembers no --dataset or no --pred).
var ErrNoArgs = errors.New("the run directory does not remember its arguments")

// ArgRules are how resume treats a flag of args.json (the cli derives them from its flag
// table).
type ArgRules struct {
	// Never: args.json can never set it (where the run is written, whether it replaces one).
	Never func(name string) bool
	// Untrusted: --name=value is never taken from a run directory (it loads code, reaches
	// the network, reads a secret or names a configuration file); the command line gives it.
	Untrusted func(name, value string) bool
	// Path is the file or folder --name=value names ("": none), checked to be one.
	Path func(name, value string) string
}

// Resumed is what resume takes from args.json.
type Resumed struct {
	// Args are the remembered --name=value resume takes, in args.json's order.
	Args []string
	// Restated are the untrusted flags args.json has that the command line gave again;
	// Missing those it did not give (resume must refuse them), each as --name, once.
	Restated, Missing []string
	// HasDataset, HasPred: --dataset, --pred are given (now or by args.json).
	HasDataset, HasPred bool
}

// Resume takes back a's flags (read from path) on top of which the flags given now are
// set: a flag given now is left out (its value now is the one checked against the
// manifest), one rules.Never names is dropped, an untrusted one is listed, and a path
// flag naming something other than a file or a folder is refused (a FIFO would block
// eval before any check, a device never end).
func (a *Args) Resume(path string, given map[string]bool, rules ArgRules) (*Resumed, error) {
	r := &Resumed{HasDataset: given["dataset"], HasPred: given["pred"]}
	for _, arg := range a.Args {
		name, value, _ := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
		switch {
		case !strings.HasPrefix(arg, "--") || name == "":
			return nil, fmt.Errorf("%s: %q is not a --flag=value", path, arg)
		case rules.Never(name):
			continue
		case given[name]:
			if rules.Untrusted(name, value) && !slices.Contains(r.Restated, "--"+name) {
				r.Restated = append(r.Restated, "--"+name)
			}
			continue
		case rules.Untrusted(name, value):
			if !slices.Contains(r.Missing, "--"+name) {
				r.Missing = append(r.Missing, "--"+name)
			}
			continue
		}
		if err := checkArgPath(name, rules.Path(name, value)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r.HasDataset = r.HasDataset || name == "dataset"
		r.HasPred = r.HasPred || name == "pred"
		r.Args = append(r.Args, arg)
	}
	return r, nil
}

// checkArgPath refuses a path from args.json that is not a file or a folder. A missing
// one is reported as such when it is read.
func checkArgPath(name, p string) error {
	if p == "" {
		return nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return fmt.Errorf("--%s names %s, which is not a file or a folder (%s)", name, p, fi.Mode().Type())
	}
	return nil
}
