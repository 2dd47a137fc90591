package benchrun

import (
	"context"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// AuditConfig says what to audit (internal/audit): the dataset's golds on their SQLite
// databases and, when Systems are given, the consensus of the judged systems and the
// order dependence of their predictions judged correct.
type AuditConfig struct {
	DatasetSpec, DBRoot, Tables string
	Timeout                     time.Duration
	MaxRows                     int
	Systems                     []audit.System
	// TaskDSN is the DSN template of the PostgreSQL server where a livesql: dataset's
	// task databases are made (audit --dsn-env).
	TaskDSN string
}

// AuditInto audits cfg's dataset (Audit) and writes the findings to DIR/audit.jsonl
// (rundir.WriteAudit: a finished run's manifest records the file), returning its path.
func AuditInto(ctx context.Context, cfg AuditConfig, dir string) (*audit.Result, *dataset.Dataset, string, error) {
	res, ds, err := Audit(ctx, cfg)
	if err != nil {
		return nil, nil, "", err
	}
	path, err := rundir.WriteAudit(dir, res.Findings)
	if err != nil {
		return nil, nil, "", err
	}
	return res, ds, path, nil
}

// Audit loads the dataset and audits it; AuditInto writes the findings.
func Audit(ctx context.Context, cfg AuditConfig) (*audit.Result, *dataset.Dataset, error) {
	if isTaskKind(cfg.DatasetSpec) {
		return auditTasks(ctx, cfg) // tasks on a database copy: audit_tasks.go
	}
	ds, err := dataset.Load(ctx, cfg.DatasetSpec, dataset.Options{DBRoot: cfg.DBRoot, Tables: cfg.Tables})
	if err != nil {
		return nil, nil, err
	}
	e := engine.NewSQLite()
	defer e.Close()
	res, err := audit.Run(ctx, e, ds, audit.Options{Limits: engine.Limits{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows}, Systems: cfg.Systems})
	return res, ds, err
}
