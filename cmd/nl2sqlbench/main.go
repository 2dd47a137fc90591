// Command nl2sqlbench benchmarks natural-language-to-SQL systems; see README.md.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/nl2sqlbench/nl2sqlbench/internal/cli"
)

func main() {
	// A run stopped by one of these keeps its records and says how to resume.
	ctx, stop := signal.NotifyContext(context.Background(), cli.StopSignals()...)
	// os.Args[0] too: the hints it prints run the program as the user did (./nl2sqlbench).
	code := cli.Run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
