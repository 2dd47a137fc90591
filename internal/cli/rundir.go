package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
)

// recordsFile is the judged records of one system in a run directory, DIR/<system>/.
const recordsFile = "records.jsonl"

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

// openRunDir creates DIR/<system>/records.jsonl for every system. With resume, the
// complete records already there are kept (a torn last line is cut off) and judging
// continues after them.
func openRunDir(out string, systems []benchrun.System, resume bool, n int) (*runDir, error) {
	d := &runDir{out: out, systems: systems}
	if resume {
		d.resumed = make([][]record.Record, len(systems))
	}
	for i, s := range systems {
		dir := filepath.Join(out, s.Dir)
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
			recs, err := resumeRecords(f, path, n)
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

// resumeRecords reads the complete records of f, a run's records file for a dataset of
// n questions, and leaves f positioned after them with any torn last line cut off.
func resumeRecords(f *os.File, path string, n int) ([]record.Record, error) {
	recs, valid, err := record.ReadJSONL(f)
	if err != nil && !errors.Is(err, record.ErrTornLine) {
		return nil, fmt.Errorf("resume from %s: %w", path, err)
	}
	for i, r := range recs {
		if r.Index != i {
			return nil, fmt.Errorf("resume from %s: line %d holds question %d, expected %d; not a run of this dataset", path, i+1, r.Index, i)
		}
	}
	if len(recs) > n {
		return nil, fmt.Errorf("resume from %s: %d records for a dataset of %d questions", path, len(recs), n)
	}
	if err := f.Truncate(valid); err != nil {
		return nil, fmt.Errorf("resume from %s: %w", path, err)
	}
	if _, err := f.Seek(valid, 0); err != nil {
		return nil, fmt.Errorf("resume from %s: %w", path, err)
	}
	return recs, nil
}

// Write appends one judged record to its system's records file, flushed.
func (d *runDir) Write(system int, r *record.Record) error { return d.ws[system].Write(r) }

// Rewrite replaces a system's records file with recs, atomically (temp file + rename),
// so an interrupted timing phase leaves the judged records intact.
func (d *runDir) Rewrite(system int, recs []record.Record) error {
	return rewriteRecords(filepath.Join(d.out, d.systems[system].Dir, recordsFile), recs)
}

// Close closes the records files.
func (d *runDir) Close() {
	for _, f := range d.files {
		f.Close()
	}
}

// rewriteRecords replaces a records file with recs, atomically.
func rewriteRecords(path string, recs []record.Record) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("rewrite records: %w", err)
	}
	w := record.NewWriter(f)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			f.Close()
			os.Remove(tmp)
			return fmt.Errorf("rewrite records %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rewrite records %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rewrite records: %w", err)
	}
	return nil
}

func writeJSONFile(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := report.WriteJSON(f, v); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
