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
// (or under $GOTMPDIR), which is gone once the command exits.
func goRunBinary(path string) bool {
	dir := filepath.Dir(path)
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
