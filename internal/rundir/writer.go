package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// Writer is a run directory being written: the run layer's sink, streaming every
// system's judged records to DIR/<system>/records.jsonl as they come.
type Writer struct {
	out     string
	dirs    []string // each system's folder, record.SystemDir of its name
	files   []*os.File
	ws      []*record.Writer
	resumed [][]record.Record // with resume: the complete records already there
}

// OpenWriter creates DIR/<dir>/records.jsonl for every system folder in dirs, after
// writing m as DIR/manifest.json (m nil: the manifest is already there, as when
// resuming). With resume, the complete records already there are kept (a torn last line
// is cut off; Resumed returns them) and judging continues after them.
func OpenWriter(out string, dirs []string, resume bool, m *Manifest) (*Writer, error) {
	d := &Writer{out: out, dirs: dirs}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create run directory: %w", err)
	}
	if m != nil {
		if err := WriteJSON(filepath.Join(out, ManifestFile), m); err != nil {
			return nil, err
		}
	}
	if resume {
		d.resumed = make([][]record.Record, len(dirs))
	}
	for i, sys := range dirs {
		dir := filepath.Join(out, sys)
		// A resumed directory is someone else's: its system folder or records must not
		// be a symlink that would have us append to a file outside it.
		if _, err := Resolve(out, sys+"/"+RecordsFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			d.Close()
			return nil, fmt.Errorf("open records: %w", err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			d.Close()
			return nil, fmt.Errorf("create run directory: %w", err)
		}
		path := filepath.Join(dir, RecordsFile)
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
			recs, err := ResumeRecords(f, path)
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

// Resumed is every system's complete records already in the directory (nil without resume).
func (d *Writer) Resumed() [][]record.Record { return d.resumed }

// Write appends one judged record to its system's records file, flushed.
// A counterexample script (eval --test-suite) is written first, so a record never names
// a missing file.
func (d *Writer) Write(system int, r *record.Record) error {
	if err := WriteCounterexample(d.out, r); err != nil {
		return err
	}
	return d.ws[system].Write(r)
}

// Rewrite replaces a system's records file with recs, atomically (temp file + rename),
// so an interrupted timing phase leaves the judged records intact.
func (d *Writer) Rewrite(system int, recs []record.Record) error {
	return WriteRecords(filepath.Join(d.out, d.dirs[system], RecordsFile), recs)
}

// Close closes the records files; closing again does nothing.
func (d *Writer) Close() {
	for _, f := range d.files {
		f.Close()
	}
	d.files = nil
}

// WriteCounterexample writes r's counterexample script to its path in the run directory
// out (atomically: a temp file renamed), before the record naming it is written; nothing
// when r has none.
func WriteCounterexample(out string, r *record.Record) error {
	c := r.Counterexample
	if c == nil || c.Script == "" {
		return nil
	}
	if c.Path == "" || filepath.IsAbs(c.Path) || strings.Contains(c.Path, "..") {
		return fmt.Errorf("counterexample of question %d: bad path %q", r.Index, c.Path)
	}
	path := filepath.Join(out, filepath.FromSlash(c.Path))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write counterexample: %w", err)
	}
	if err := safefile.WriteFile(path, []byte(c.Script)); err != nil {
		return fmt.Errorf("write counterexample: %w", err)
	}
	return nil
}
