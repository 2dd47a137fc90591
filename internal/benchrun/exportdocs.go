package benchrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
)

// ExportDocsConfig is export-docs': an SQLite file written as JSON documents under Out,
// and with DatasetSpec each of its questions' gold result as CSV.
type ExportDocsConfig struct {
	DB, Out, DatasetSpec, DBRoot string
	Timeout                      time.Duration
}

// ExportedDocs is what ExportDocs wrote: DocsDir is set once the documents are written,
// GoldDir once the gold results are (Gold of them).
type ExportedDocs struct {
	DBID             string
	Docs             export.DocStats
	DocsDir, GoldDir string
	Gold             int
}

// ExportDocs writes cfg.DB's tables as JSON documents under Out/<db_id>/, and with a
// dataset its questions' gold results under Out/<db_id>/gold/. Every file goes through
// an export.Dir rooted at Out: names from the data (db_id, tables, question ids) are
// encoded, never joined raw.
func ExportDocs(ctx context.Context, cfg ExportDocsConfig) (ExportedDocs, error) {
	var res ExportedDocs
	if _, err := os.Stat(cfg.DB); err != nil {
		return res, fmt.Errorf("database %s: %w", cfg.DB, err)
	}
	res.DBID = TrimExt(filepath.Base(cfg.DB))
	top, err := export.OpenDir(cfg.Out)
	if err != nil {
		return res, err
	}
	defer top.Close()
	dir, err := top.Sub(res.DBID)
	if err != nil {
		return res, err
	}
	defer dir.Close()
	if res.Docs, err = export.WriteDocsTo(ctx, cfg.DB, dir); err != nil {
		return res, err
	}
	res.DocsDir = dir.Path()
	if cfg.DatasetSpec == "" {
		return res, nil
	}
	gold, err := dir.Sub("gold")
	if err != nil {
		return res, err
	}
	defer gold.Close()
	n, err := exportGoldCSV(ctx, cfg.DatasetSpec, cfg.DBRoot, cfg.DB, res.DBID, gold, cfg.Timeout)
	if err != nil {
		return res, err
	}
	res.Gold, res.GoldDir = n, gold.Path()
	return res, nil
}

// TrimExt is a file name without its extension (a db_id from a database file's name).
func TrimExt(name string) string { return name[:len(name)-len(filepath.Ext(name))] }

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
