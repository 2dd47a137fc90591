package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
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
			if err := checkTimeout("--timeout", timeout); err != nil {
				return err
			}
			if _, err := os.Stat(db); err != nil {
				return fmt.Errorf("database %s: %w", db, err)
			}
			ctx := cmd.Context()
			dbID := trimExt(filepath.Base(db))
			// Every file goes through an export.Dir rooted at --out: names from the
			// data (db_id, tables, question ids) are encoded, never joined raw.
			top, err := export.OpenDir(out)
			if err != nil {
				return err
			}
			defer top.Close()
			dir, err := top.Sub(dbID)
			if err != nil {
				return err
			}
			defer dir.Close()
			st, err := export.WriteDocsTo(ctx, db, dir)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s: %d collections, %d documents in %s\n", dbID, st.Collections, st.Documents, dir.Path())
			if ds == "" {
				return nil
			}
			gold, err := dir.Sub("gold")
			if err != nil {
				return err
			}
			defer gold.Close()
			n, err := exportGoldCSV(ctx, ds, dbRoot, db, dbID, gold, timeout)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s: %d gold results in %s\n", dbID, n, gold.Path())
			return nil
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

func trimExt(name string) string { return name[:len(name)-len(filepath.Ext(name))] }

// exportGoldCSV runs the first gold SQL of every question on dbID against the SQLite
// file and writes its result as CSV. A gold query that fails is an error naming it.
func exportGoldCSV(ctx context.Context, spec, dbRoot, db, dbID string, dir *export.Dir, timeout time.Duration) (int, error) {
	d, err := dataset.Load(ctx, spec, dataset.Options{DBRoot: dbRoot})
	if err != nil {
		return 0, err
	}
	eng := engine.NewSQLite()
	defer eng.Close()
	n := 0
	for _, q := range d.Questions {
		if q.DBID != dbID || len(q.Gold) == 0 {
			continue
		}
		res, err := eng.Query(ctx, db, q.Gold[0], engine.Limits{Timeout: timeout, MaxRows: engine.DefaultMaxRows})
		if err != nil {
			return n, fmt.Errorf("gold SQL of question %s: %w", q.ID, err)
		}
		f, path, err := dir.Create(q.ID, ".csv")
		if err != nil {
			return n, err
		}
		if err := export.WriteCSV(f, res); err != nil {
			f.Close()
			return n, fmt.Errorf("write %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return n, fmt.Errorf("write %s: %w", path, err)
		}
		n++
	}
	return n, nil
}
