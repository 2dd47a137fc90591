package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/buildid"
	"github.com/nl2sqlbench/nl2sqlbench/internal/gctune"
	"github.com/nl2sqlbench/nl2sqlbench/internal/termsafe"
)

// env carries the streams every subcommand writes to, and how the program was run.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// prog is the command printed hints start with (hints.go): "" is nl2sqlbench.
	prog string
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
	// exitRegression (3) is compare's significant drop (compare.go).
	exitInterrupted = 130
)

// Run executes the nl2sqlbench command line args: args[0] is the program as the user ran
// it (main's os.Args), so the commands printed as hints start with what runs the same
// program again (./nl2sqlbench, the bare name when it was found on PATH, go run
// ./cmd/nl2sqlbench under go run; "": nl2sqlbench); the rest are its arguments.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	argv0 := ""
	if len(args) > 0 {
		argv0, args = args[0], args[1:]
	}
	gctune.Start() // fewer collections while the heap is small (internal/gctune)
	// Everything printed may hold text from data: control characters are escaped on
	// the way out (a progress bar reaches the terminal through Unwrap).
	safeOut, safeErr := termsafe.NewWriter(stdout), termsafe.NewWriter(stderr)
	defer safeOut.Flush()
	defer safeErr.Flush()
	stdout, stderr = safeOut, safeErr
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, prog: programName(argv0)}
	root := newRootCmd(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		fmt.Fprintf(stderr, "nl2sqlbench: %s\n", interruptedText(err))
		return exitInterrupted
	case errors.Is(err, errRegression):
		return exitRegression
	case isUsage(err):
		fmt.Fprintf(stderr, "nl2sqlbench: %v\n", err)
		writeUsageHint(stderr, cmd, e.prog)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "nl2sqlbench: %v\n", err)
		return exitError
	}
}

// usageError is a mistake in how the command was called.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:           "nl2sqlbench",
		Short:         "Benchmark natural-language-to-SQL systems",
		Long:          "nl2sqlbench judges NL2SQL predictions on BIRD, Spider and custom datasets by executing them\nread-only and comparing results under BIRD's and Spider's official semantics.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usagef("%v%s", err, nearestFlag(c, err)) })
	root.Example = "  nl2sqlbench eval --dataset spider:../shared/data/spider --pred DAIL=../shared/data/spider/predictions/DAIL.txt"
	root.Version = buildid.Describe() // turns on --version, printed as `version` prints it
	root.SetVersionTemplate(versionLine())
	root.AddCommand(newEvalCmd(e), newDemoCmd(e), newVersionCmd(e))
	root.AddCommand(newReportCmd(e), newServeCmd(e))
	root.AddCommand(newAdaptCmd(e))
	root.AddCommand(newCollectCmd(e), newMatrixCmd(e))
	root.AddCommand(newMergeCmd(e))
	root.AddCommand(newParseCmd(e))
	root.AddCommand(newCompareCmd(e), newAuditCmd(e), newRescoreCmd(e), newAgreementCmd(e))
	root.AddCommand(newGenLargeCmd(e))
	root.AddCommand(newExportDocsCmd(e), newLoadDBCmd(e))
	root.AddCommand(newVerifyCmd(e))
	usageArgs(root)
	return root
}
