package report

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ErrNotRunDir reports a directory without summary.json: not something eval or demo wrote.
var ErrNotRunDir = errors.New("not a run directory (no summary.json)")

// Run is a run directory read back for the HTML report, the Markdown summary and the
// dashboard: summary.json and every system's records.jsonl.
//
// Records are decoded twice: into record.Record (the stable fields) and into a generic
// map (Extra), so views can show fields that later metrics add (esm, etm, soft_f1,
// schema_table_f1, pass_at, ...) before this package knows their Go types.
type Run struct {
	Dir        string
	Summary    RunSummary
	SummaryRaw map[string]json.RawMessage
	Systems    []SystemRun
	Warnings   []string // problems that did not stop loading (a torn last line, a missing system)
}

// SystemRun is one system's records.
type SystemRun struct {
	Name    string
	Records []Rec
}

// Rec is one judged record with the JSON fields record.Record does not (yet) name.
type Rec struct {
	record.Record
	Extra map[string]json.RawMessage
}

// LoadRun reads the run directory dir.
func LoadRun(ctx context.Context, dir string) (*Run, error) {
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("load run %s: %w", dir, ErrNotRunDir)
	}
	if err != nil {
		return nil, fmt.Errorf("load run: %w", err)
	}
	run := &Run{Dir: dir}
	if err := json.Unmarshal(data, &run.Summary); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "summary.json"), err)
	}
	if err := json.Unmarshal(data, &run.SummaryRaw); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "summary.json"), err)
	}
	for _, s := range run.Summary.Systems {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		path := filepath.Join(dir, s.System, "records.jsonl")
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: %s is missing", s.System, path))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load run: %w", err)
		}
		recs, torn, err := readRecs(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if torn {
			run.Warnings = append(run.Warnings, fmt.Sprintf("system %s: the last line of %s is incomplete (interrupted run) and was ignored", s.System, path))
		}
		run.Systems = append(run.Systems, SystemRun{Name: s.System, Records: recs})
	}
	return run, nil
}

// readRecs reads records.jsonl keeping unknown fields. A torn last line (an interrupted
// run) is reported, not an error; any other bad line is an error naming it.
func readRecs(r io.Reader) (recs []Rec, torn bool, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		b, rerr := br.ReadBytes('\n')
		if t := bytes.TrimSpace(b); len(t) > 0 {
			var rec Rec
			err1 := json.Unmarshal(t, &rec.Record)
			if err1 == nil {
				err1 = json.Unmarshal(t, &rec.Extra)
			}
			complete := b[len(b)-1] == '\n'
			switch {
			case err1 != nil && !complete:
				return recs, true, nil
			case err1 != nil:
				return recs, false, fmt.Errorf("line %d: %w", line, err1)
			}
			recs = append(recs, rec)
		}
		if rerr == io.EOF {
			return recs, false, nil
		}
		if rerr != nil {
			return recs, false, rerr
		}
	}
}

// Semantics is the run's primary semantics ("bird" or "spider"), as summary.json says.
func (r *Run) Semantics() string { return r.Summary.Settings.Semantics }
