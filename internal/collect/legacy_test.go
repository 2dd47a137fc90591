package collect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bytes"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

func TestAdoptLegacyModulesFile(t *testing.T) {
	tests := []struct {
		name string
		have map[string]string // files in the directory before
		want map[string]string // after (absent: must not exist)
		note string            // in the log; "" for silence
	}{
		{"old run directory: renamed",
			map[string]string{ManifestFile: "{}", LegacyModulesFile: "old"},
			map[string]string{ManifestFile: "{}", ModulesFile: "old"}, "renamed"},
		{"not a collect run directory: left alone",
			map[string]string{LegacyModulesFile: "judged?"},
			map[string]string{LegacyModulesFile: "judged?"}, ""},
		{"both names: the new one is read, the old left alone",
			map[string]string{ManifestFile: "{}", LegacyModulesFile: "old", ModulesFile: "new"},
			map[string]string{ManifestFile: "{}", LegacyModulesFile: "old", ModulesFile: "new"}, "is not read"},
		{"new run directory: nothing to do",
			map[string]string{ManifestFile: "{}", ModulesFile: "new"},
			map[string]string{ManifestFile: "{}", ModulesFile: "new"}, ""},
		{"empty directory",
			map[string]string{}, map[string]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tt.have {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var log strings.Builder
			if err := AdoptLegacyModulesFile(dir, ManifestFile, &log); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{ManifestFile, LegacyModulesFile, ModulesFile} {
				b, err := os.ReadFile(filepath.Join(dir, name))
				want, ok := tt.want[name]
				switch {
				case !ok && err == nil:
					t.Errorf("%s exists (%q), want it gone", name, b)
				case ok && (err != nil || string(b) != want):
					t.Errorf("%s: %q, %v; want %q", name, b, err, want)
				}
			}
			if (tt.note == "") != (log.Len() == 0) || !strings.Contains(log.String(), tt.note) {
				t.Errorf("log %q, want a note saying %q", log.String(), tt.note)
			}
		})
	}
}

// A run directory written before modules.jsonl had its name: records.jsonl, its last
// question's block lost to a crash. Run adopts it, says so, and resumes from it.
func TestRunResumesFromLegacyRecordsFile(t *testing.T) {
	ds := demoDataset(t)
	srv := fakellm.New(goldScript(ds, 0), 1000)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, srv.BaseURL, "")
	out := filepath.Join(dir, "out")
	if _, err := Run(context.Background(), Options{Config: cfg, Dataset: ds, OutDir: out, Getenv: getenv}); err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(filepath.Join(out, ModulesFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(full), "\n"), "\n")
	perQuestion := len(cfg.nodeTypes())
	old := strings.Join(lines[:len(lines)-perQuestion], "") + lines[len(lines)-perQuestion][:10] // and a torn line
	if err := os.WriteFile(filepath.Join(out, LegacyModulesFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, ModulesFile)); err != nil {
		t.Fatal(err)
	}

	var log strings.Builder
	before := len(srv.Requests())
	sum, err := Run(context.Background(), Options{Config: cfg, Dataset: ds, OutDir: out, Getenv: getenv, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	n := len(ds.Questions)
	if sum.Resumed != n-1 || sum.Collected != 1 || len(srv.Requests()) != before {
		t.Errorf("resumed %d, collected %d of %d, %d new requests", sum.Resumed, sum.Collected, n, len(srv.Requests())-before)
	}
	if !strings.Contains(log.String(), "renamed "+filepath.Join(out, LegacyModulesFile)) {
		t.Errorf("log %q says nothing of the rename", log.String())
	}
	if _, err := os.Stat(filepath.Join(out, LegacyModulesFile)); !os.IsNotExist(err) {
		t.Errorf("%s still there (%v)", LegacyModulesFile, err)
	}
	if sum.Records != filepath.Join(out, ModulesFile) {
		t.Errorf("summary names %s", sum.Records)
	}
	data, err := os.ReadFile(sum.Records)
	if err != nil {
		t.Fatal(err)
	}
	done, good, err := parseDone(sum.Records, bytes.NewReader(data), cfg.nodeTypes())
	if err != nil || good != int64(len(data)) || len(done) != n {
		t.Errorf("after resume: %d questions of %d, %d of %d bytes good, %v", len(done), n, good, len(data), err)
	}
	if sortedLines(data) != sortedLines(full) {
		t.Errorf("resumed records differ from the first run's")
	}
	set, err := predict.Read(sum.Records)
	if err != nil || len(set.Items) != n {
		t.Errorf("predict reads the adopted file: %v", err)
	}
}
