package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

// Usage errors: every mistake in how a command was called exits 2 and is followed by the
// command's usage line and one example, so the fix is on the screen.

// isUsage reports whether err is a mistake in the call rather than a failure: a
// usageError, a run setting the run layer refuses (ErrConfig), a --dataset without its
// KIND: or with an unknown one, or cobra's unknown command.
func isUsage(err error) bool {
	return errors.As(err, new(*usageError)) || errors.Is(err, benchrun.ErrConfig) ||
		errors.Is(err, dataset.ErrBadSpec) || errors.Is(err, dataset.ErrUnknownKind) ||
		// cobra returns an unknown subcommand as a plain error.
		strings.HasPrefix(err.Error(), "unknown command ")
}

// writeUsageHint prints cmd's usage line and its first example (the root's when cmd has
// none), and where every flag is listed, each starting with prog as the user ran it.
func writeUsageHint(w io.Writer, cmd *cobra.Command, prog string) {
	if cmd == nil {
		return
	}
	use := cmd.UseLine()
	if !cmd.HasParent() {
		use = cmd.Name() + " COMMAND [flags]"
	}
	fmt.Fprintf(w, "usage: %s\n", asRun(prog, use))
	ex := firstExample(cmd)
	if ex == "" {
		ex = firstExample(cmd.Root())
	}
	if ex != "" {
		fmt.Fprintf(w, "example: %s\n", asRun(prog, ex))
	}
	fmt.Fprintf(w, "every flag: %s --help\n", asRun(prog, cmd.CommandPath()))
}

// firstExample is the first command of cmd.Example on one line (continuation lines
// joined, setup lines such as "export ..." skipped).
func firstExample(cmd *cobra.Command) string {
	var parts []string
	for _, line := range strings.Split(cmd.Example, "\n") {
		line = strings.TrimSpace(line)
		if len(parts) == 0 && !strings.HasPrefix(line, "nl2sqlbench ") {
			continue
		}
		more := strings.HasSuffix(line, "\\")
		parts = append(parts, strings.TrimSpace(strings.TrimSuffix(line, "\\")))
		if !more {
			break
		}
	}
	return strings.Join(parts, " ")
}

// usageArgs makes every command's argument-count error a usage error.
func usageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usagef("%s: %v", cmd.Name(), err)
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// nearestFlag suggests the flag closest to an unknown one ("; did you mean --details?"),
// or "" when none is close.
func nearestFlag(c *cobra.Command, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	best, bestD := "", len(name)/3+2 // a suggestion differs by at most about a third
	visit := func(f *pflag.Flag) {
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	if best == "" {
		return ""
	}
	return "; did you mean --" + best + "?"
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// interruptedText says a command was interrupted, in words rather than as Go's
// "context canceled".
func interruptedText(err error) string {
	if ie := (*benchrun.InterruptedError)(nil); errors.As(err, &ie) {
		return ie.Error()
	}
	msg := err.Error()
	for _, s := range []string{": " + context.Canceled.Error(), context.Canceled.Error() + ": ", context.Canceled.Error()} {
		msg = strings.ReplaceAll(msg, s, "")
	}
	if msg == "" {
		return "interrupted"
	}
	return "interrupted: " + msg
}
