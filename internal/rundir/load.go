package rundir

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// ErrNotRunDir reports a directory without summary.json: not something eval or demo wrote.
var ErrNotRunDir = errors.New("not a run directory (no summary.json)")

// Run is a run directory read back for the reports, the dashboard, compare, rescore and
// verify: summary.json and every system's records.jsonl, read as typed records.
type Run struct {
	Dir      string
	Summary  Summary
	Systems  []SystemRun
	Warnings []string // problems that did not stop loading (a torn last line, a missing system)
	// Audit is DIR/audit.jsonl's findings; Audited says the file exists.
	Audit   []audit.Finding
	Audited bool
	// Reviewed is DIR/reviewed.json, nil without one.
	Reviewed *Reviewed
	// Agreement is DIR/agreement.json, nil without one.
	Agreement *Agreement
	// Integrity is what checking the files against the sha256 the run recorded found
	// (integrity.go): the reports show its banner, and merge, rescore, compare and
	// --resume refuse a run that was changed.
	Integrity Integrity
}

// SystemRun is one system's records.
type SystemRun struct {
	Name    string
	Records []record.Record
}

// Load reads the run directory dir and checks its files against the hashes it recorded
// (run.Integrity). A summary.json written before the metric registry existed gets its
// metrics section from the registry (over the records read back), so an old run renders
// like a new one.
func Load(ctx context.Context, dir string) (*Run, error) {
	sum, err := ReadSummary(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("load run %s: %w", dir, ErrNotRunDir)
	}
	if err != nil {
		return nil, fmt.Errorf("load run: %w", err)
	}
	run := &Run{Dir: dir, Summary: *sum}
	for _, s := range run.Summary.Systems {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sysDir, ok := systemDir(s)
		if !ok {
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: %q cannot be its directory; its records were not read", s.System, sysDir))
			continue
		}
		path := filepath.Join(dir, sysDir, RecordsFile)
		// A system's folder or records symlinked out of the run would show someone
		// else's file as this run's records: the run is refused.
		inside, err := Resolve(dir, sysDir+"/"+RecordsFile)
		var recs []record.Record
		if err == nil {
			recs, err = ReadRecords(inside)
		}
		switch {
		case errors.Is(err, os.ErrNotExist):
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: %s is missing", s.System, path))
			continue
		case errors.Is(err, record.ErrTornLine):
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: the last line of %s is incomplete (interrupted run) and was ignored", s.System, path))
		case err != nil:
			return nil, fmt.Errorf("load run %s: system %s: %w", dir, s.System, err)
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
	if run.Agreement, warn = loadAgreement(dir); warn != "" {
		run.Warnings = append(run.Warnings, warn)
	}
	run.Integrity = Check(dir, sum)
	if run.Summary.Metrics == nil {
		opt := metrics.Options{PassK: run.PassK(), Pricing: run.pricing()}
		run.Summary.Metrics = metrics.Aggregate(metrics.Declared(opt), run.SystemRecords())
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
	path, err := Resolve(r.Dir, m.Pricing)
	var b []byte
	if err == nil {
		b, err = safefile.ReadFile(path, MaxPricing)
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

// PassK is the run's Pass@k list, as its modules section recorded it.
func (r *Run) PassK() []int {
	if r.Summary.Modules != nil {
		return r.Summary.Modules.PassK
	}
	return nil
}

// SystemRecords is every system's records, for the metrics package.
func (r *Run) SystemRecords() []metrics.SystemRecords {
	out := make([]metrics.SystemRecords, len(r.Systems))
	for i, s := range r.Systems {
		out[i] = metrics.SystemRecords{Name: s.Name, Records: s.Records}
	}
	return out
}

// loadAudit reads DIR/audit.jsonl; a missing file is no audit. A bad line is a warning
// naming the file and line, and the audit is left out rather than shown in part.
func loadAudit(dir string) ([]audit.Finding, bool, string) {
	path := filepath.Join(dir, AuditFile)
	inside, err := Resolve(dir, AuditFile) // not a symlink out of the run
	var f *os.File
	if err == nil {
		f, _, err = safefile.Open(inside, MaxAudit)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, ""
	}
	if err != nil {
		return nil, false, fmt.Sprintf("audit: %v; audit section left out", err)
	}
	defer f.Close()
	var out []audit.Finding
	_, err = safefile.ReadLines(f, 0, func(l safefile.Line) error {
		var x audit.Finding
		if err := json.Unmarshal(l.Bytes, &x); err != nil {
			return fmt.Errorf("%s line %d: %w", path, l.N, err)
		}
		out = append(out, x)
		return nil
	})
	if errors.Is(err, safefile.ErrTornLine) || errors.Is(err, safefile.ErrLineTooLong) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	if err != nil {
		return nil, false, fmt.Sprintf("audit: %v; audit section left out", err)
	}
	return out, true, ""
}

// loadReviewed reads DIR/reviewed.json; nil when there is none.
func loadReviewed(dir string) (*Reviewed, string) {
	var r Reviewed
	path, err := Resolve(dir, ReviewedFile) // not a symlink out of the run
	if err == nil {
		err = readJSON(path, MaxReviewed, &r)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, ""
	}
	if err != nil {
		return nil, fmt.Sprintf("reviewed scores: %v; section left out", err)
	}
	return &r, ""
}

// Manifest is the run's manifest: summary.json's copy, else DIR/manifest.json.
func (r *Run) Manifest() (*Manifest, error) {
	if r.Summary.Manifest != nil {
		return r.Summary.Manifest, nil
	}
	path := filepath.Join(r.Dir, "manifest.json")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("run %s has no manifest (manifest.json): cannot check that it judged the same dataset", r.Dir)
	}
	m, err := ResumeManifest(r.Dir)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("run %s has no manifest (manifest.json): cannot check that it judged the same dataset", r.Dir)
	}
	return m, nil
}
