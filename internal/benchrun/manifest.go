package benchrun

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/buildid"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// NewManifest fingerprints a prepared run: the build (version, VCS revision, Go and
// SQLite versions), the settings that shape its verdicts and a digest of every input
// file (dataset, tables.json, each prediction file; each database's size and
// modification time, and its sha256 with Config.HashDBs). Prepare calls it; the cli
// writes the result as the run directory's manifest.json.
func NewManifest(ctx context.Context, p *Plan) (*rundir.Manifest, error) {
	return newManifest(ctx, p, nil)
}

// newManifest is NewManifest telling obs (nil: nobody) how hashing the databases goes.
func newManifest(ctx context.Context, p *Plan, obs Observer) (*rundir.Manifest, error) {
	cfg, ds := p.Config, p.Dataset
	m := &rundir.Manifest{
		SchemaVersion: rundir.SchemaVersion,
		Tool:          "nl2sqlbench",
		Version:       buildid.Version(),
		GoVersion:     runtime.Version(),
		StartedAt:     time.Now().UTC().Truncate(time.Second),
		HashedDBs:     cfg.HashDBs,
		Host:          hostName(),
	}
	m.SQLiteVersion, _, _ = sqlite3.Version()
	v := buildid.Stamp()
	m.Revision, m.RevisionTime, m.Modified = v.Revision, v.Time, v.Modified
	if !buildid.Pinned() {
		// Only when the revision does not pin the source (Prepare starts it early; it is
		// cached per binary file: internal/buildid).
		m.Executable = buildid.ExecutableSHA256()
	}
	m.Settings = manifestSettings(p)
	var err error
	if m.Dataset, err = digestFile(ctx, ds.Path); err != nil {
		return nil, fmt.Errorf("manifest: dataset: %w", err)
	}
	if ds.Tables != "" {
		t, err := digestFile(ctx, ds.Tables)
		if err != nil {
			return nil, fmt.Errorf("manifest: tables: %w", err)
		}
		m.Tables = &t
	}
	if ds.DiffJSON != "" {
		t, err := digestFile(ctx, ds.DiffJSON)
		if err != nil {
			return nil, fmt.Errorf("manifest: difficulty file: %w", err)
		}
		m.DiffJSON = &t
	}
	if ds.Alternatives != "" {
		t, err := digestFile(ctx, ds.Alternatives)
		if err != nil {
			return nil, fmt.Errorf("manifest: alternatives file: %w", err)
		}
		m.Alternatives = &t
	}
	if s2 := ds.Spider2; s2 != nil {
		if m.Spider2Eval, m.Spider2Gold, err = spider2Digests(ctx, s2); err != nil {
			return nil, err
		}
	}
	for i, s := range p.Systems {
		_, path := splitPredSpec(cfg.Preds[i])
		digest := digestFile
		if s.Spider2 != nil {
			digest = digestDir // a folder of answers
		}
		d, err := digest(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("manifest: prediction file of %s: %w", s.Name, err)
		}
		m.Predictions = append(m.Predictions, rundir.PredictionFile{System: s.Name, FileDigest: d})
	}
	if m.Databases, err = databaseFiles(ctx, ds, cfg.HashDBs, cfg.Engine, orQuiet(obs)); err != nil {
		return nil, err
	}
	return m, nil
}

// databaseFiles describes the database of every db_id of ds's questions, in db_id order.
// With hash, every file is read through sha256, a phase of its own (PhaseHashing) for obs.
// engineName is the --engine ("duckdb": DuckDB files are recorded first).
func databaseFiles(ctx context.Context, ds *dataset.Dataset, hash bool, engineName string, obs Observer) ([]rundir.DatabaseFile, error) {
	var ids []string
	seen := map[string]bool{}
	for _, q := range ds.Questions {
		if !seen[q.DBID] {
			seen[q.DBID] = true
			ids = append(ids, q.DBID)
		}
	}
	slices.Sort(ids)
	out := make([]rundir.DatabaseFile, 0, len(ids))
	prog := Progress(quiet{})
	if hash {
		prog = obs.Phase(Phase{Name: PhaseHashing, Items: len(ids)})
		defer prog.Finish()
	}
	for i, id := range ids {
		prog.Update(i, len(ids))
		d := rundir.DatabaseFile{DBID: id}
		path, ok := ds.DBPath(id)
		if p, duck := ds.DuckDBPath(id); duck && (engineName == "duckdb" || !ok && ds.Spider2 != nil) {
			path, ok = p, true // where the predictions run: a DuckDB file
		}
		if !ok {
			d.Missing = true
			out = append(out, d)
			continue
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("manifest: database %s: %w", id, err)
		}
		d.Path, d.Size, d.ModTime = absPath(path), fi.Size(), fi.ModTime().UTC()
		if hash {
			fd, err := digestFile(ctx, path)
			if err != nil {
				return nil, fmt.Errorf("manifest: database %s: %w", id, err)
			}
			d.SHA256 = fd.SHA256
		}
		out = append(out, d)
	}
	prog.Update(len(ids), len(ids))
	return out, nil
}

// absPath is path made absolute, so a run resumed from another working directory, or
// with a relative path for an absolute one, names the same files the same way.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// digestFile reads path through sha256.
func digestFile(ctx context.Context, path string) (rundir.FileDigest, error) {
	if err := ctx.Err(); err != nil {
		return rundir.FileDigest{}, err
	}
	// Streamed, so any size; but a FIFO (a --tables or --diff-json the reader only
	// warned about) would block the open and the read forever.
	f, _, err := safefile.Open(path, math.MaxInt64)
	if err != nil {
		return rundir.FileDigest{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return rundir.FileDigest{}, fmt.Errorf("hash %s: %w", path, err)
	}
	return rundir.FileDigest{Path: absPath(path), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
