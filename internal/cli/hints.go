package cli

import (
	"path/filepath"
	"strings"
)

// A printed hint ("HTML report: nl2sqlbench report ...", "resume with: ...", a usage
// error's example) is a command to paste: it must run as it is. After a source build
// nl2sqlbench is not on PATH, so a hint starts with the program as the user ran it.

// defaultProgram is what hints start with when the caller did not say how it was run
// (tests, cli.Run).
const defaultProgram = "nl2sqlbench"

// programName is the command hints start with for a program run as argv0: the bare
// name when a shell found it on PATH (argv0 without a slash), `go run ./cmd/nl2sqlbench`
// for a binary `go run` built in its temporary directory, else argv0 as typed (./nl2sqlbench,
// /opt/bin/nl2sqlbench), quoted for a shell.
func programName(argv0 string) string {
	switch {
	case argv0 == "":
		return defaultProgram
	case goRunBinary(argv0):
		return "go run ./cmd/nl2sqlbench"
	case !strings.Contains(argv0, "/"):
		return argv0
	}
	return shellQuote(argv0)
}

// goRunBinary reports whether path is a binary `go run` built: $TMPDIR/go-buildNNN/bNNN/exe/NAME
// (or under $GOTMPDIR), which is gone once the command exits, or, since Go 1.24, the copy
// go run keeps in the build cache, $GOCACHE/XX/<64 hex digits>-d/NAME, which the cache
// trims and no user types.
func goRunBinary(path string) bool {
	dir := filepath.Dir(path)
	if goCacheEntry(dir) {
		return true
	}
	if filepath.Base(dir) != "exe" {
		return false
	}
	for d := filepath.Dir(dir); d != filepath.Dir(d); d = filepath.Dir(d) {
		if strings.HasPrefix(filepath.Base(d), "go-build") {
			return true
		}
	}
	return false
}

// goCacheEntry reports whether dir is a build-cache directory of an executable:
// <2 hex digits>/<64 hex digits>-d.
func goCacheEntry(dir string) bool {
	name, shard := filepath.Base(dir), filepath.Base(filepath.Dir(dir))
	hash, ok := strings.CutSuffix(name, "-d")
	return ok && len(hash) == 64 && isHex(hash) && len(shard) == 2 && isHex(shard) && hash[:2] == shard
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// hintCommand is a hint's command line: prog (programName's; "" is nl2sqlbench), then
// words, each already quoted where it needs to be.
func hintCommand(prog string, words ...string) string {
	if prog == "" {
		prog = defaultProgram
	}
	return strings.Join(append([]string{prog}, words...), " ")
}

// command is hintCommand for this invocation.
func (e *env) command(words ...string) string { return hintCommand(e.prog, words...) }

// asRun rewrites a line that starts with the program's name ("nl2sqlbench eval ...", as
// cobra's usage line and the commands' examples are written) to start with prog.
func asRun(prog, line string) string {
	if rest, ok := strings.CutPrefix(line, defaultProgram+" "); ok {
		return hintCommand(prog, rest)
	}
	return line
}
