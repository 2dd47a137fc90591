package report

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// secretMarker is in a file outside the run directory that the hostile runs below point
// at; no page may show it.
const secretMarker = "SECRET-OUTSIDE-THE-RUN"

// hostilePathRun writes, under a fresh root, a run whose one record's counterexample
// path is cePath, and a secret file beside the run (root/outside/secret.sql).
func hostilePathRun(tb testing.TB, cePath string) (root, dir, secret string) {
	tb.Helper()
	root = tb.TempDir()
	secret = filepath.Join(root, "outside", "secret.sql")
	if err := os.MkdirAll(filepath.Dir(secret), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(secret, []byte("-- "+secretMarker+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	dir = filepath.Join(root, "run")
	writeRun(tb, dir, "", sys{"solo", []map[string]any{rec(0, "simple", "correct", "SELECT 1", "SELECT 1",
		"counterexample", map[string]any{"path": cePath, "rows": 1})}})
	return root, dir, secret
}

// TestCounterexamplePathStaysInRun: a record's counterexample.path naming a file outside
// its run (climbing out, absolute, or through a symlink) is not embedded in the HTML report
// nor shown by the dashboard; the page says why instead.
func TestCounterexamplePathStaysInRun(t *testing.T) {
	for _, c := range []struct{ name, path string }{
		{"climbs out", "../outside/secret.sql"},
		{"climbs far", "../../../../../../../../../etc/passwd"},
		{"absolute", "ABS"},
		{"symlink", "solo/counterexamples/q0.sql"},
		{"symlinked dir", "solo/counterexamples/q0.sql"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, dir, secret := hostilePathRun(t, c.path)
			switch c.name {
			case "absolute":
				_, dir, secret = hostilePathRun(t, "")
				writeRun(t, dir, "", sys{"solo", []map[string]any{rec(0, "simple", "correct", "SELECT 1", "SELECT 1",
					"counterexample", map[string]any{"path": secret, "rows": 1})}})
				root = filepath.Dir(dir)
			case "symlink":
				ce := filepath.Join(dir, "solo", "counterexamples")
				if err := os.MkdirAll(ce, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(secret, filepath.Join(ce, "q0.sql")); err != nil {
					t.Fatal(err)
				}
			case "symlinked dir":
				if err := os.Symlink(filepath.Dir(secret), filepath.Join(dir, "solo", "counterexamples")); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(secret, filepath.Join(filepath.Dir(secret), "q0.sql")); err != nil {
					t.Fatal(err)
				}
			}
			run, err := rundir.Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			var page bytes.Buffer
			if err := WriteHTML(context.Background(), &page, run, HTMLOptions{NoExec: true}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(page.String(), secretMarker) || strings.Contains(page.String(), "root:x:") {
				t.Error("report --html embeds a file from outside the run")
			}
			srv := NewServer(root, ExecOptions{Rows: 3})
			defer srv.Close()
			ts := httptest.NewServer(srv.Handler())
			defer ts.Close()
			code, body := get(t, ts.URL+"/run/run/q/0")
			if code != 200 || strings.Contains(body, secretMarker) || strings.Contains(body, "root:x:") {
				t.Errorf("dashboard: %d, shows a file from outside the run: %v", code, strings.Contains(body, secretMarker))
			}
			if !strings.Contains(body, "leaves the run directory") {
				t.Errorf("dashboard does not say why the script is not shown")
			}
		})
	}
}

// TestLoadRunRefusesRecordsOutside: a system's folder or records.jsonl that is a symlink
// out of the run would show another file as this run's records: LoadRun refuses the run.
func TestLoadRunRefusesRecordsOutside(t *testing.T) {
	for _, what := range []string{"records", "system dir", "summary"} {
		t.Run(what, func(t *testing.T) {
			root := t.TempDir()
			other := filepath.Join(root, "other")
			writeRun(t, other, "", sys{"solo", []map[string]any{rec(0, "simple", "correct", "SELECT 1", "SELECT 1")}})
			dir := filepath.Join(root, "run")
			writeRun(t, dir, "", sys{"solo", []map[string]any{rec(0, "simple", "error", "SELECT 1", "SELECT 2")}})
			var from, to string
			switch what {
			case "records":
				from, to = filepath.Join(dir, "solo", "records.jsonl"), filepath.Join(other, "solo", "records.jsonl")
			case "system dir":
				from, to = filepath.Join(dir, "solo"), filepath.Join(other, "solo")
			case "summary":
				from, to = filepath.Join(dir, "summary.json"), filepath.Join(other, "summary.json")
			}
			if err := os.RemoveAll(from); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(to, from); err != nil {
				t.Fatal(err)
			}
			if _, err := rundir.Load(context.Background(), dir); !errors.Is(err, rundir.ErrOutside) {
				t.Errorf("LoadRun: %v, want %v", err, rundir.ErrOutside)
			}
		})
	}
}

// TestRunFilesLinkedOut: an audit, reviewed or reviews file that is a symlink out of the
// run is not read (a warning says why), and the dashboard never appends a review
// through it.
func TestRunFilesLinkedOut(t *testing.T) {
	_, dir, secret := hostilePathRun(t, "solo/counterexamples/q0.sql")
	for _, f := range []string{rundir.AuditFile, rundir.ReviewedFile, rundir.ReviewsFile} {
		if err := os.Symlink(secret, filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(secret)
	run, err := rundir.Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if run.Audited || run.Reviewed != nil {
		t.Errorf("audit or reviewed read through a link out of the run")
	}
	if w := strings.Join(run.Warnings, "\n"); strings.Count(w, "leaves the run directory") != 2 {
		t.Errorf("warnings do not say why: %q", w)
	}
	if _, err := reviewsPath(dir); !errors.Is(err, rundir.ErrOutside) {
		t.Errorf("reviewsPath: %v, want %v", err, rundir.ErrOutside)
	}
	if reviewsPending(dir, nil) {
		t.Error("reviews pending read through a link out of the run")
	}
	if after, _ := os.ReadFile(secret); string(after) != string(before) {
		t.Error("the file outside the run changed")
	}
}

// TestLoadRunRefusesFIFO: a records.jsonl, summary.json or audit.jsonl that is a FIFO
// would block report and the dashboard forever; it is refused (or left out) at once.
func TestLoadRunRefusesFIFO(t *testing.T) {
	for _, f := range []string{"solo/records.jsonl", "summary.json", rundir.AuditFile} {
		t.Run(f, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			writeRun(t, dir, "", sys{"solo", []map[string]any{rec(0, "simple", "correct", "SELECT 1", "SELECT 1")}})
			p := filepath.Join(dir, filepath.FromSlash(f))
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			done := make(chan error, 1)
			var run *rundir.Run
			go func() {
				var err error
				run, err = rundir.Load(context.Background(), dir)
				done <- err
			}()
			select {
			case err := <-done:
				if f == rundir.AuditFile {
					if err != nil {
						t.Fatalf("LoadRun: %v", err)
					}
					if run.Audited || !strings.Contains(strings.Join(run.Warnings, "\n"), "not a regular file") {
						t.Errorf("audited %v, warnings %q", run.Audited, run.Warnings)
					}
				} else if !errors.Is(err, rundir.ErrNotRegular) {
					t.Errorf("LoadRun: %v, want %v", err, rundir.ErrNotRegular)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("LoadRun blocked on a FIFO")
			}
		})
	}
}
