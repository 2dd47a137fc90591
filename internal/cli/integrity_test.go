package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// integrityArgs is eval of one demo system, named b, from pred into out.
func integrityArgs(f *demo.Files, pred, out string, extra ...string) []string {
	args := []string{"eval", "--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--pred", "b=" + pred,
		"--out", out, "--json", "--timeout", "1s", "--max-rows", "10000"}
	return append(args, extra...)
}

// copyFile copies src to dst, creating dst's directory.
func copyFile(tb testing.TB, src, dst string) {
	tb.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestEvalManifest: the run directory holds manifest.json, and summary.json carries the
// same manifest.
func TestEvalManifest(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	out := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run(integrityArgs(f, f.Systems["baseline"], out, "--hash-dbs", "--semantics", "spider")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m rundir.Manifest
	readJSON(t, filepath.Join(out, "manifest.json"), &m)
	sum := readSummary(t, out)
	// manifest.json adds, when the run finishes, the hashes summary.json cannot carry of
	// itself (rundir.Seal); summary.json lists the same files.
	if m.SchemaVersion != rundir.SchemaVersion || len(m.SummarySHA256) != 64 || !reflect.DeepEqual(m.Files, sum.Files) || len(sum.Files) < 2 {
		t.Errorf("manifest.json's hashes: version %d, summary %q, files %v (summary.json's %v)", m.SchemaVersion, m.SummarySHA256, m.Files, sum.Files)
	}
	m.Files, m.SummarySHA256 = nil, ""
	if sum.Manifest == nil || !reflect.DeepEqual(*sum.Manifest, m) {
		t.Errorf("summary.json's manifest %+v differs from manifest.json %+v", sum.Manifest, m)
	}
	if m.Settings.Semantics != "spider" || m.Settings.TimeoutS != 1 || m.Settings.MaxRows != 10_000 || !m.HashedDBs {
		t.Errorf("settings %+v, hashed %v", m.Settings, m.HashedDBs)
	}
	if len(m.Predictions) != 1 || m.Predictions[0].System != "b" || len(m.Predictions[0].SHA256) != 64 {
		t.Errorf("predictions %+v", m.Predictions)
	}
	for _, d := range m.Databases {
		if !d.Missing && len(d.SHA256) != 64 {
			t.Errorf("database %s without sha256 under --hash-dbs", d.DBID)
		}
	}
}

// TestEvalResumeRefused: --resume refuses, naming the difference and keeping the
// records, whenever the run asked for is not the run the directory holds.
func TestEvalResumeRefused(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	f := demoFiles(t)
	tmp := t.TempDir()
	pred := filepath.Join(tmp, "b.jsonl") // a copy, so one case can edit it
	copyFile(t, f.Systems["baseline"], pred)
	base := filepath.Join(tmp, "base")
	if code, _, stderr := run(integrityArgs(f, pred, base)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := bytes.SplitAfter(readFile(t, filepath.Join(base, "b", "records.jsonl")), []byte("\n"))
	tests := []struct {
		name   string
		pred   string
		extra  []string
		change func(t *testing.T, dir string)
		want   string
	}{
		{name: "another prediction file", pred: f.Systems["reviser"], want: "prediction file for system b changed (" + pred},
		{name: "prediction file edited", change: func(t *testing.T, _ string) {
			orig := readFile(t, pred)
			t.Cleanup(func() { os.WriteFile(pred, orig, 0o644) })
			if err := os.WriteFile(pred, append(orig, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}, want: "prediction file for system b changed (" + pred + ": sha256 "},
		{name: "semantics", extra: []string{"--semantics", "spider"}, want: "setting semantics changed (bird → spider)"},
		{name: "timeout", extra: []string{"--timeout", "2s"}, want: "setting timeout_s changed (1 → 2)"},
		{name: "record not in the dataset", change: func(t *testing.T, dir string) {
			path := filepath.Join(dir, "b", "records.jsonl")
			b := bytes.Replace(readFile(t, path), []byte(`"question_id":"lib-002"`), []byte(`"question_id":"lib-999"`), 1)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, want: `record 2 is question 1 (question_id "lib-999"`},
		{name: "no manifest", change: func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "manifest.json")); err != nil {
				t.Fatal(err)
			}
		}, want: "no manifest.json in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			copyFile(t, filepath.Join(base, "manifest.json"), filepath.Join(dir, "manifest.json"))
			copyFile(t, filepath.Join(base, "b", "records.jsonl"), filepath.Join(dir, "b", "records.jsonl"))
			if err := os.WriteFile(filepath.Join(dir, "b", "records.jsonl"), bytes.Join(lines[:10], nil), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.change != nil {
				tt.change(t, dir)
			}
			before := readFile(t, filepath.Join(dir, "b", "records.jsonl"))
			p := pred
			if tt.pred != "" {
				p = tt.pred
			}
			code, _, stderr := run(append(integrityArgs(f, p, dir, "--resume"), tt.extra...)...)
			if code != exitError || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d saying %q", code, stderr, exitError, tt.want)
			}
			if !strings.Contains(stderr, "rerun without --resume") {
				t.Errorf("stderr %q does not say what to do", stderr)
			}
			if after := readFile(t, filepath.Join(dir, "b", "records.jsonl")); !bytes.Equal(after, before) {
				t.Errorf("a refused resume changed the records")
			}
		})
	}
}

// TestEvalOutNotEmpty: a new run never destroys an earlier one. Without --force it is
// refused; with --force it replaces the earlier run only once it is complete.
func TestEvalOutNotEmpty(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	f := demoFiles(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "run")
	if code, _, stderr := run(integrityArgs(f, f.Systems["baseline"], out)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	records, summary := filepath.Join(out, "b", "records.jsonl"), filepath.Join(out, "summary.json")
	wantRecords, wantSummary := readFile(t, records), readFile(t, summary)
	untouched := func(t *testing.T) {
		t.Helper()
		if !bytes.Equal(readFile(t, records), wantRecords) || !bytes.Equal(readFile(t, summary), wantSummary) {
			t.Errorf("the earlier run in %s changed", out)
		}
	}

	code, _, stderr := run(integrityArgs(f, f.Systems["reviser"], out)...)
	if code != exitError || !strings.Contains(stderr, "--out "+out+" already holds") || !strings.Contains(stderr, "--force") {
		t.Errorf("rerun without --force: exit %d, stderr %q", code, stderr)
	}
	untouched(t)

	// A --force run that fails after judging (its timing phase is over budget) leaves the
	// earlier run whole and says where its own records are.
	code, _, stderr = run(integrityArgs(f, f.Systems["reviser"], out, "--force", "--ves", "--ves-budget", "1ns")...)
	if code == exitOK || !strings.Contains(stderr, out+".new-") || !strings.Contains(stderr, "untouched") {
		t.Errorf("failed --force run: exit %d, stderr %q", code, stderr)
	}
	untouched(t)
	leftovers, _ := filepath.Glob(out + ".new-*")
	for _, l := range leftovers {
		os.RemoveAll(l)
	}

	if code, _, stderr := run(integrityArgs(f, f.Systems["reviser"], out, "--force")...); code != exitOK {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	var m rundir.Manifest
	readJSON(t, filepath.Join(out, "manifest.json"), &m)
	if len(m.Predictions) != 1 || m.Predictions[0].Path != f.Systems["reviser"] {
		t.Errorf("after --force the run is not the new one: %+v", m.Predictions)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("after --force %d entries beside the run, want only it: %v", len(entries), entries)
	}

	if code, _, stderr := run(integrityArgs(f, f.Systems["reviser"], out, "--force", "--resume")...); code != exitUsage {
		t.Errorf("--force --resume: exit %d, stderr %q", code, stderr)
	}
}

// TestDemoRerun: the demo replaces its own run directory on a rerun.
func TestDemoRerun(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	cache, out := t.TempDir(), filepath.Join(t.TempDir(), "demo")
	for i := range 2 {
		code, stdout, stderr := run("demo", "--cache", cache, "--out", out, "--json")
		if code != exitOK {
			t.Fatalf("demo run %d: exit %d: %s", i+1, code, stderr)
		}
		if !json.Valid([]byte(stdout)) {
			t.Fatalf("demo run %d: stdout is not JSON", i+1)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err != nil {
		t.Error(err)
	}
}

// TestEvalNoDatabases: a --db-root where none of the dataset's databases is fails before
// judging, naming the path, instead of reporting 0.00 rates over nothing.
func TestEvalNoDatabases(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	empty := t.TempDir()
	for _, root := range []string{filepath.Join(empty, "nope"), empty} {
		out := filepath.Join(t.TempDir(), "run")
		args := integrityArgs(f, f.Systems["baseline"], out)
		args[4] = root // --db-root's value
		code, stdout, stderr := run(args...)
		if code != exitError || !strings.Contains(stderr, root) || !strings.Contains(stderr, "no database found") {
			t.Errorf("--db-root %s: exit %d, stderr %q", root, code, stderr)
		}
		if stdout != "" {
			t.Errorf("--db-root %s: printed %q", root, stdout)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("--db-root %s: run directory created (%v)", root, err)
		}
	}
}
