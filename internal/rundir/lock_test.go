package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLockRefusesSecondWriter: while one writer holds the lock, a second is refused at
// once with an error naming the holder; after release the next one gets it and the lock
// file is gone.
func TestLockRefusesSecondWriter(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	a, err := AcquireLock(out, "eval")
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLock(out, "eval --force")
	host, _ := os.Hostname()
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d on host %s", os.Getpid(), host)) || !strings.Contains(err.Error(), "eval (") {
		t.Fatalf("second writer: %v", err)
	}
	a.Release()
	a.Release() // twice does nothing
	if _, err := os.Stat(LockPath(out)); !os.IsNotExist(err) {
		t.Errorf("lock file left after release: %v", err)
	}
	b, err := AcquireLock(out, "eval")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	b.Release()
}

// TestLockStale: a lock file left by a process that died (no flock on it: the kernel
// dropped it) is taken over.
func TestLockStale(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	os.WriteFile(LockPath(out), []byte(`{"pid": 999999999, "host": "elsewhere", "start": "2020-01-01T00:00:00Z", "command": "eval"}`+"\n"), 0o644)
	l, err := AcquireLock(out, "eval --resume")
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	b, _ := os.ReadFile(LockPath(out))
	if !strings.Contains(string(b), fmt.Sprintf(`"pid":%d`, os.Getpid())) {
		t.Errorf("lock file names %s, not this process", b)
	}
	l.Release()
}

// TestLockRace: many writers racing for one run directory, each releasing (and removing
// the file) as soon as it holds the lock: never two at once.
func TestLockRace(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	var holders, max, got atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				l, err := AcquireLock(out, "eval")
				if err != nil {
					if !errors.Is(err, ErrLocked) {
						t.Error(err)
					}
					continue
				}
				got.Add(1)
				if n := holders.Add(1); n > max.Load() {
					max.Store(n)
				}
				holders.Add(-1)
				l.Release()
			}
		}()
	}
	wg.Wait()
	if max.Load() != 1 || got.Load() == 0 {
		t.Errorf("at most %d holders at once (want 1), %d acquisitions", max.Load(), got.Load())
	}
}
