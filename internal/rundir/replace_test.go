package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 45, failure 4: the refusal suggested --force, which then removed thesis.tex and
// src/ from the named folder. --force replaces only a run directory or an empty folder.
func TestCheckReplaceable(t *testing.T) {
	type file struct{ path, body string }
	run := []file{{"manifest.json", "{}"}, {"summary.json", "{}"}, {"args.json", "{}"},
		{"a/records.jsonl", ""}, {"a/statistics.json", "{}"}, {"b/records.jsonl", ""}}
	tests := []struct {
		name  string
		files []file
		dirs  []string
		link  string // a symlink named so, to /etc
		ok    bool
		names []string // what the refusal names
	}{
		{name: "empty", ok: true},
		{name: "a run", files: run, ok: true},
		{name: "a run killed early: args.json and an empty system folder", files: []file{{"args.json", "{}"}}, dirs: []string{"sys"}, ok: true},
		{name: "a run with audit, reviews, report and a temp file", files: append(run[:len(run):len(run)], file{"audit.jsonl", ""}, file{"reviews.jsonl", ""}, file{"report.html", ""}, file{".summary.json.123.tmp", ""}), ok: true},
		{name: "a thesis and its sources", files: []file{{"thesis.tex", "x"}, {"src/main.go", "x"}}, names: []string{"thesis.tex", "src/"}},
		{name: "a run with a thesis added", files: append(run[:len(run):len(run)], file{"thesis.tex", "x"}), names: []string{"thesis.tex"}},
		{name: "a system folder holding code", files: append(run[:len(run):len(run)], file{"a/main.go", "x"}), names: []string{"a/"}},
		{name: "run files only in a folder, no manifest, args or summary", files: []file{{"a/records.jsonl", ""}}, names: []string{"no manifest.json"}},
		{name: "a symlink at the top", files: run, link: "home", names: []string{"home"}},
		{name: "a temp file not of a run's", files: append(run[:len(run):len(run)], file{".thesis.tex.1.tmp", ""}), names: []string{".thesis.tex.1.tmp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range tt.dirs {
				os.MkdirAll(filepath.Join(dir, d), 0o755)
			}
			for _, f := range tt.files {
				p := filepath.Join(dir, f.path)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.link != "" {
				if err := os.Symlink("/etc", filepath.Join(dir, tt.link)); err != nil {
					t.Fatal(err)
				}
			}
			err := CheckReplaceable(dir)
			if tt.ok {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrNotReplaceable) {
				t.Fatalf("got %v, want ErrNotReplaceable", err)
			}
			for _, n := range append(tt.names, "nothing was removed") {
				if !strings.Contains(err.Error(), n) {
					t.Errorf("error %q does not name %q", err, n)
				}
			}
		})
	}
}
