package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/buildid"
)

// TestVersionCommandAndFlag: `version` and `--version` print the same line, naming the
// build's version (in a test binary: none set, so buildid.Devel).
func TestVersionCommandAndFlag(t *testing.T) {
	t.Parallel()
	var lines []string
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errb bytes.Buffer
		if code := Run(t.Context(), args, nil, &out, &errb); code != exitOK {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		lines = append(lines, out.String())
	}
	if lines[0] != lines[1] {
		t.Errorf("version printed %q, --version %q", lines[0], lines[1])
	}
	if want := "nl2sqlbench " + buildid.Version(); !strings.HasPrefix(lines[0], want) || !strings.HasSuffix(lines[0], "\n") {
		t.Errorf("version printed %q, want a line starting %q", lines[0], want)
	}
}

// TestVersionSetAtBuildTime builds the binary as scripts/release.sh does (-ldflags -X) and
// checks that `version`, `--version` and a run's manifest (manifest.json and the copy in
// summary.json) all report the version set.
func TestVersionSetAtBuildTime(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping: builds the binary (-short)")
	}
	bin := testBinary(t)
	want := testBinaryVersion
	dir := t.TempDir()
	for _, arg := range []string{"version", "--version"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		// The version set, then the VCS stamp where the build has one (a git clone).
		got := string(out)
		if rest, ok := strings.CutPrefix(got, "nl2sqlbench "+want); !ok || rest != "\n" && !(strings.HasPrefix(rest, " (") && strings.HasSuffix(rest, ")\n")) {
			t.Errorf("%s printed %q, want %q (and the VCS stamp in parentheses, if any)", arg, got, "nl2sqlbench "+want)
		}
	}
	run := filepath.Join(dir, "run")
	cmd := exec.Command(bin, "demo", "--json", "--out", run, "--cache", filepath.Join(dir, "cache"))
	cmd.Env = append(os.Environ(), "NL2SQLBENCH_CACHE_DIR=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	var m struct{ Version string }
	readJSON(t, filepath.Join(run, manifestFile), &m)
	if m.Version != want {
		t.Errorf("manifest.json version = %q, want %q", m.Version, want)
	}
	var s struct{ Manifest struct{ Version string } }
	readJSON(t, filepath.Join(run, "summary.json"), &s)
	if s.Manifest.Version != want {
		t.Errorf("summary.json manifest version = %q, want %q", s.Manifest.Version, want)
	}
}
