package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Issue 45, failure 3: a run folder shipped with its lock file linked to a file of the
// victim's: taking the lock truncated the target and wrote JSON into it. The link is
// refused, the target untouched, and the error says what to remove.
func TestLockDoesNotFollowSymlink(t *testing.T) {
	base := t.TempDir()
	victim := filepath.Join(base, "thesis.tex")
	if err := os.WriteFile(victim, []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(base, "run")
	os.Mkdir(out, 0o755)
	if err := os.Symlink(victim, LockPath(out)); err != nil {
		t.Fatal(err)
	}
	l, err := AcquireLock(out, "agreement")
	if err == nil {
		l.Release()
		t.Fatal("took a lock through a symlink")
	}
	if !errors.Is(err, ErrLockFile) || !strings.Contains(err.Error(), LockPath(out)) {
		t.Errorf("error %v: want ErrLockFile naming the lock file", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "years of work" {
		t.Errorf("victim is now %q", b)
	}
	// A dangling link (to a file that would be created) is refused too.
	os.Remove(LockPath(out))
	if err := os.Symlink(filepath.Join(base, "created"), LockPath(out)); err != nil {
		t.Fatal(err)
	}
	if l, err := AcquireLock(out, "eval"); err == nil {
		l.Release()
		t.Error("took a lock through a dangling symlink")
	}
	if _, err := os.Lstat(filepath.Join(base, "created")); err == nil {
		t.Error("created the dangling symlink's target")
	}
}

// Attack: a FIFO or a folder where the lock file goes: refused at once, never waited on.
func TestLockRefusesNonRegular(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	if err := syscall.Mkfifo(LockPath(out), 0o644); err != nil {
		t.Skipf("no FIFOs: %v", err)
	}
	if l, err := AcquireLock(out, "eval"); !errors.Is(err, ErrLockFile) {
		l.Release()
		t.Errorf("FIFO lock file: %v, want ErrLockFile", err)
	}
	out2 := filepath.Join(t.TempDir(), "run")
	os.Mkdir(LockPath(out2), 0o755)
	if l, err := AcquireLock(out2, "eval"); !errors.Is(err, ErrLockFile) {
		l.Release()
		t.Errorf("folder lock file: %v, want ErrLockFile", err)
	}
}

// Attack: a hard link from the lock file's name to a victim's file (same file system):
// O_NOFOLLOW does not see it, so a lock file with more than one link is refused.
func TestLockRefusesHardLink(t *testing.T) {
	base := t.TempDir()
	victim := filepath.Join(base, "notes.txt")
	os.WriteFile(victim, []byte("mine"), 0o644)
	out := filepath.Join(base, "run")
	if err := os.Link(victim, LockPath(out)); err != nil {
		t.Skipf("no hard links: %v", err)
	}
	if l, err := AcquireLock(out, "eval"); !errors.Is(err, ErrLockFile) {
		l.Release()
		t.Errorf("hard-linked lock file: %v, want ErrLockFile", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Errorf("victim is now %q", b)
	}
}
