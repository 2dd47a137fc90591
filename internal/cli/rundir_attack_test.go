package cli

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Attacks on a finished run directory (issue 27): each edits a sealed run as someone
// who received it could, and every command that reads it must notice. report and the
// dashboard show the banner; compare, rescore and eval --resume refuse, naming the file.

var (
	sealedOnce sync.Once
	sealedRoot string // holds the demo files and the pristine run; removed by TestMain
	sealedDir  string // a pristine run of two demo systems, a and b; copied by each case
	sealedErr  string
)

// sealedRun returns a fresh copy of a finished two-system demo run, and the demo files.
func sealedRun(t *testing.T) string {
	t.Helper()
	sealedOnce.Do(func() {
		root, err := os.MkdirTemp("", "nl2sqlbench-sealed-")
		if err != nil {
			sealedErr = err.Error()
			return
		}
		sealedRoot = root
		// The demo files live as long as the run that names them, not one test's TempDir.
		df, err := demo.Materialize(context.Background(), filepath.Join(root, "demo"))
		if err != nil {
			sealedErr = err.Error()
			return
		}
		sealedDir = filepath.Join(root, "run")
		code, _, stderr := run("eval", "--dataset", "jsonl:"+df.Questions, "--db-root", df.DBRoot,
			"--pred", "a="+df.Systems["baseline"], "--pred", "b="+df.Systems["reviser"], "--out", sealedDir, "--json", "--timeout", testTimeout.String())
		if code != 0 {
			sealedErr = stderr
		}
	})
	if sealedErr != "" {
		t.Fatalf("sealed run: %s", sealedErr)
	}
	dst := filepath.Join(t.TempDir(), "run")
	copyTree(t, sealedDir, dst)
	return dst
}

// copyTree copies the regular files under src to dst.
func copyTree(tb testing.TB, src, dst string) {
	tb.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		copyFile(tb, p, filepath.Join(dst, rel))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// editFile rewrites path with edit applied to its contents.
func editFile(tb testing.TB, path string, edit func(string) string) {
	tb.Helper()
	b := readFile(tb, path)
	out := edit(string(b))
	if out == string(b) {
		tb.Fatalf("edit of %s changed nothing", path)
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// editJSON decodes path into a generic map, applies edit and writes it back.
func editJSON(tb testing.TB, path string, edit func(map[string]any)) {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(readFile(tb, path), &m); err != nil {
		tb.Fatal(err)
	}
	edit(m)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// flipVerdicts turns up to n incorrect verdicts of a records file into correct ones.
func flipVerdicts(tb testing.TB, path string, n int) {
	tb.Helper()
	editFile(tb, path, func(s string) string { return strings.Replace(s, `"verdict":"incorrect"`, `"verdict":"correct"`, n) })
}

// dashboard returns the body of the dashboard's page at url over root.
func dashboard(tb testing.TB, root, url string) (int, string) {
	tb.Helper()
	srv := report.NewServer(root, report.ExecOptions{})
	defer srv.Close()
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

const changedBanner = "changed after it was written"

func TestRunDirTampered(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	cases := []struct {
		name   string
		attack func(t *testing.T, dir string)
		names  string // the file the refusal names
	}{
		{"summary ex text 99.99", func(t *testing.T, dir string) {
			editFile(t, filepath.Join(dir, "summary.json"), func(s string) string {
				return strings.Replace(s, `"text": "`, `"text": "99.99", "was": "`, 1)
			})
		}, "summary.json"},
		{"flipped verdicts", func(t *testing.T, dir string) { flipVerdicts(t, filepath.Join(dir, "b", "records.jsonl"), 5) }, "b/records.jsonl"},
		{"records of another system swapped in", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(dir, "a", "records.jsonl"), filepath.Join(dir, "b", "records.jsonl"))
		}, "b/records.jsonl"},
		{"records deleted", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "b", "records.jsonl")) }, "b/records.jsonl"},
		{"records cut short", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "a", "records.jsonl")
			b := readFile(t, p)
			os.WriteFile(p, b[:len(b)-40], 0o644)
		}, "a/records.jsonl"},
		{"statistics edited", func(t *testing.T, dir string) {
			editFile(t, filepath.Join(dir, "a", "statistics.json"), func(s string) string { return strings.Replace(s, `"correct": `, `"correct": 1`, 1) })
		}, "a/statistics.json"},
		{"manifest setting edited", func(t *testing.T, dir string) {
			editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) { m["settings"].(map[string]any)["semantics"] = "spider" })
		}, "manifest.json"},
		{"summary hash removed from manifest", func(t *testing.T, dir string) {
			editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) { delete(m, "summary_sha256") })
		}, "summary.json"},
		{"file hash removed from manifest", func(t *testing.T, dir string) {
			editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) { delete(m["files"].(map[string]any), "b/records.jsonl") })
		}, "b/records.jsonl"},
		{"file hashes removed from summary", func(t *testing.T, dir string) {
			editJSON(t, filepath.Join(dir, "summary.json"), func(m map[string]any) { delete(m, "files") })
		}, "summary.json"},
		{"manifest deleted", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "manifest.json")) }, "manifest.json"},
		{"audit added by hand", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "audit.jsonl"), []byte(`{"index":0,"check":"order_by","target":"gold"}`+"\n"), 0o644)
		}, "audit.jsonl"},
		{"hash of a file outside the run", func(t *testing.T, dir string) {
			editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) { m["files"].(map[string]any)["../../etc/passwd"] = "00" })
		}, "outside the run directory"},
	}
	other := sealedRun(t) // a second, untouched run: compare's baseline
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := sealedRun(t)
			c.attack(t, dir)
			run, err := rundir.Load(t.Context(), dir)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if run.Integrity.State != rundir.Changed || !strings.Contains(run.Integrity.Banner(), c.names) {
				t.Fatalf("integrity %v %q, want changed naming %s", run.Integrity.State, run.Integrity.Problems, c.names)
			}
			// report: the banner on the terminal and in the Markdown and the HTML.
			code, stdout, stderr := run2("report", dir)
			if code != 0 || !strings.Contains(stdout, changedBanner) || !strings.Contains(stderr, "WARNING: This run was "+changedBanner) {
				t.Errorf("report: exit %d, no banner:\nstdout %.300s\nstderr %.300s", code, stdout, stderr)
			}
			html := filepath.Join(t.TempDir(), "r.html")
			if code, _, stderr := run2("report", dir, "--no-exec", "--html", html); code != 0 || !strings.Contains(string(readFile(t, html)), `class="banner"`) {
				t.Errorf("report --html: exit %d %s, no banner", code, stderr)
			}
			// the dashboard: on the run's page and in the list of runs.
			if code, body := dashboard(t, dir, "/run/run/"); code != 200 || !strings.Contains(body, changedBanner) {
				t.Errorf("dashboard run page: %d, no banner", code)
			}
			// compare, rescore, agreement, audit, resume: refused, naming the file
			// (audit --run read the changed records and resealed the run).
			for _, args := range [][]string{
				{"compare", other, dir, "--system", "a"},
				{"compare", dir, other, "--system", "a"},
				{"rescore", dir},
				{"agreement", dir},
				{"audit", "--run", dir},
				{"eval", "--resume", "--out", dir},
			} {
				code, _, stderr := run2(args...)
				if code == 0 || !strings.Contains(stderr, changedBanner) || !strings.Contains(stderr, c.names) {
					t.Errorf("%s: exit %d, want a refusal naming %s: %s", args[0], code, c.names, stderr)
				}
			}
		})
	}
}

// run2 is run with args as a slice.
func run2(args ...string) (int, string, string) { return run(args...) }

// TestRunDirIntact: an untouched run reads as intact, and a later rescore or audit of it
// records its new file, so the run still reads as written.
func TestRunDirIntact(t *testing.T) {
	t.Parallel()
	dir := sealedRun(t)
	r, err := rundir.Load(t.Context(), dir)
	if err != nil || r.Integrity.State != rundir.Intact {
		t.Fatalf("load: %v, integrity %v %q", err, r.Integrity.State, r.Integrity.Problems)
	}
	os.WriteFile(filepath.Join(dir, "reviews.jsonl"), []byte(`{"index": 0, "system": "a", "decision": "accept"}`+"\n"), 0o644)
	if code, _, stderr := run("rescore", dir); code != 0 {
		t.Fatalf("rescore: %d %s", code, stderr)
	}
	if r, _ := rundir.Load(t.Context(), dir); r.Integrity.State != rundir.Intact {
		t.Errorf("after rescore: %v %q", r.Integrity.State, r.Integrity.Problems)
	}
	editFile(t, filepath.Join(dir, "reviewed.json"), func(s string) string { return strings.Replace(s, `"text": "`, `"text": "9`, 1) })
	if r, _ := rundir.Load(t.Context(), dir); r.Integrity.State != rundir.Changed || !strings.Contains(r.Integrity.Banner(), "reviewed.json") {
		t.Errorf("reviewed.json edited: %v %q", r.Integrity.State, r.Integrity.Problems)
	}
}

// TestMergeFlippedShard: 60 flipped verdicts in one shard (the attack) make merge
// refuse, naming the shard and its records file, instead of merging a false EX.
func TestMergeFlippedShard(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	tmp := t.TempDir()
	var shards []string
	for i, s := range []string{"0/2", "1/2"} {
		out := filepath.Join(tmp, "s"+string(rune('0'+i)))
		runCLI(t, "eval", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot, "--pred", "b="+f.Systems["baseline"], "--shard", s, "--out", out, "--json")
		shards = append(shards, out)
	}
	flipVerdicts(t, filepath.Join(shards[1], "b", "records.jsonl"), 60)
	code, _, stderr := run("merge", shards[0], shards[1], "--out", filepath.Join(tmp, "merged"))
	if code == 0 || !strings.Contains(stderr, changedBanner) || !strings.Contains(stderr, "b/records.jsonl") || !strings.Contains(stderr, shards[1]) {
		t.Fatalf("merge of a tampered shard: exit %d: %s", code, stderr)
	}
}

// TestRunDirHugeFiles: a sparse 20 GB summary.json, or records.jsonl, is refused by its
// size without being read, with an error naming the file and the cap; the dashboard
// keeps serving the other runs and shows that run's error.
func TestRunDirHugeFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	good := filepath.Join(root, "good")
	copyTree(t, sealedRun(t), good)
	for _, name := range []string{"summary.json", "a/records.jsonl"} {
		t.Run(name, func(t *testing.T) {
			bad := filepath.Join(root, "huge-"+strings.ReplaceAll(name, "/", "-"))
			copyTree(t, good, bad)
			if err := os.Truncate(filepath.Join(bad, name), 20<<30); err != nil {
				t.Skipf("no sparse files here: %v", err)
			}
			_, err := rundir.Load(t.Context(), bad)
			if err == nil || !strings.Contains(err.Error(), name[strings.LastIndex(name, "/")+1:]) || !strings.Contains(err.Error(), "the cap is") {
				t.Fatalf("load: %v, want a size-cap error naming %s", err, name)
			}
			code, body := dashboard(t, root, "/")
			if code != 200 || !strings.Contains(body, "cannot be shown") || !strings.Contains(body, `href="/run/good/"`) {
				t.Errorf("index %d: want the huge run's error beside the good run:\n%.2000s", code, body)
			}
			if code, body := dashboard(t, root, "/run/good/"); code != 200 || strings.Contains(body, changedBanner) {
				t.Errorf("good run page: %d", code)
			}
			os.RemoveAll(bad)
		})
	}
}

// TestRunDirBrokenFiles: a summary.json that is not JSON, and a records file with a bad
// line, each fail alone: the error names the file and line, the other runs are served.
func TestRunDirBrokenFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	copyTree(t, sealedRun(t), filepath.Join(root, "good"))
	broken := filepath.Join(root, "broken")
	copyTree(t, filepath.Join(root, "good"), broken)
	p := filepath.Join(broken, "a", "records.jsonl")
	b := readFile(t, p)
	os.WriteFile(p, append([]byte("{not json\n"), b...), 0o644)
	_, err := rundir.Load(t.Context(), broken)
	if err == nil || !strings.Contains(err.Error(), "a/records.jsonl") || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("load: %v", err)
	}
	bad := filepath.Join(root, "badjson")
	copyTree(t, filepath.Join(root, "good"), bad)
	os.WriteFile(filepath.Join(bad, "summary.json"), []byte("{\n  \"tool\": \"nl2sqlbench\",\n  \"systems\": [\n"), 0o644)
	if _, err := rundir.Load(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "summary.json") || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("load: %v", err)
	}
	code, body := dashboard(t, root, "/")
	if code != 200 || strings.Count(body, "cannot be shown") != 2 || !strings.Contains(body, `href="/run/good/"`) {
		t.Errorf("index %d:\n%.3000s", code, body)
	}
}

// TestOldRunDirOpens: a run directory written by nl2sqlbench before schema versions and
// hashes (testdata/oldrun, from the build before issue 27) opens in report, the
// dashboard and compare, with a note that its integrity cannot be checked.
func TestOldRunDirOpens(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "oldrun")
	copyTree(t, filepath.Join("testdata", "oldrun"), dir)
	r, err := rundir.Load(t.Context(), dir)
	if err != nil || r.Integrity.State != rundir.Unchecked {
		t.Fatalf("load: %v, integrity %v", err, r.Integrity.State)
	}
	code, stdout, stderr := run("report", dir)
	if code != 0 || !strings.Contains(stdout, "integrity cannot be checked") || !strings.Contains(stdout, "| baseline") {
		t.Errorf("report: %d\n%s\n%s", code, stdout, stderr)
	}
	if code, body := dashboard(t, dir, "/run/oldrun/"); code != 200 || !strings.Contains(body, "integrity cannot be checked") {
		t.Errorf("dashboard: %d", code)
	}
	other := filepath.Join(t.TempDir(), "oldrun2")
	copyTree(t, dir, other)
	code, stdout, stderr = run("compare", dir, other, "--system", "baseline")
	if code != 0 || !strings.Contains(stderr, "integrity cannot be checked") || !strings.Contains(stdout, "baseline") {
		t.Errorf("compare: %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestEvalOutLocked: while a writer holds --out (here this process, as a running eval
// would), a second eval, --resume, --force or merge into it is refused naming the holder,
// and the run in it is untouched; once released, --force replaces it.
func TestEvalOutLocked(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	f := demoFiles(t)
	out := sealedRun(t)
	before := readFile(t, filepath.Join(out, "summary.json"))
	l, err := rundir.AcquireLock(out, "eval")
	if err != nil {
		t.Fatal(err)
	}
	args := integrityArgs(f, f.Systems["baseline"], out)
	for _, extra := range [][]string{nil, {"--force"}, {"--resume"}} {
		code, _, stderr := run(append(append([]string{}, args...), extra...)...)
		if code == 0 || !strings.Contains(stderr, "another nl2sqlbench is writing") || !strings.Contains(stderr, "pid ") {
			t.Errorf("eval %v while locked: exit %d: %s", extra, code, stderr)
		}
	}
	if code, _, stderr := run("merge", out, "--out", out); code == 0 || !strings.Contains(stderr, "another nl2sqlbench is writing") {
		t.Errorf("merge into a locked --out: exit %d: %s", code, stderr)
	}
	if string(readFile(t, filepath.Join(out, "summary.json"))) != string(before) {
		t.Errorf("a refused writer changed summary.json")
	}
	l.Release()
	if code, _, stderr := run(append(args, "--force")...); code != 0 {
		t.Fatalf("--force after release: exit %d: %s", code, stderr)
	}
	if r, err := rundir.Load(t.Context(), out); err != nil || r.Integrity.State != rundir.Intact {
		t.Errorf("replaced run: %v %v", err, r.Integrity.Problems)
	}
}
