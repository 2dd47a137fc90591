package cli

import (
	"bytes"
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
		if code := Run(t.Context(), cmdline(args...), nil, &out, &errb); code != exitOK {
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

// TestVersionInManifest: a run's manifest (manifest.json and the copy in summary.json)
// records the build's version, the one `version` prints. That a release build's -ldflags
// -X sets that version is buildid.TestVersionSetByLdflags (a small program: building the
// whole command with the flag took 15-20 s of this package's suite).
func TestVersionInManifest(t *testing.T) {
	t.Parallel()
	run := sharedFullDemoRun(t)
	want := buildid.Version()
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
