package benchrun

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// auditTasks is Audit for livesql:DIR: each task's preprocess and gold on a fresh copy
// of its database's template on the PostgreSQL server of cfg.TaskDSN (audit/tasks.go).
// The dataset returned has one question per task, as eval's, for the findings' indexes.
func auditTasks(ctx context.Context, cfg AuditConfig) (*audit.Result, *dataset.Dataset, error) {
	kind, dir, _ := strings.Cut(cfg.DatasetSpec, ":")
	if strings.ToLower(kind) != dataset.KindLiveSQL {
		return nil, nil, configf("audit --dataset %s: tasks are audited for livesql: datasets only (not yet %s)", cfg.DatasetSpec, kind)
	}
	if cfg.TaskDSN == "" {
		return nil, nil, configf("audit --dataset livesql: needs a PostgreSQL server where task databases are made: --dsn-env VAR (the role needs CREATEDB)")
	}
	l, err := taskset.LoadLiveSQL(ctx, dir)
	if err != nil {
		return nil, nil, fmt.Errorf("load livesql dataset: %w", err)
	}
	ds := &dataset.Dataset{Kind: dataset.KindLiveSQL, Path: l.File, DBRoot: dir}
	for i, t := range l.Tasks {
		ds.Questions = append(ds.Questions, dataset.Question{Index: i, ID: t.ID, DBID: t.DB, Text: t.Query, Gold: []string{joinSQL(t.SolSQL)}, Difficulty: orUnknown(t.Difficulty)})
	}
	db, err := taskdb.OpenPostgres(ctx, cfg.TaskDSN)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		_, _ = db.DropCopies(dctx) // each task drops its copy; this is for a cut-short CREATE
		db.Close()
	}()
	if _, err := db.Sweep(ctx); err != nil {
		return nil, nil, err
	}
	tmpls := map[string]*taskdb.PGTemplate{}
	for _, t := range l.Tasks {
		if tmpls[t.DB] != nil {
			continue
		}
		s, err := taskset.LiveSQLSetup(ctx, dir, t.DB)
		if err != nil {
			return nil, nil, err
		}
		if tmpls[t.DB], err = db.Template(ctx, s); err != nil {
			return nil, nil, err
		}
	}
	res, err := audit.Tasks(ctx, l.Tasks, func(ctx context.Context, name string) (taskdb.Copy, error) { return tmpls[name].Copy(ctx) }, cfg.Timeout)
	return res, ds, err
}
