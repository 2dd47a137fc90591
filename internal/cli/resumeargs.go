package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// The resume rules of eval's flags, derived from its flag table (evalflags.go):
// notRemembered say where a run is written or how it is printed, not what is judged (a
// resume gives its own); neverRemembered cannot be set by args.json at all; untrustedFlags
// are not taken from args.json, with what they would do; pathFlags are made absolute
// when remembered, so a resume from another directory reads the same files.
var notRemembered, neverRemembered, untrustedFlags, pathFlags = evalFlagRules()

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

// untrusted reports whether --name=value from args.json must be given again. --engine
// sqlite is the default and touches nothing but the dataset's files.
func untrusted(name, value string) bool {
	if name == "engine" {
		return value != "" && value != engineSQLite
	}
	return untrustedFlags[name] != ""
}

// resumeRules are eval's flags' rules for args.json (rundir.Args.Resume).
var resumeRules = rundir.ArgRules{
	Never:     func(name string) bool { return neverRemembered[name] },
	Untrusted: untrusted,
	Path:      argPath,
}

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
		return nil, nil, usagef("--resume without --dataset and --pred: %v (no %s in %s: written by an older nl2sqlbench, or not an eval run); give --dataset and --pred as the run had them", rundir.ErrNoArgs, argsFile, out)
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
	r, err := saved.Resume(path, given, resumeRules)
	if err != nil {
		return nil, nil, fmt.Errorf("--resume: %w", err)
	}
	if len(r.Missing) > 0 {
		return nil, nil, usagef("--resume: %v: %s has %s, which resume never takes from a run directory (each loads code, reaches the network, reads a secret or names a configuration file); if the run needs them, give them again: %s %s ...",
			rundir.ErrUntrustedArgs, path, strings.Join(r.Missing, ", "), hintCommand(prog, "eval", "--resume", "--out", shellQuote(out)), strings.Join(r.Missing, " ... "))
	}
	if !r.HasDataset || !r.HasPred {
		return nil, nil, fmt.Errorf("--resume: %s remembers no --dataset or no --pred: %w", path, rundir.ErrNoArgs)
	}
	return append(append(r.Args, extra...), "--resume", "--out", out), r.Restated, nil
}

// argPath is the file or folder a remembered path flag names ("": none): --dataset's
// after KIND:, --pred's after NAME=.
func argPath(name, value string) string {
	if pathFlags[name] == nil {
		return ""
	}
	switch name {
	case "dataset":
		_, value, _ = strings.Cut(value, ":")
	case "pred":
		if i := strings.IndexByte(value, '='); i > 0 && !strings.ContainsAny(value[:i], `/\`) {
			value = value[i+1:]
		}
	}
	return value
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
