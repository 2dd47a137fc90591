package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestResolve: a path read from a run directory names a file inside it or is refused.
func TestResolve(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "run")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(dir, "s", "counterexamples"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "s", "counterexamples", "q0.sql"))
	write(filepath.Join(outside, "secret"))
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(outside, "secret"), "s/abs-link.sql")
	link("../../outside/secret", "s/rel-link.sql")
	link(outside, "out-dir")
	link("counterexamples/q0.sql", "s/inside-link.sql")
	link("/dev/zero", "zero")
	if err := os.Symlink(dir, filepath.Join(base, "run-link")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dir, rel string
		want     error // nil: resolves
	}{
		{dir, "s/counterexamples/q0.sql", nil},
		{dir, "s/./counterexamples/../counterexamples/q0.sql", nil},
		{dir, "s/inside-link.sql", nil},
		{filepath.Join(base, "run-link"), "s/counterexamples/q0.sql", nil}, // the run directory itself may be a link
		{dir, "../../../../etc/passwd", ErrOutside},
		{dir, "s/../../outside/secret", ErrOutside},
		{dir, "/etc/passwd", ErrOutside},
		{dir, `\etc\passwd`, ErrOutside},
		{dir, "", ErrOutside},
		{dir, "s/counterexamples/q0.sql\x00", ErrOutside},
		{dir, "s/abs-link.sql", ErrOutside},
		{dir, "s/rel-link.sql", ErrOutside},
		{dir, "out-dir/secret", ErrOutside},
		{dir, "out-dir/missing", ErrOutside}, // missing, and behind a link out: still refused
		{dir, "zero", ErrOutside},
		{dir, "s/missing.sql", os.ErrNotExist},
	}
	for _, c := range cases {
		got, err := Resolve(c.dir, c.rel)
		switch {
		case c.want == nil && err != nil:
			t.Errorf("Resolve(%q): %v", c.rel, err)
		case c.want == nil && !strings.HasPrefix(got, mustReal(t, dir)+string(filepath.Separator)):
			t.Errorf("Resolve(%q) = %s: not inside %s", c.rel, got, dir)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("Resolve(%q) = %q, %v; want %v", c.rel, got, err, c.want)
		}
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReadInside: a FIFO does not block the reader and a file over the cap is refused
// before it is read.
func TestReadInside(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadInside(dir, "fifo", 1024); !errors.Is(err, ErrNotRegular) {
		t.Errorf("fifo: %v, want %v", err, ErrNotRegular)
	}
	if _, err := ReadInside(dir, "sub", 1024); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v, want %v", err, ErrNotRegular)
	}
	if _, err := ReadInside(dir, "big", 1024); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big: %v, want %v", err, ErrTooLarge)
	}
	if b, err := ReadInside(dir, "big", 2048); err != nil || len(b) != 2048 {
		t.Errorf("big under its cap: %d bytes, %v", len(b), err)
	}
}
