// Command nl2sqlbench benchmarks natural-language-to-SQL systems; see README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/nl2sqlbench/nl2sqlbench/internal/cli"
)

func main() {
	// SIGTERM stops a run like Ctrl-C: it is what Slurm (scancel, requeue, time limit)
	// and Kubernetes (pod eviction) send first, and a run stopped this way keeps its
	// records and says how to resume.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// os.Args[0] too: the hints it prints run the program as the user did (./nl2sqlbench).
	code := cli.Run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
