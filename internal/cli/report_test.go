package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestReportCommand runs `report` on the demo run: the HTML and Markdown files are written
// and their paths printed; without flags the Markdown goes to stdout; a directory that is
// no run is an error.
func TestReportCommand(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	root := t.TempDir()
	runDir := filepath.Join(root, "demo")
	stdout, _ := runCLI(t, "demo", "--cache", filepath.Join(root, "cache"), "--out", runDir)
	demoHTML := filepath.Join(runDir, "report.html")
	if !strings.Contains(stdout, "html report: "+demoHTML) {
		t.Errorf("demo does not print the report's path:\n%s", stdout)
	}
	if fi, err := os.Stat(demoHTML); err != nil || fi.Size() < 50_000 {
		t.Errorf("demo report: %v", err)
	}

	// Result tables come only from the databases named on the command line.
	dbRoots, _ := filepath.Glob(filepath.Join(root, "cache", "*", "databases"))
	if len(dbRoots) != 1 {
		t.Fatalf("demo databases: %v", dbRoots)
	}
	htmlOut, mdOut := filepath.Join(root, "r.html"), filepath.Join(root, "s.md")
	stdout, _ = runCLI(t, "report", runDir, "--html", htmlOut, "--md", mdOut, "--rows", "2", "--db-root", dbRoots[0])
	for _, p := range []string{htmlOut, mdOut} {
		if !strings.Contains(stdout, p) {
			t.Errorf("stdout does not name %s:\n%s", p, stdout)
		}
	}
	html, err := os.ReadFile(htmlOut)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg ", "first 2 of", `id="f-verdict"`, "baseline", "reviser", "sampler-5"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	md, err := os.ReadFile(mdOut)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(md, []byte("## nl2sqlbench")) || !bytes.Contains(md, []byte("| reviser |")) {
		t.Errorf("summary.md:\n%s", md)
	}

	stdout, _ = runCLI(t, "report", runDir)
	if stdout != string(md) {
		t.Error("report without flags does not print the Markdown summary")
	}
	// Issue 45: by default report runs no query, and says which flag gives the tables.
	plain := filepath.Join(root, "plain.html")
	runCLI(t, "report", runDir, "--html", plain)
	if b, err := os.ReadFile(plain); err != nil || bytes.Contains(b, []byte(`class="result"`)) || !bytes.Contains(b, []byte("--db-root DIR")) {
		t.Errorf("report without --db-root: %v; want no result table and a note naming --db-root", err)
	}
	for _, bad := range [][]string{{"--db-root", filepath.Join(root, "nowhere")}, {"--db-root", dbRoots[0], "--no-exec"}} {
		var out, errb bytes.Buffer
		args := append([]string{"report", runDir, "--html", plain}, bad...)
		if code := Run(context.Background(), cmdline(args...), strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--db-root") {
			t.Errorf("report %v: exit %d, stderr %q; want a usage error naming --db-root", bad, code, errb.String())
		}
	}

	var out, errb bytes.Buffer
	if code := Run(context.Background(), cmdline("report", root), strings.NewReader(""), &out, &errb); code != exitError || !strings.Contains(errb.String(), "not a run directory") {
		t.Errorf("report on a non-run directory: exit %d, stderr %q", code, errb.String())
	}
}

// TestServeWarnsOffLoopback: binding to all interfaces prints a warning, loopback does not.
func TestServeWarnsOffLoopback(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {"0.0.0.0:0", true}} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errb testutil.SyncBuffer
		done := make(chan int, 1)
		go func() {
			done <- Run(ctx, cmdline("serve", t.TempDir(), "--addr", tt.addr), strings.NewReader(""), &out, &errb)
		}()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), "http://") && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		<-done
		if got := strings.Contains(errb.String(), "warning"); got != tt.warn {
			t.Errorf("--addr %s: warning printed = %v, want %v (stderr %q)", tt.addr, got, tt.warn, errb.String())
		}
		if !strings.Contains(out.String(), "http://") {
			t.Errorf("--addr %s: no address printed: %q", tt.addr, out.String())
		}
	}
}
