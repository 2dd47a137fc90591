package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A run directory remembers the eval arguments that made it (DIR/args.json, written with
// the manifest), so `eval --resume --out DIR` alone continues it: the remembered arguments
// are used, with the flags given now on top (--workers, --details, ...). Arguments given
// with --resume are still checked against the manifest as before, every difference named.

const argsFile = "args.json"

// savedArgs is DIR/args.json.
type savedArgs struct {
	Command string   `json:"command"` // "eval"
	Args    []string `json:"args"`    // flags as --name=value, paths absolute
}

// notRemembered are eval's flags that say where a run is written or how it is printed,
// not what is judged: a resume gives its own.
var notRemembered = map[string]bool{"out": true, "resume": true, "force": true, "json": true, "details": true}

// pathFlags are eval's flags holding a path, made absolute when remembered so a resume
// from another directory reads the same files ("dataset" is KIND:PATH, "pred" [NAME=]FILE).
var pathFlags = map[string]func(string) string{
	"dataset": func(v string) string {
		kind, path, ok := strings.Cut(v, ":")
		if !ok {
			return v
		}
		return kind + ":" + absPath(path)
	},
	"pred": func(v string) string {
		name, path := "", v
		if i := strings.IndexByte(v, '='); i > 0 && !strings.ContainsAny(v[:i], `/\`) {
			name, path = v[:i+1], v[i+1:]
		}
		return name + absPath(path)
	},
	"db-root":      absPath,
	"tables":       absPath,
	"pricing":      absPath,
	"diff-json":    absPath,
	"alternatives": absPath,
}

// rememberedArgs lists the flags set on fs that shape what is judged, as --name=value.
func rememberedArgs(fs *pflag.FlagSet) []string {
	var args []string
	fs.Visit(func(f *pflag.Flag) {
		if notRemembered[f.Name] {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			if abs := pathFlags[f.Name]; abs != nil && v != "" {
				v = abs(v)
			}
			args = append(args, "--"+f.Name+"="+v)
		}
	})
	return args
}

// writeArgs writes DIR/args.json.
func writeArgs(dir string, args []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create run directory: %w", err)
	}
	return writeJSONAtomic(filepath.Join(dir, argsFile), savedArgs{Command: "eval", Args: args})
}

// ErrNoArgs is the error of `eval --resume --out DIR` without --dataset or --pred when
// DIR does not remember its arguments.
var ErrNoArgs = errors.New("the run directory does not remember its arguments")

// resumeArgs are the arguments that continue the run in out: those it remembers, then
// the flags set on now (a list flag given now, such as --pred, replaces the remembered
// one), then --resume --out out.
func resumeArgs(out string, now *pflag.FlagSet) ([]string, error) {
	path := filepath.Join(out, argsFile)
	data, err := rundir.ReadFile(path, rundir.MaxArgs)
	if errors.Is(err, os.ErrNotExist) {
		return nil, usagef("--resume without --dataset and --pred: %v (no %s in %s: written by an older nl2sqlbench, or not an eval run); give --dataset and --pred as the run had them", ErrNoArgs, argsFile, out)
	}
	if err != nil {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	var saved savedArgs
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("--resume: read %s: %w", path, err)
	}
	given := map[string]bool{}
	var extra []string
	now.Visit(func(f *pflag.Flag) {
		if f.Name == "out" || f.Name == "resume" {
			return
		}
		given[f.Name] = true
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			extra = append(extra, "--"+f.Name+"="+v)
		}
	})
	var args []string
	hasDataset, hasPred := given["dataset"], given["pred"]
	for _, a := range saved.Args {
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if given[name] {
			continue // given now: the value given now is the one checked against the manifest
		}
		hasDataset = hasDataset || name == "dataset"
		hasPred = hasPred || name == "pred"
		args = append(args, a)
	}
	if !hasDataset || !hasPred {
		return nil, fmt.Errorf("--resume: %s remembers no --dataset or no --pred: %w", path, ErrNoArgs)
	}
	return append(append(args, extra...), "--resume", "--out", out), nil
}

// resumeFromArgs runs eval again with the arguments the run in out remembers.
func resumeFromArgs(cmd *cobra.Command, e *env, out string) error {
	args, err := resumeArgs(out, cmd.Flags())
	if err != nil {
		return err
	}
	again := newEvalCmd(e)
	again.SetArgs(args)
	again.SetOut(cmd.OutOrStdout())
	again.SetErr(cmd.ErrOrStderr())
	again.SilenceUsage, again.SilenceErrors = true, true
	again.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%s: %v", argsFile, err) })
	return again.ExecuteContext(cmd.Context())
}

// rerunHint is the command that continues the run in dir after an interruption.
func rerunHint(o runOutput, dir string) string {
	if o.Rerun != "" {
		return o.Rerun
	}
	return "nl2sqlbench eval --resume --out " + dir
}
