package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// newExportDocsCmd: `export-docs` writes an SQLite database as JSON documents for
// Couchbase (one JSON Lines file per table: scope = db_id, collection = table) and,
// with --dataset, each question's gold result as CSV, as the NL2SQL++ benchmark does.
func newExportDocsCmd(e *env) *cobra.Command {
	var db, out, ds, dbRoot string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:     "export-docs --db FILE --out DIR [--dataset KIND:PATH]",
		Example: `  nl2sqlbench export-docs --db superhero.sqlite --out docs/superhero`,
		Short:   "Export an SQLite database as JSON documents (cbimport JSON Lines) and gold results as CSV",
		Long: `Writes DIR/<db_id>/<table>.jsonl, one document per row, keyed by the primary key (or rowid) in
the "_key" field, db_id being the file name without extension. Import into a bucket with
  cbimport json --format lines -d file://DIR/<db_id>/<table>.jsonl -b BUCKET \
    --scope-collection-exp <db_id>.<table> -g %_key% --ignore-fields _key ...
With --dataset, each question on that database gets DIR/<db_id>/gold/<question_id>.csv: its
first gold SQL run on SQLite.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if db == "" || out == "" {
				return usagef("export-docs needs --db FILE and --out DIR")
			}
			if err := rundir.CheckNotInsideRun(out, true); err != nil {
				return err
			}
			if err := checkTimeout("--timeout", timeout); err != nil {
				return err
			}
			res, err := benchrun.ExportDocs(cmd.Context(), benchrun.ExportDocsConfig{DB: db, Out: out, DatasetSpec: ds, DBRoot: dbRoot, Timeout: timeout})
			if res.DocsDir != "" {
				fmt.Fprintf(e.stdout, "%s: %d collections, %d documents in %s\n", res.DBID, res.Docs.Collections, res.Docs.Documents, res.DocsDir)
			}
			if res.GoldDir != "" {
				fmt.Fprintf(e.stdout, "%s: %d gold results in %s\n", res.DBID, res.Gold, res.GoldDir)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&db, "db", "", "SQLite database file")
	f.StringVar(&out, "out", "", "output directory")
	f.StringVar(&ds, "dataset", "", "KIND:PATH: also write the gold results of this dataset's questions on the database")
	f.StringVar(&dbRoot, "db-root", "", "where the dataset's databases are (as for eval)")
	f.DurationVar(&timeout, "timeout", engine.DefaultTimeout, "per-query timeout for gold SQL")
	return cmd
}
