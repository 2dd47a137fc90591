package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"io"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// ErrNotRunDir reports a directory without summary.json: not something eval or demo wrote.
var ErrNotRunDir = errors.New("not a run directory (no summary.json)")

// Run is a run directory read back for the HTML report, the Markdown summary and the
// dashboard: summary.json and every system's records.jsonl, read as typed records.
type Run struct {
	Dir      string
	Summary  RunSummary
	Systems  []SystemRun
	Warnings []string // problems that did not stop loading (a torn last line, a missing system)
	// Audit is DIR/audit.jsonl's findings (audit.go); Audited says the file exists.
	Audit   []audit.Finding
	Audited bool
	// Reviewed is DIR/reviewed.json (reviewed.go), nil without one.
	Reviewed *Reviewed
}

// SystemRun is one system's records.
type SystemRun struct {
	Name    string
	Records []record.Record
}

// LoadRun reads the run directory dir. A summary.json written before the metric registry
// existed gets its metrics section from the registry (over the records read back), so an
// old run renders like a new one.
func LoadRun(ctx context.Context, dir string) (*Run, error) {
	sf, err := rundir.OpenInside(dir, "summary.json") // inside the run, and not a FIFO
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("load run %s: %w", dir, ErrNotRunDir)
	}
	if err != nil {
		return nil, fmt.Errorf("load run %s: %w", dir, err)
	}
	data, err := io.ReadAll(sf)
	sf.Close()
	if err != nil {
		return nil, fmt.Errorf("load run: %w", err)
	}
	run := &Run{Dir: dir}
	if err := json.Unmarshal(data, &run.Summary); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "summary.json"), err)
	}
	for _, s := range run.Summary.Systems {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sysDir, ok := systemDir(s)
		if !ok {
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: %q cannot be its directory; its records were not read", s.System, sysDir))
			continue
		}
		path := filepath.Join(dir, sysDir, "records.jsonl")
		// A system's folder or records symlinked out of the run would show someone
		// else's file as this run's records: the run is refused.
		// A FIFO would block the reader: refused too.
		f, err := rundir.OpenInside(dir, sysDir+"/records.jsonl")
		if errors.Is(err, os.ErrNotExist) {
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: %s is missing", s.System, path))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load run %s: system %s: %w", dir, s.System, err)
		}
		recs, _, err := record.ReadJSONL(f)
		f.Close()
		switch {
		case errors.Is(err, record.ErrTornLine):
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: the last line of %s is incomplete (interrupted run) and was ignored", s.System, path))
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		run.Systems = append(run.Systems, SystemRun{Name: s.System, Records: recs})
	}
	var warn string
	if run.Audit, run.Audited, warn = loadAudit(dir); warn != "" {
		run.Warnings = append(run.Warnings, warn)
	}
	if run.Reviewed, warn = loadReviewed(dir); warn != "" {
		run.Warnings = append(run.Warnings, warn)
	}
	if run.Summary.Metrics == nil {
		opt := metrics.Options{PassK: run.passK(), Pricing: run.pricing()}
		run.Summary.Metrics = metrics.Aggregate(metrics.Declared(opt), run.systemRecords())
	}
	return run, nil
}

// systemDir is where a system's records are: summary.json's dir, or for a summary
// written before it was recorded, the directory eval names after the system. ok is false
// for a dir eval cannot have written (one that could leave the run directory).
func systemDir(s metrics.Summary) (dir string, ok bool) {
	dir = s.Dir
	if dir == "" {
		dir = record.SystemDir(s.System)
	}
	return dir, dir == record.SystemDir(dir) && dir != "." && dir != ".." && dir != ""
}

// pricing reads again the pricing table an old run was priced with, for its cost metric;
// nil, with a warning, when the file is gone.
func (r *Run) pricing() *metrics.Pricing {
	m := r.Summary.Modules
	if m == nil || m.Pricing == "" {
		return nil
	}
	// summary.json is someone else's: the table is read again only from inside the run.
	path, err := rundir.Resolve(r.Dir, m.Pricing)
	var b []byte
	if err == nil {
		b, err = os.ReadFile(path)
	}
	if err == nil {
		var p *metrics.Pricing
		if p, err = metrics.ParsePricing(b); err == nil {
			return p
		}
	}
	r.Warnings = append(r.Warnings, fmt.Sprintf("cost not shown: this run's summary.json predates the metrics section and its pricing table %s cannot be read again (%v); rerun eval for it", m.Pricing, err))
	return nil
}

// passK is the run's Pass@k list, as its modules section recorded it.
func (r *Run) passK() []int {
	if r.Summary.Modules != nil {
		return r.Summary.Modules.PassK
	}
	return nil
}

func (r *Run) systemRecords() []metrics.SystemRecords {
	out := make([]metrics.SystemRecords, len(r.Systems))
	for i, s := range r.Systems {
		out[i] = metrics.SystemRecords{Name: s.Name, Records: s.Records}
	}
	return out
}

// Semantics is the run's primary semantics ("bird" or "spider"), as summary.json says.
func (r *Run) Semantics() string { return r.Summary.Settings.Semantics }
