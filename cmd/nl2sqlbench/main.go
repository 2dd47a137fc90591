// Command nl2sqlbench benchmarks natural-language-to-SQL systems; see README.md.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/nl2sqlbench/nl2sqlbench/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
