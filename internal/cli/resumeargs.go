package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// A run directory remembers the eval arguments that made it (DIR/args.json, written with
// the manifest), so `eval --resume --out DIR` alone continues it: the remembered arguments
// are used, with the flags given now on top (--workers, --details, ...). Arguments given
// with --resume are still checked against the manifest as before, every difference named.

const argsFile = rundir.ArgsFile

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
	"db-root":          absPath,
	"tables":           absPath,
	"pricing":          absPath,
	"diff-json":        absPath,
	"alternatives":     absPath,
	"llm-judge":        absPath,
	"llm-judge-prompt": absPath,
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

// A run directory is someone else's (it travels with papers and leaderboards), so
// args.json is no more trusted than the rest of it: resume never takes from it a setting
// that loads code, reaches the network, reads a secret or names a configuration file.
// The user gives those again on the command line; resume refuses, naming them, when
// args.json has one the command line does not.

// untrustedFlags are the eval flags resume does not take from args.json, with what they
// would do.
var untrustedFlags = map[string]string{
	"engine":             "runs queries on a server or loads a library",
	"duckdb-lib":         "loads a library",
	"dsn-env":            "reads a secret",
	"sqlpp-endpoint":     "reaches the network",
	"sqlpp-user":         "logs in",
	"sqlpp-password-env": "reads a secret",
	"sqlpp-bucket":       "reaches the network",
	"pricing":            "reads a configuration file",
	"llm-judge":          "reads a configuration file, reaches the network and reads a secret",
	"llm-judge-prompt":   "reads a prompt template",
}

// untrusted reports whether --name=value from args.json must be given again. --engine
// sqlite is the default and touches nothing but the dataset's files.
func untrusted(name, value string) bool {
	if name == "engine" {
		return value != "" && value != engineSQLite
	}
	return untrustedFlags[name] != ""
}

// neverRemembered are flags args.json cannot set at all: where the run is written and
// whether it replaces one are the command line's alone.
var neverRemembered = map[string]bool{"out": true, "resume": true, "force": true}

// ErrUntrustedArgs is resume's error when args.json holds settings it does not take and
// the command line does not give them.
var ErrUntrustedArgs = errors.New("the run directory asks for settings it cannot set")

// ErrNoArgs is the error of `eval --resume --out DIR` without --dataset or --pred when
// DIR does not remember its arguments.
var ErrNoArgs = errors.New("the run directory does not remember its arguments")

// resumeArgs are the arguments that continue the run in out: those it remembers, then
// the flags set on now (a list flag given now, such as --pred, replaces the remembered
// one), then --resume --out out.
//
// restated are the flags of args.json that resume does not take (untrusted) and the
// command line gave again, for a note.
func resumeArgs(prog, out string, now *pflag.FlagSet) (args, restated []string, err error) {
	path := filepath.Join(out, argsFile)
	saved, err := rundir.ReadArgs(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, usagef("--resume without --dataset and --pred: %v (no %s in %s: written by an older nl2sqlbench, or not an eval run); give --dataset and --pred as the run had them", ErrNoArgs, argsFile, out)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--resume: %w", err)
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
	var missing []string
	hasDataset, hasPred := given["dataset"], given["pred"]
	for _, a := range saved.Args {
		name, value, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		switch {
		case !strings.HasPrefix(a, "--") || name == "":
			return nil, nil, fmt.Errorf("--resume: %s: %q is not a --flag=value", path, a)
		case neverRemembered[name]:
			continue
		case given[name]:
			if untrusted(name, value) && !slices.Contains(restated, "--"+name) {
				restated = append(restated, "--"+name)
			}
			continue // given now: the value given now is the one checked against the manifest
		case untrusted(name, value):
			if !slices.Contains(missing, "--"+name) {
				missing = append(missing, "--"+name)
			}
			continue
		}
		if err := checkArgPath(name, value); err != nil {
			return nil, nil, fmt.Errorf("--resume: %s: %w", path, err)
		}
		hasDataset = hasDataset || name == "dataset"
		hasPred = hasPred || name == "pred"
		args = append(args, a)
	}
	if len(missing) > 0 {
		return nil, nil, usagef("--resume: %v: %s has %s, which resume never takes from a run directory (each loads code, reaches the network, reads a secret or names a configuration file); if the run needs them, give them again: %s %s ...",
			ErrUntrustedArgs, path, strings.Join(missing, ", "), hintCommand(prog, "eval", "--resume", "--out", shellQuote(out)), strings.Join(missing, " ... "))
	}
	if !hasDataset || !hasPred {
		return nil, nil, fmt.Errorf("--resume: %s remembers no --dataset or no --pred: %w", path, ErrNoArgs)
	}
	return append(append(args, extra...), "--resume", "--out", out), restated, nil
}

// checkArgPath refuses a path flag from args.json that names something other than a
// file or a folder: a FIFO would block eval before any check, a device never end.
func checkArgPath(name, value string) error {
	abs := pathFlags[name]
	if abs == nil || value == "" {
		return nil
	}
	p := value
	switch name {
	case "dataset":
		_, p, _ = strings.Cut(value, ":")
	case "pred":
		if i := strings.IndexByte(value, '='); i > 0 && !strings.ContainsAny(value[:i], `/\`) {
			p = value[i+1:]
		}
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil // a missing file is reported as such when it is read
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return fmt.Errorf("--%s names %s, which is not a file or a folder (%s)", name, p, fi.Mode().Type())
	}
	return nil
}

// resumeFromArgs runs eval again with the arguments the run in out remembers.
func resumeFromArgs(cmd *cobra.Command, e *env, out string) error {
	args, restated, err := resumeArgs(e.prog, out, cmd.Flags())
	if err != nil {
		return err
	}
	if len(restated) > 0 {
		fmt.Fprintf(e.stderr, "note: --resume: %s from the command line; %s's are never used\n", strings.Join(restated, ", "), argsFile)
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
	hint := hintCommand(o.prog, "eval", "--resume", "--out", shellQuote(dir))
	// What resume will not take from args.json is given on the command line: this run's
	// own values (the user's, not the directory's), quoted for a shell.
	for _, a := range o.Args {
		name, value, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if untrusted(name, value) {
			hint += " --" + name + " " + shellQuote(value)
		}
	}
	return hint
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
