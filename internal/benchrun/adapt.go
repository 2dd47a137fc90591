package benchrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/linking"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// AdaptTASQL turns TA-SQL's cached LLM responses under traces, answering the dataset
// spec's questions, into module records written to out (adapt ta-sql); schema
// selection is resolved against each database's schema.
func AdaptTASQL(ctx context.Context, traces, spec, dbRoot, tables, out string) ([]predict.ModuleRecord, collect.TASQLStats, error) {
	ds, err := dataset.Load(ctx, spec, dataset.Options{DBRoot: dbRoot, Tables: tables})
	if err != nil {
		return nil, collect.TASQLStats{}, err
	}
	ann := linking.New(ds, linking.Options{})
	schemaOf := func(ctx context.Context, dbID string) (*dbschema.Schema, error) {
		path, _ := ds.DBPath(dbID)
		return ann.Schema(ctx, dbID, path)
	}
	nodes, st, err := collect.TASQL(ctx, traces, ds, schemaOf)
	if err != nil {
		return nil, collect.TASQLStats{}, err
	}
	if dir := filepath.Dir(out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, collect.TASQLStats{}, fmt.Errorf("adapt: %w", err)
		}
	}
	if err := collect.WriteRecordsFile(out, nodes); err != nil {
		return nil, collect.TASQLStats{}, fmt.Errorf("adapt: %w", err)
	}
	return nodes, st, nil
}
