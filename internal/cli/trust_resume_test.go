package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// cutRun runs eval on the hostile fixture with extra flags into a fresh directory and
// cuts its last record off, so that `eval --resume` has a question left to judge.
func cutRun(t *testing.T, fx *hostileFixture, extra ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	args := append([]string{"eval", "--dataset", "jsonl:" + fx.questions, "--db-root", fx.dbRoot, "--pred", "p=" + fx.pred,
		"--out", out, "--json", "--timeout", "5s", "--workers", "1"}, extra...)
	if code, _, stderr := run(args...); code != exitOK {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	recs := filepath.Join(out, "p", "records.jsonl")
	b, err := os.ReadFile(recs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if err := os.WriteFile(recs, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	// An interrupted run has no summary.json (its last write): without it the hashes a
	// finished run records are not checked, as for any run that did not finish.
	if err := os.Remove(filepath.Join(out, "summary.json")); err != nil {
		t.Fatal(err)
	}
	return out
}

// editArgs rewrites out/args.json through edit.
func editArgs(t *testing.T, out string, edit func([]string) []string) {
	t.Helper()
	path := filepath.Join(out, argsFile)
	var a rundir.Args
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &a)
	}
	if err != nil {
		t.Fatal(err)
	}
	a.Args = edit(a.Args)
	if b, err = json.Marshal(a); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// markerLibrary builds a shared library that creates marker when it is loaded, as a
// hostile libduckdb.so would run its code.
func markerLibrary(t *testing.T, dir, marker string) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler to build the hostile library")
	}
	src := filepath.Join(t.TempDir(), "x.c")
	code := fmt.Sprintf("#include <stdio.h>\n__attribute__((constructor)) static void f(void) { FILE *f = fopen(%q, \"w\"); if (f) fclose(f); }\n", marker)
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "x.so")
	if out, err := exec.CommandContext(t.Context(), cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Skipf("cannot build the hostile library: %v: %s", err, out)
	}
	return lib
}

// TestResumeLoadsNoLibraryFromRunDir: args.json adding --engine=duckdb
// --duckdb-lib=DIR/x.so must not run the library's code: resume does not take those
// settings, and when the user gives them, nothing is loaded before the manifest matched.
func TestResumeLoadsNoLibraryFromRunDir(t *testing.T) {
	t.Parallel()
	fx := newHostileFixture(t)
	out := cutRun(t, fx)
	marker := filepath.Join(t.TempDir(), "library-ran")
	lib := markerLibrary(t, out, marker)
	editArgs(t, out, func(a []string) []string { return append(a, "--engine=duckdb", "--duckdb-lib="+lib) })

	code, _, stderr := run("eval", "--resume", "--out", out)
	if code == exitOK || !strings.Contains(stderr, "--duckdb-lib") || !strings.Contains(stderr, rundir.ErrUntrustedArgs.Error()) {
		t.Errorf("resume with a library in args.json: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the run directory's library was loaded")
	}
	// Given on the command line, the library is still not loaded while the manifest
	// (a SQLite run) does not match.
	code, _, stderr = run("eval", "--resume", "--out", out, "--engine", "duckdb", "--duckdb-lib", lib)
	if code == exitOK || !strings.Contains(stderr, "engine") {
		t.Errorf("resume with another engine: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a library was loaded before the manifest comparison passed")
	}
}

// secretSink is a Couchbase query service that answers every statement and records
// the passwords it was sent.
type secretSink struct {
	mu        sync.Mutex
	passwords []string
}

func (s *secretSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, p, _ := r.BasicAuth()
	s.mu.Lock()
	s.passwords = append(s.passwords, p)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"requestID":"x","results":[{"n":1}],"errors":[],"status":"success"}`)
}

func (s *secretSink) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.passwords...)
}

// TestResumeSendsNoSecretFromRunDir: a run directory whose args.json (and manifest)
// name an SQL++ endpoint and OPENAI_API_KEY as the password variable must not have
// resume send that secret anywhere.
func TestResumeSendsNoSecretFromRunDir(t *testing.T) {
	const secret = "sk-test-secret-never-sent"
	t.Setenv("OPENAI_API_KEY", secret)
	sink := &secretSink{}
	srv := httptest.NewServer(sink)
	defer srv.Close()
	fx := newHostileFixture(t)
	// The attacker's run: made against their own endpoint, so its manifest matches.
	out := cutRun(t, fx, "--engine", "sqlpp", "--sqlpp-endpoint", srv.URL, "--sqlpp-user", "u", "--sqlpp-password-env", "OPENAI_API_KEY")
	before := len(sink.sent())
	if before == 0 {
		t.Fatal("the fixture run sent nothing to the endpoint")
	}
	code, _, stderr := run("eval", "--resume", "--out", out)
	if code == exitOK || !strings.Contains(stderr, "--sqlpp-endpoint") || !strings.Contains(stderr, "--sqlpp-password-env") {
		t.Errorf("resume: exit %d, stderr %q", code, stderr)
	}
	if got := sink.sent(); len(got) != before {
		t.Errorf("resume sent %d requests to the run directory's endpoint", len(got)-before)
	}
	// The user restating them resumes, and is told args.json's were not used.
	code, _, stderr = run("eval", "--resume", "--out", out, "--json", "--engine", "sqlpp", "--sqlpp-endpoint", srv.URL,
		"--sqlpp-user", "u", "--sqlpp-password-env", "OPENAI_API_KEY")
	if code != exitOK || !strings.Contains(stderr, "never used") {
		t.Errorf("resume with the settings restated: exit %d, stderr %q", code, stderr)
	}
}

// TestResumeHostileArgs: args.json is the run directory's word; each of these must be
// refused (or ignored) without hanging, reading outside the run or writing elsewhere.
func TestResumeHostileArgs(t *testing.T) {
	t.Parallel()
	fx := newHostileFixture(t)
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	victimRecords := filepath.Join(t.TempDir(), "victim.jsonl") // a file outside the run
	add := func(extra ...string) func(*testing.T, string) {
		return func(t *testing.T, out string) {
			editArgs(t, out, func(a []string) []string { return append(a, extra...) })
		}
	}
	replaceArgs := func(t *testing.T, out string, with func(path string) error) {
		path := filepath.Join(out, argsFile)
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := with(path); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		setup func(*testing.T, string)
		code  int
		want  string
	}{
		{"postgres with the user's DSN", add("--engine=postgres", "--dsn-env=NL2SQLBENCH_PG_DSN"), exitUsage, "--engine, --dsn-env"},
		{"pricing file", add("--pricing=/etc/passwd"), exitUsage, "--pricing"},
		{"task code", add("--task-code=python"), exitUsage, "--task-code"},
		{"sqlpp bucket", add("--engine=sqlpp", "--sqlpp-endpoint=http://127.0.0.1:9", "--sqlpp-bucket=b"), exitUsage, "--sqlpp-bucket"},
		{"out elsewhere", add("--out=" + elsewhere), exitOK, ""},
		{"force", add("--force=true"), exitOK, ""},
		{"pred is a FIFO", add("--pred=p=" + fifo), 1, "not a file or a folder"},
		{"not a flag", add("positional"), 1, "not a --flag=value"},
		{"args.json is a FIFO", func(t *testing.T, out string) {
			replaceArgs(t, out, func(p string) error { return syscall.Mkfifo(p, 0o644) })
		}, 1, "not a regular file"},
		{"args.json links out", func(t *testing.T, out string) {
			other := filepath.Join(t.TempDir(), "args.json")
			if err := os.WriteFile(other, []byte(`{"command":"eval","args":[]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			replaceArgs(t, out, func(p string) error { return os.Symlink(other, p) })
		}, 1, "leaves the run directory"},
		{"manifest links out", func(t *testing.T, out string) {
			other := filepath.Join(t.TempDir(), "manifest.json")
			b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
			if err == nil {
				err = os.WriteFile(other, b, 0o644)
			}
			if err == nil {
				err = os.Remove(filepath.Join(out, "manifest.json"))
			}
			if err == nil {
				err = os.Symlink(other, filepath.Join(out, "manifest.json"))
			}
			if err != nil {
				t.Fatal(err)
			}
		}, 1, "leaves the run directory"},
		{"records link out", func(t *testing.T, out string) {
			recs := filepath.Join(out, "p", "records.jsonl")
			if err := os.Rename(recs, victimRecords); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(victimRecords, recs); err != nil {
				t.Fatal(err)
			}
		}, 1, "leaves the run directory"},
		{"args.json is huge", func(t *testing.T, out string) {
			replaceArgs(t, out, func(p string) error {
				return os.WriteFile(p, []byte(`{"command":"eval","args":["`+strings.Repeat("x", 2<<20)+`"]}`), 0o644)
			})
		}, 1, "size cap"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := cutRun(t, fx)
			c.setup(t, out)
			code, _, stderr := run("eval", "--resume", "--out", out, "--json")
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, c.code, stderr, c.want)
			}
			if _, err := os.Stat(elsewhere); err == nil {
				t.Errorf("%s was written", elsewhere)
			}
			if b, err := os.ReadFile(victimRecords); err == nil && strings.Count(string(b), "\n") != 1 {
				t.Errorf("%s, outside the run, was appended to", victimRecords)
			}
		})
	}
}

// TestRerunHintRestatesUntrusted: the command printed to continue an interrupted run
// gives again what resume does not take from args.json (this run's own values), so it
// works as printed.
func TestRerunHintRestatesUntrusted(t *testing.T) {
	t.Parallel()
	o := runOutput{Args: []string{"--dataset=jsonl:/d/q.jsonl", "--engine=postgres", "--dsn-env=MY_DSN", "--timeout=5s", "--pricing=/p/my prices.yaml"}}
	got := rerunHint(o, "/runs/x")
	want := "nl2sqlbench eval --resume --out /runs/x --engine postgres --dsn-env MY_DSN --pricing '/p/my prices.yaml'"
	if got != want {
		t.Errorf("hint %q, want %q", got, want)
	}
	if got := rerunHint(runOutput{Args: []string{"--engine=sqlite"}}, "/runs/x"); got != "nl2sqlbench eval --resume --out /runs/x" {
		t.Errorf("sqlite hint %q", got)
	}
}
