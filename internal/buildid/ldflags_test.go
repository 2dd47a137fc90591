package buildid

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionSetByLdflags builds a small program with the -X flag that
// scripts/release.sh passes (its variable path read from the script, so a rename on
// either side fails here) and checks that Version and Describe report the version set.
// That the command prints Version and a run's manifest records it is checked in process
// by cli's TestVersionCommandAndFlag and TestVersionInManifest.
func TestVersionSetByLdflags(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("skipping: no go command to build with -ldflags")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(root, "scripts", "release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`-X \$pkg(/internal/buildid\.version)=\$version`).FindSubmatch(script)
	if m == nil {
		t.Fatal("scripts/release.sh no longer sets -X $pkg/internal/buildid.version=$version: update this test and the version.go comment")
	}
	const want = "9.8.7-test"
	bin := filepath.Join(t.TempDir(), "printversion")
	build := exec.Command(goBin, "build", "-o", bin, "-ldflags", "-X github.com/nl2sqlbench/nl2sqlbench"+string(m[1])+"="+want, "./internal/buildid/testdata/printversion")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 || lines[0] != want {
		t.Fatalf("Version() = %q, want %q", out, want)
	}
	// Describe: the version set, then the VCS stamp where the build has one (a git clone).
	if rest, ok := strings.CutPrefix(lines[1], want); !ok || rest != "" && !(strings.HasPrefix(rest, " (") && strings.HasSuffix(rest, ")")) {
		t.Errorf("Describe() = %q, want %q and the VCS stamp in parentheses, if any", lines[1], want)
	}
}
