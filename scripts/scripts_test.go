// Package scripts_test checks the release scripts' behaviour that costs a newcomer the
// most when it is wrong: which targets they build by default, and that a missing cross
// compiler fails before minutes of building rather than after. Nothing here compiles
// nl2sqlbench: the slow steps are either not reached or done by a stand-in go.
package scripts_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crossArch is the release target that is not this machine's, and its Debian cross
// compiler and package.
func crossArch(t *testing.T) (arch, cc, pkg string) {
	t.Helper()
	switch runtime.GOARCH {
	case "amd64":
		return "arm64", "aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"
	case "arm64":
		return "amd64", "x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu"
	}
	t.Skipf("the release targets are amd64 and arm64, not %s", runtime.GOARCH)
	return "", "", ""
}

// pathWithout is a PATH holding every command of the current one except those named:
// a directory of symlinks, so that a compiler installed in /usr/bin can be left out.
func pathWithout(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	skip := map[string]bool{}
	for _, n := range names {
		skip[n] = true
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if skip[e.Name()] {
				continue
			}
			link := filepath.Join(dir, e.Name())
			if _, err := os.Lstat(link); err == nil {
				continue // the first on PATH wins, as in a shell
			}
			_ = os.Symlink(filepath.Join(d, e.Name()), link)
		}
	}
	return dir
}

type scriptRun struct {
	stdout, stderr string
	err            error
	took           time.Duration
}

// runScript runs scripts/NAME with bash, env added to the environment.
func runScript(t *testing.T, timeout time.Duration, name string, env []string, args ...string) scriptRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	// A script that goes on to build must not outlive the test: its whole process group
	// is killed at the timeout, and the pipes are not waited on for long.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %s: it went on to build (stderr: %s)", name, timeout, errb.String())
	}
	return scriptRun{out.String(), errb.String(), err, time.Since(start)}
}

func TestBuildWheelChecksCrossCompilerFirst(t *testing.T) {
	arch, cc, pkg := crossArch(t)
	path := pathWithout(t, cc)
	// A go that notes any build: the host's target must not be built either, since the
	// cross compiler is missing (what the issue saw: 4 minutes of amd64, then nothing).
	built := filepath.Join(t.TempDir(), "built")
	stub := "#!/bin/sh\ncase \"$1\" in build) echo \"$*\" >>" + built + "; exit 1 ;; esac\nexec " + goTool(t) + " \"$@\"\n"
	if err := os.Remove(filepath.Join(path, "go")); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "go"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	r := runScript(t, 30*time.Second, "build-wheel.sh", []string{
		"PATH=" + path, "TARGETS=" + runtime.GOARCH + " " + arch,
		"VERSION=0.0.0-compilercheck", // no tarball in dist/release is this version's
	})
	if r.err == nil {
		t.Fatalf("build-wheel.sh TARGETS=%s succeeded without %s on PATH", arch, cc)
	}
	for _, want := range []string{cc, "apt-get install " + pkg, `TARGETS="amd64 arm64"`, "nothing built"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not name %q:\n%s", want, r.stderr)
		}
	}
	if b, err := os.ReadFile(built); err == nil {
		t.Errorf("build-wheel.sh started a build before checking every compiler: go %s", b)
	}
	if r.took > 20*time.Second {
		t.Errorf("the compiler check took %s; it must fail within seconds", r.took)
	}
}

// goTool is the go command's path.
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		p = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	return p
}

func TestReleaseDefaultsToTheHost(t *testing.T) {
	crossArch(t) // skips off amd64 and arm64
	r := runScript(t, 30*time.Second, "release.sh", []string{"TARGETS="}, "--check")
	if r.err != nil {
		t.Fatalf("release.sh --check: %v\n%s", r.err, r.stderr)
	}
	if want := "linux/" + runtime.GOARCH + ": gcc\n"; r.stdout != want {
		t.Errorf("release.sh --check without TARGETS checked:\n%s\nwant only the host:\n%s", r.stdout, want)
	}
}

// TestReleaseKeepsTheTargetsBuilt runs release.sh with a stand-in go whose build for the
// second target fails: the first target's tarball and SHA256SUMS must remain.
func TestReleaseKeepsTheTargetsBuilt(t *testing.T) {
	cross, _, _ := crossArch(t)
	bin := t.TempDir()
	sqlite := t.TempDir()
	if err := os.WriteFile(filepath.Join(sqlite, "sqlite3-binding.c"), []byte("#define SQLITE_VERSION        \"3.0.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fakeGo := `#!/bin/sh
case "$1 $2" in
  "list -m")
    case "$*" in *.Dir*) echo "` + sqlite + `" ;; *) echo v0.0.0 ;; esac ;;
  "env GOVERSION") echo go0.0 ;;
  "env "*) echo "" ;;
  build*)
    [ "$GOARCH" = "` + cross + `" ] && { echo "fake go: build for $GOARCH fails" >&2; exit 1; }
    while [ "$1" != "-o" ]; do shift; done
    echo binary >"$2" ;;
  *) echo "fake go: unexpected: $*" >&2; exit 2 ;;
esac
`
	fakeCC := "#!/bin/sh\necho fake-cross-cc 0.0\n"
	for name, text := range map[string]string{"go": fakeGo, "fake-cross-cc": fakeCC} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "release")
	r := runScript(t, 60*time.Second, "release.sh", []string{
		"PATH=" + bin + string(filepath.ListSeparator) + os.Getenv("PATH"),
		"OUT=" + out, "VERSION=0.0.0-keep", "TARGETS=" + runtime.GOARCH + " " + cross,
		"CC_" + cross + "=" + filepath.Join(bin, "fake-cross-cc"),
	})
	if r.err == nil {
		t.Fatalf("release.sh succeeded though the %s build failed:\n%s", cross, r.stderr)
	}
	host := "nl2sqlbench-0.0.0-keep-linux-" + runtime.GOARCH + ".tar.gz"
	if _, err := os.Stat(filepath.Join(out, host)); err != nil {
		t.Errorf("the %s tarball built before the failure is gone: %v\n%s", runtime.GOARCH, err, r.stderr)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil || !strings.Contains(string(sums), host) {
		t.Errorf("SHA256SUMS does not list %s (%v): %s", host, err, sums)
	}
}
