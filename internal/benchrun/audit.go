package benchrun

import (
	"context"
	"fmt"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
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

// AddRun adds a run's judged systems to the audit (the consensus and prediction
// checks), and its dataset when none is set: the manifest's (absolute paths), else
// summary.json's (as given to eval).
func (cfg *AuditConfig) AddRun(run *rundir.Run) {
	if cfg.DatasetSpec == "" {
		kind, path, root := run.Summary.Dataset.Kind, run.Summary.Dataset.Path, run.Summary.Dataset.DBRoot
		if m, err := run.Manifest(); err == nil {
			kind, path, root = m.Settings.DatasetKind, m.Dataset.Path, m.Settings.DBRoot
		}
		cfg.DatasetSpec = kind + ":" + path
		if cfg.DBRoot == "" {
			cfg.DBRoot = root
		}
	}
	for _, s := range run.Systems {
		cfg.Systems = append(cfg.Systems, audit.System{Name: s.Name, Records: s.Records})
	}
}

// AuditConfigOf is eval --audit's audit: the run's dataset, limits and judged systems.
func AuditConfigOf(cfg Config, res *Result) AuditConfig {
	ac := AuditConfig{DatasetSpec: cfg.DatasetSpec, DBRoot: cfg.DBRoot, Tables: cfg.Tables, Timeout: cfg.Timeout, MaxRows: cfg.MaxRows}
	for _, s := range res.Systems {
		ac.Systems = append(ac.Systems, audit.System{Name: s.Name, Records: s.Records})
	}
	return ac
}

// AuditCoverage is how an audit's findings meet the corrected golds of the corrections
// file (audit --corrections): which corrected questions it flags and which it misses,
// among the questions it could check (a database and a gold).
func AuditCoverage(ds *dataset.Dataset, res *audit.Result, corrections string) (audit.Coverage, error) {
	byID := map[string]int{}
	for _, q := range ds.Questions {
		byID[q.ID] = q.Index
	}
	cs, err := review.ReadCorrections(corrections, func(id string) (int, bool) { i, ok := byID[id]; return i, ok })
	if err != nil {
		return audit.Coverage{}, fmt.Errorf("corrections: %w", err)
	}
	var idx []int
	for _, c := range cs {
		idx = append(idx, c.Index)
	}
	checked := map[int]bool{}
	for _, q := range ds.Questions {
		if _, ok := ds.DBPath(q.DBID); ok && len(q.Gold) > 0 {
			checked[q.Index] = true
		}
	}
	return audit.CoverageOf(res, idx, func(i int) bool { return checked[i] }), nil
}
