package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
)

// demoFiles builds the demo once per test into a temp cache.
func demoFiles(tb testing.TB) *demo.Files {
	tb.Helper()
	f, err := demo.Materialize(context.Background(), tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Run(context.Background(), cmdline(args...), strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

func TestEvalBadInput(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	short := write("short.txt", "SELECT 1\nSELECT 2\n")
	badJSON := write("bad.json", "{\"0\": \"SELECT 1\",\n \"1\": }\n")
	ds := "jsonl:" + f.Questions
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"no dataset", []string{"eval", "--pred", short}, exitUsage, []string{"--dataset is required"}},
		{"no pred", []string{"eval", "--dataset", ds}, exitUsage, []string{"--pred is required"}},
		{"unknown kind", []string{"eval", "--dataset", "csv:x.csv", "--pred", short}, exitUsage, []string{"csv", "usage: nl2sqlbench eval"}},
		{"missing question file", []string{"eval", "--dataset", "bird:" + filepath.Join(dir, "nope.json"), "--pred", short}, exitError, []string{"nope.json"}},
		{"count mismatch", []string{"eval", "--dataset", ds, "--pred", short, "--out", t.TempDir()}, exitError, []string{"short.txt", "2 lines"}},
		{"malformed prediction JSON", []string{"eval", "--dataset", ds, "--pred", badJSON, "--out", t.TempDir()}, exitError, []string{"bad.json", ":2"}},
		{"missing prediction file", []string{"eval", "--dataset", ds, "--pred", filepath.Join(dir, "gone.txt")}, exitError, []string{"gone.txt"}},
		{"duplicate system name", []string{"eval", "--dataset", ds, "--pred", "a=" + short, "--pred", "a=" + short}, exitUsage, []string{"already used"}},
		{"bad semantics", []string{"eval", "--dataset", ds, "--pred", f.Systems["baseline"], "--semantics", "exact", "--out", t.TempDir()}, exitUsage, []string{"bird or spider"}},
		{"bad flag", []string{"eval", "--frobnicate"}, exitUsage, []string{"frobnicate"}},
		{"resume without out", []string{"eval", "--dataset", ds, "--pred", f.Systems["baseline"], "--resume"}, exitUsage, []string{"--resume needs the --out"}},
		{"resume and force", []string{"eval", "--dataset", ds, "--pred", f.Systems["baseline"], "--resume", "--force", "--out", t.TempDir()}, exitUsage, []string{"--resume", "--force"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkExit(t, tt.args, tt.code, tt.contains...) })
	}
}

// TestEvalJSONStdoutIsOnlyJSON: with --json, stdout holds one JSON document.
func TestEvalJSONStdoutIsOnlyJSON(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	code, stdout, stderr := run("eval", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot,
		"--pred", "b="+f.Systems["baseline"], "--out", t.TempDir(), "--json", "--timeout", testTimeout.String(), "--max-rows", "10000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v map[string]any
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Errorf("stdout holds more than one JSON document")
	}
	if _, ok := v["systems"]; !ok {
		t.Errorf("summary has no systems: %v", v)
	}
	if !strings.Contains(stderr, "skipped") {
		t.Errorf("the skipped-question warning should go to stderr, got %q", stderr)
	}
}

// TestEvalResume: a run cut short (records truncated mid-line, its manifest kept) and
// resumed gives the same records as an uninterrupted run.
func TestEvalResume(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	args := func(out string) []string {
		return []string{"eval", "--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--pred", "r=" + f.Systems["reviser"],
			"--out", out, "--json", "--timeout", testTimeout.String(), "--max-rows", "10000"}
	}
	full := t.TempDir()
	if code, _, stderr := run(args(full)...); code != 0 {
		t.Fatal(stderr)
	}
	want, err := os.ReadFile(filepath.Join(full, "r", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(want, []byte("\n"))
	cut := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cut, "r"), 0o755); err != nil {
		t.Fatal(err)
	}
	partial := append(bytes.Join(lines[:20], nil), lines[20][:len(lines[20])/2]...) // 20 records and a torn line
	if err := os.WriteFile(filepath.Join(cut, "r", "records.jsonl"), partial, 0o644); err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(full, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cut, "manifest.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(append(args(cut), "--resume")...); code != 0 {
		t.Fatal(stderr)
	}
	got, err := os.ReadFile(filepath.Join(cut, "r", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if stripTimes(got) != stripTimes(want) {
		t.Errorf("resumed records differ from an uninterrupted run")
	}
}

// stripTimes removes exec_ms values, which differ between runs.
func stripTimes(b []byte) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			return "invalid: " + err.Error()
		}
		delete(m, "exec_ms")
		s, _ := json.Marshal(m)
		out = append(out, string(s))
	}
	return strings.Join(out, "\n")
}

// checkExit runs the command line args and checks its exit code and that stderr mentions
// each of contains.
func checkExit(t *testing.T, args []string, code int, contains ...string) {
	t.Helper()
	got, _, stderr := run(args...)
	if got != code {
		t.Errorf("exit %d, want %d; stderr: %s", got, code, stderr)
	}
	for _, s := range contains {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr %q does not mention %q", stderr, s)
		}
	}
}
