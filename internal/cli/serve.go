package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
)

func newServeCmd(e *env) *cobra.Command {
	var addr, datasetFile string
	var opt report.ExecOptions
	cmd := &cobra.Command{
		Use:   "serve DIR [--addr 127.0.0.1:8080]",
		Short: "Browse run directories in a local dashboard",
		Long: `Serve a local dashboard over DIR: a run directory, or a directory holding run directories
(every directory with a summary.json, up to 4 levels down). Each run shows the HTML report's
scores, charts and question list with filters (/run/RUN/?system=NAME shows one system's
questions); a question opens its drill-down; "compare" lists the questions one system gets
right and another wrong, starting with the run's first two systems.

The dashboard renders what the runs recorded and runs no query unless started with
--db-root DIR: then a drill-down re-executes gold and predictions read-only on the database
files under DIR only (a file that is, or sits under, a link out of DIR is refused, naming
it). The database root and dataset path a run records are never used: a run directory may
come from anyone. --dataset FILE names the question file BIRD's evidence is read from
(each run checks that it holds its questions).

The dashboard binds to 127.0.0.1 by default: it shows your data (and with --db-root runs
queries on your databases), so binding to another address prints a warning. It answers only requests
addressed to localhost, 127.0.0.1, [::1] or the bound address on its port (421 otherwise:
another site cannot reach it by pointing its own name at 127.0.0.1), and its pages run only
their own inline script and style (Content-Security-Policy with their sha256 hashes, no
framing).

A question's drill-down records a review (docs/review.md): the prediction of a system
acceptable or not, or the gold wrong with a corrected SQL, and a note. It is appended to the
run directory's reviews.jsonl and the run is re-scored (as nl2sqlbench rescore does), so the
pages show EX raw and reviewed side by side; reviews in reviews.jsonl are applied again when
the dashboard starts. Every review POST must carry the dashboard's session token (random per
start, embedded in its pages) and name no other origin: another site cannot record one. A review
that corrects a gold is judged by running it: without --db-root it is refused.`,
		Example: `  nl2sqlbench serve runs/ --addr 127.0.0.1:8080`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkMaxRows("--max-rows", opt.MaxRows); err != nil {
				return err
			}
			if err := checkExecRoot(opt.DBRoot, opt.NoExec); err != nil {
				return err
			}
			ctx := cmd.Context()
			if fi, err := os.Stat(args[0]); err != nil || !fi.IsDir() {
				return usagef("serve: %s is not a directory", args[0])
			}
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return usagef("--addr %q: %v", addr, err)
			}
			if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
				what := "read these runs"
				if opt.Executes() {
					what += " and run read-only queries on the databases under " + opt.DBRoot
				}
				fmt.Fprintf(e.stderr, "warning: serving on %s: anyone who can reach this address can %s\n", addr, what)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			srv := report.NewServer(args[0], opt)
			defer srv.Close()
			srv.SetDataset(datasetFile)
			execRoot := ""
			if opt.Executes() {
				execRoot = opt.DBRoot
			}
			// A corrected gold is judged only under the root given here, never the run's.
			srv.SetRescorer(serveRescorer(execRoot))
			// Only requests naming this listener are served (no DNS rebinding).
			hs := report.HTTPServer(srv.HandlerAt(ln.Addr().String()))
			fmt.Fprintf(e.stdout, "nl2sqlbench dashboard on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
			errc := make(chan error, 1)
			go func() { errc <- hs.Serve(ln) }()
			select {
			case err := <-errc:
				return fmt.Errorf("serve: %w", err)
			case <-ctx.Done():
				sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
					return fmt.Errorf("serve: %w", err)
				}
				return nil
			}
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (another than loopback prints a warning)")
	cmd.Flags().IntVar(&opt.Rows, "rows", 10, "result rows shown per query in a drill-down")
	cmd.Flags().IntVar(&opt.MaxRows, "max-rows", 100_000, "largest result read for a drill-down; larger ones are not shown")
	cmd.Flags().BoolVar(&opt.NoExec, "no-exec", false, "run no query: drill-downs show the records without result tables (the default without --db-root)")
	cmd.Flags().StringVar(&opt.DBRoot, "db-root", "", "re-execute drill-downs read-only on the databases under DIR (default: none; a run's recorded root is never used)")
	cmd.Flags().StringVar(&datasetFile, "dataset", "", "question file read for BIRD's evidence, checked against each run's questions (default: none)")
	return cmd
}
