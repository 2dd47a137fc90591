package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestSystemDirEndToEnd: a system whose name is no safe directory name ("GPT 4 (x)") is
// written by eval to GPT_4_x_/, summary.json records that directory, and report and serve
// read its records from there; a summary written before the field existed falls back to
// the same mapping.
func TestSystemDirEndToEnd(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	out := t.TempDir()
	const name = "GPT 4 (x)"
	if code, _, stderr := run("eval", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot, "--pred", name+"="+f.Systems["reviser"],
		"--out", out, "--json", "--timeout", "5s", "--max-rows", "10000"); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "GPT_4_x_", "records.jsonl")); err != nil {
		t.Fatalf("eval did not write GPT_4_x_/records.jsonl: %v", err)
	}
	sumPath := filepath.Join(out, "summary.json")
	var sum map[string]any
	readJSON(t, sumPath, &sum)
	sys := sum["systems"].([]any)[0].(map[string]any)
	if sys["system"] != name || sys["dir"] != "GPT_4_x_" {
		t.Fatalf("summary.json system %v, dir %v; want %q in GPT_4_x_", sys["system"], sys["dir"], name)
	}

	check := func(t *testing.T) {
		t.Helper()
		code, md, stderr := run("report", out)
		if code != 0 || strings.Contains(stderr, "warning") {
			t.Fatalf("report: exit %d, stderr %q", code, stderr)
		}
		if !strings.Contains(md, "| "+name+" |") {
			t.Errorf("the Markdown summary does not list %q:\n%s", name, md)
		}
		srv := report.NewServer(out, report.ExecOptions{})
		defer srv.Close()
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		runs, _ := srv.Runs()
		if len(runs) != 1 {
			t.Fatalf("serve finds %d runs, want 1", len(runs))
		}
		resp, err := http.Get(ts.URL + runs[0].URL)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "GPT 4 (x)") {
			t.Errorf("the dashboard's run page %s: %s, without %q", runs[0].URL, resp.Status, name)
		}
		r, err := rundir.Load(context.Background(), out)
		if err != nil || len(r.Systems) != 1 || len(r.Systems[0].Records) == 0 || len(r.Warnings) > 0 {
			t.Errorf("serve's LoadRun: err %v, warnings %q", err, r.Warnings)
		}
	}
	t.Run("summary with dir", check)

	// An old summary.json: no dir field.
	delete(sys, "dir")
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sumPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("old summary without dir", check)
}
