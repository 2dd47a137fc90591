package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestResumeFromRunDirectory: a run interrupted by a cancel (Ctrl-C) prints a command
// that continues it; that command is `eval --resume --out DIR` alone, it works from
// another working directory, and the records it completes equal an uninterrupted run's.
func TestResumeFromRunDirectory(t *testing.T) {
	f := demoFiles(t)
	args := func(out string) []string {
		return []string{"eval", "--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--pred", "r=" + f.Systems["reviser"],
			"--out", out, "--timeout", testTimeout.String(), "--max-rows", "10000", "--workers", "1"}
	}
	full := filepath.Join(t.TempDir(), "full")
	if code, _, stderr := run(args(full)...); code != exitOK {
		t.Fatal(stderr)
	}
	want := readFile(t, filepath.Join(full, "r", "records.jsonl"))

	// Interrupt a second run once it has written a few records.
	out := filepath.Join(t.TempDir(), "cut")
	recs := filepath.Join(out, "r", "records.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if b, err := os.ReadFile(recs); err == nil && bytes.Count(b, []byte("\n")) >= 5 {
				cancel()
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var stdout, stderr bytes.Buffer
	code := Run(ctx, cmdline(args(out)...), strings.NewReader(""), &stdout, &stderr)
	if code != exitInterrupted {
		t.Fatalf("interrupted run: exit %d, want %d (it may have finished before the cancel); stderr:\n%s", code, exitInterrupted, stderr.String())
	}
	if n := bytes.Count(readFile(t, recs), []byte("\n")); n >= bytes.Count(want, []byte("\n")) {
		t.Fatalf("the interrupted run wrote all %d records", n)
	}
	hint := regexp.MustCompile(`(?m)^nl2sqlbench: interrupted at \d+ of \d+ records .*; resume with: nl2sqlbench (eval --resume --out \S+)`).FindStringSubmatch(stderr.String())
	if hint == nil {
		t.Fatalf("no command to continue in:\n%s", stderr.String())
	}
	t.Logf("hint: %s", hint[0])

	t.Chdir(t.TempDir()) // the hint works from anywhere
	again := strings.Fields(hint[1])
	code, resumedOut, errOut := run(again...)
	if code != exitOK {
		t.Fatalf("%s: exit %d\n%s", hint[1], code, errOut)
	}
	if got, w := stripTimes(readFile(t, recs)), stripTimes(want); got != w {
		gl, wl := strings.Split(got, "\n"), strings.Split(w, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("record %d differs:\n got %s\nwant %s", i, gl[i], wl[i])
				break
			}
		}
		t.Errorf("records after `%s` differ from an uninterrupted run (%d records, want %d)", hint[1], len(gl), len(wl))
	}
	if !strings.Contains(resumedOut, "EX by difficulty") {
		t.Errorf("the resumed run printed no scores:\n%s", resumedOut)
	}

	// Arguments given with --resume are still checked against the manifest.
	other := append(args(out), "--resume", "--semantics", "spider")
	if code, _, errOut := run(other...); code == exitOK || !strings.Contains(errOut, "semantics") {
		t.Errorf("--resume with a different --semantics: exit %d, stderr %q", code, errOut)
	}
	// A flag given alone with --resume applies on top of the remembered ones and is checked too.
	if code, _, errOut := run("eval", "--resume", "--out", out, "--timeout", "2s"); code == exitOK || !strings.Contains(errOut, "timeout") {
		t.Errorf("--resume --timeout 2s: exit %d, stderr %q", code, errOut)
	}
	// Relative paths are remembered absolutely, so the hint works from anywhere.
	base := filepath.Dir(f.Questions)
	t.Chdir(base)
	rel := func(p string) string {
		r, err := filepath.Rel(base, p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	relOut := filepath.Join(t.TempDir(), "rel")
	if code, _, errOut := run("eval", "--dataset", "jsonl:"+rel(f.Questions), "--db-root", rel(f.DBRoot),
		"--pred", rel(f.Systems["baseline"]), "--out", relOut, "--timeout", testTimeout.String(), "--max-rows", "10000"); code != exitOK {
		t.Fatalf("relative paths: exit %d: %s", code, errOut)
	}
	var saved rundir.Args
	readJSON(t, filepath.Join(relOut, argsFile), &saved)
	wantArgs := []string{"--dataset=jsonl:" + f.Questions, "--db-root=" + f.DBRoot, "--max-rows=10000", "--pred=" + f.Systems["baseline"], "--timeout=" + testTimeout.String()}
	if strings.Join(saved.Args, " ") != strings.Join(wantArgs, " ") {
		t.Errorf("args.json remembers %q, want %q", saved.Args, wantArgs)
	}

	// A run directory that does not remember its arguments says what to give.
	bare := t.TempDir()
	if code, _, errOut := run("eval", "--resume", "--out", bare); code != exitUsage || !strings.Contains(errOut, "--dataset and --pred") {
		t.Errorf("--resume on a directory without args.json: exit %d, stderr %q", code, errOut)
	}
}
