package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Files of a run directory (internal/rundir names them all): DIR/manifest.json, written
// before the first record, and each system's judged records, DIR/<system>/records.jsonl.
const (
	manifestFile = rundir.ManifestFile
	recordsFile  = rundir.RecordsFile
)

// runDir is a run directory being written: the run layer's Sink, streaming every system's
// records to DIR/<system>/records.jsonl.
type runDir struct {
	out     string
	systems []benchrun.System
	files   []*os.File
	ws      []*record.Writer
	resumed [][]record.Record // with --resume: the complete records already there
}

var _ benchrun.Sink = (*runDir)(nil)

// openRunDir creates DIR/<system>/records.jsonl for every system, after writing m as
// DIR/manifest.json (m nil: the manifest is already there, as when resuming). With
// resume, the complete records already there are kept (a torn last line is cut off)
// and judging continues after them.
func openRunDir(out string, systems []benchrun.System, resume bool, m *rundir.Manifest) (*runDir, error) {
	d := &runDir{out: out, systems: systems}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create run directory: %w", err)
	}
	if m != nil {
		if err := writeJSONAtomic(filepath.Join(out, manifestFile), m); err != nil {
			return nil, err
		}
	}
	if resume {
		d.resumed = make([][]record.Record, len(systems))
	}
	for i, s := range systems {
		dir := filepath.Join(out, s.Dir)
		// A resumed directory is someone else's: its system folder or records must not
		// be a symlink that would have us append to a file outside it.
		if _, err := rundir.Resolve(out, s.Dir+"/"+recordsFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			d.Close()
			return nil, fmt.Errorf("open records: %w", err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			d.Close()
			return nil, fmt.Errorf("create run directory: %w", err)
		}
		path := filepath.Join(dir, recordsFile)
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if resume {
			flags = os.O_CREATE | os.O_RDWR
		}
		f, err := os.OpenFile(path, flags, 0o644)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("open records: %w", err)
		}
		d.files = append(d.files, f)
		if resume {
			recs, err := rundir.ResumeRecords(f, path)
			if err != nil {
				d.Close()
				return nil, err
			}
			d.resumed[i] = recs
		}
		d.ws = append(d.ws, record.NewWriter(f))
	}
	return d, nil
}

// Write appends one judged record to its system's records file, flushed.
// A counterexample script (eval --test-suite) is written first, so a record never names
// a missing file.
func (d *runDir) Write(system int, r *record.Record) error {
	if err := writeCounterexample(d.out, r); err != nil {
		return err
	}
	return d.ws[system].Write(r)
}

// Rewrite replaces a system's records file with recs, atomically (temp file + rename),
// so an interrupted timing phase leaves the judged records intact.
func (d *runDir) Rewrite(system int, recs []record.Record) error {
	return rewriteRecords(filepath.Join(d.out, d.systems[system].Dir, recordsFile), recs)
}

// Close closes the records files; closing again does nothing.
func (d *runDir) Close() {
	for _, f := range d.files {
		f.Close()
	}
	d.files = nil
}

// rewriteRecords replaces a records file with recs, atomically.
func rewriteRecords(path string, recs []record.Record) error { return rundir.WriteRecords(path, recs) }

// writeJSONAtomic writes v as JSON to path atomically (rundir.WriteJSON).
func writeJSONAtomic(path string, v any) error { return rundir.WriteJSON(path, v) }

// ErrNoManifest is --resume's error on a run directory that holds records but no
// manifest.json (written by an nl2sqlbench before manifests): what its records were
// judged from cannot be checked, so they are not continued.
var ErrNoManifest = errors.New("no manifest.json")

// resumeManifest reads the manifest of the run in out, which --resume continues. It is
// nil, without error, when out holds no records yet (the run starts afresh).
func resumeManifest(out string) (*rundir.Manifest, error) {
	m, err := rundir.ReadManifest(out)
	if err == nil {
		return m, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	recs, _ := filepath.Glob(filepath.Join(out, "*", recordsFile))
	for _, r := range recs {
		if fi, err := os.Stat(r); err == nil && fi.Size() > 0 {
			return nil, fmt.Errorf("--resume: %w in %s, which holds records (%s): it was written by an older nl2sqlbench and what they were judged from cannot be checked; rerun without --resume (--force replaces it)",
				ErrNoManifest, out, r)
		}
	}
	return nil, nil
}

// checkResumable refuses to continue a finished run in out whose files differ from the
// hashes it recorded (rundir.Check): its records are not what it wrote. A run that did
// not finish has no summary.json and recorded no hashes yet.
func checkResumable(out string) error {
	sum, err := rundir.ReadSummary(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--resume: %w", err)
	}
	if err := rundir.Check(out, sum).Err(); err != nil {
		return fmt.Errorf("--resume: %s: %w", out, err)
	}
	return nil
}
