package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

func newReportCmd(e *env) *cobra.Command {
	var htmlOut, mdOut string
	var opt report.HTMLOptions
	cmd := &cobra.Command{
		Use:   "report RUN_DIR [--html FILE] [--md FILE]",
		Short: "Write an HTML report and/or a Markdown summary of a run directory",
		Long: `Read a run directory written by eval or demo and write:

  --html FILE   one self-contained HTML file (no network needed to open it): scores, charts
                as inline SVG, and every question's drill-down
  --md FILE     the headline tables as Markdown, for a pull request or a paper draft

With neither flag the Markdown summary is printed on stdout.

report renders what the run recorded and runs no query: a run directory may come from
anyone, and the database root and dataset path it records may name any file. Two flags
name files you trust instead:

  --db-root DIR   re-execute gold and predictions read-only for the drill-downs' result
                  tables, on the database files under DIR only (a file that is, or sits
                  under, a link out of DIR is refused, naming it)
  --dataset FILE  the run's question file, for what records do not hold (BIRD's evidence);
                  it must hold the run's questions at their indexes`,
		Example: `  nl2sqlbench report runs/spider-dev --html report.html --md summary.md
  nl2sqlbench report runs/bird-dev --html bird.html --db-root ../shared/data/bird/dev_databases --dataset ../shared/data/bird/mini_dev_sqlite.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkMaxRows("--max-rows", opt.Exec.MaxRows); err != nil {
				return err
			}
			if err := checkExecRoot(opt.Exec.DBRoot, opt.NoExec); err != nil {
				return err
			}
			// No output may land on the run's own files (report r --md r/D/records.jsonl).
			for _, out := range []string{htmlOut, mdOut} {
				if out == "" {
					continue
				}
				if err := rundir.CheckOutput(args[0], out); err != nil {
					return err
				}
			}
			ctx := cmd.Context()
			run, err := rundir.Load(ctx, args[0])
			if err != nil {
				return err
			}
			if b := run.Integrity.Banner(); b != "" {
				fmt.Fprintf(e.stderr, "WARNING: %s\n", b)
			} else if n := run.Integrity.Note(); n != "" {
				fmt.Fprintf(e.stderr, "note: %s\n", n)
			}
			for _, w := range run.Warnings {
				fmt.Fprintf(e.stderr, "warning: %s\n", w)
			}
			if htmlOut == "" && mdOut == "" {
				return report.WriteMarkdown(e.stdout, run)
			}
			if mdOut != "" {
				if err := writeFileWith(mdOut, func(f *bufio.Writer) error { return report.WriteMarkdown(f, run) }); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "markdown summary: %s\n", absPath(mdOut))
			}
			if htmlOut != "" {
				if err := writeFileWith(htmlOut, func(f *bufio.Writer) error { return report.WriteHTML(ctx, f, run, opt) }); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "html report: %s\n", absPath(htmlOut))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&htmlOut, "html", "", "write the self-contained HTML report to FILE")
	f.StringVar(&mdOut, "md", "", "write the Markdown summary to FILE")
	f.IntVar(&opt.Exec.Rows, "rows", 10, "result rows shown per query in the drill-down")
	f.IntVar(&opt.Exec.MaxRows, "max-rows", 100_000, "largest result read for the drill-down; larger ones are not shown")
	f.BoolVar(&opt.NoExec, "no-exec", false, "do not re-execute queries (no result tables; the default without --db-root)")
	f.StringVar(&opt.Exec.DBRoot, "db-root", "", "re-execute the drill-downs' queries read-only on the databases under DIR (default: none; the run's recorded root is never used)")
	f.StringVar(&opt.Dataset, "dataset", "", "the run's question file, read for BIRD's evidence (default: none; the run's recorded path is never read)")
	f.StringVar(&opt.Title, "title", "", "report title (default: from the run directory's name)")
	return cmd
}

// writeFileWith writes a file through a temporary file renamed into place, so a failed
// or interrupted report never leaves half a file under the requested name.
// writeFileWith writes path atomically with what write puts into a buffered writer.
func writeFileWith(path string, write func(*bufio.Writer) error) error {
	return safefile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// checkExecRoot checks report's and serve's --db-root: a directory, and not with --no-exec.
func checkExecRoot(root string, noExec bool) error {
	if root == "" {
		return nil
	}
	if noExec {
		return usagef("--db-root and --no-exec: choose one (--db-root runs queries, --no-exec runs none)")
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return usagef("--db-root %s is not a directory", root)
	}
	return nil
}

// writeRunHTML writes DIR/report.html for a run just judged, its drill-downs executed on
// dbRoot and its evidence read from questions (the files it was just judged with), and
// prints its path (on stderr when stdout is reserved for JSON).
func writeRunHTML(ctx context.Context, e *env, dir, dbRoot, questions string, quiet bool) error {
	run, err := rundir.Load(ctx, dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "report.html")
	if err := writeFileWith(path, func(f *bufio.Writer) error {
		return report.WriteHTML(ctx, f, run, report.HTMLOptions{Exec: report.ExecOptions{DBRoot: dbRoot}, Dataset: questions})
	}); err != nil {
		return err
	}
	w := e.stdout
	if quiet {
		w = e.stderr
	}
	fmt.Fprintf(w, "html report: %s\n", absPath(path))
	return nil
}
