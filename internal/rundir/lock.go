package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ErrLocked is the error of a second writer of a run directory: another eval, resume,
// --force or merge into the same --out is running.
var ErrLocked = errors.New("another nl2sqlbench is writing this run directory")

// ErrLockFile is the error of a lock file that is not a plain file of its own: a symlink,
// a hard link to another file, a FIFO or a folder. A run directory may come from someone
// else, so the lock file is never followed anywhere: opening it would truncate and
// overwrite whatever it points at.
var ErrLockFile = errors.New("lock file is not a plain file")

// Lock is a held writer lock on a run directory: flock(2) on a file beside it (not in
// it, so eval --force swapping a new directory in keeps the one lock). The kernel drops
// a flock when its process dies, so a lock left by a killed run is taken over by the next
// writer; the file only says who holds it, for the error of the one refused.
type Lock struct {
	f    *os.File
	path string
}

// lockHolder is the lock file's contents.
type lockHolder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Start   time.Time `json:"start"`
	Command string    `json:"command"`
}

// LockPath is the lock file of the run directory out: .<name>.lock beside it.
func LockPath(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".nl2sqlbench-lock")
}

// AcquireLock takes the writer lock of the run directory out for command, or returns an
// error matching ErrLocked that names the holder (pid, host, start). It never waits.
func AcquireLock(out, command string) (*Lock, error) {
	path := LockPath(out)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", out, err)
	}
	for range 32 {
		// O_NOFOLLOW: a symlink planted at the lock file's name is refused (ELOOP), not
		// followed to truncate its target; O_NONBLOCK: a FIFO there is refused below,
		// never waited on.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
		if err != nil {
			if errors.Is(err, syscall.ELOOP) {
				return nil, fmt.Errorf("lock %s: %w: %s is a symlink; remove it (nothing was written through it)", out, ErrLockFile, path)
			}
			if errors.Is(err, syscall.EISDIR) {
				return nil, fmt.Errorf("lock %s: %w: %s is a folder; remove it", out, ErrLockFile, path)
			}
			return nil, fmt.Errorf("lock %s: %w", out, err)
		}
		if err := plainFile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w: %s %s; remove it", out, ErrLockFile, path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder := readHolder(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%w: %s is held by %s; wait for it to finish, or use another --out", ErrLocked, out, holder)
			}
			return nil, fmt.Errorf("lock %s: %w", out, err)
		}
		// The holder before us may have removed the file on release after we opened it:
		// a lock on a removed file locks nothing, so open the path again.
		fi, ferr := f.Stat()
		pi, perr := os.Lstat(path)
		if ferr != nil || perr != nil || !os.SameFile(fi, pi) {
			f.Close()
			continue
		}
		host, _ := os.Hostname()
		b, _ := json.Marshal(lockHolder{PID: os.Getpid(), Host: host, Start: time.Now().UTC().Truncate(time.Second), Command: command})
		if err := f.Truncate(0); err == nil {
			_, err = f.WriteAt(append(b, '\n'), 0)
		}
		return &Lock{f: f, path: path}, nil
	}
	// Other writers took and released the lock each time we opened it: contention, as
	// when it is held (TestLockRace's 16 writers met this under load with 8 tries).
	return nil, fmt.Errorf("%w: %s is taken and released by other writers again and again (%s keeps being replaced); try again", ErrLocked, out, path)
}

// plainFile checks f is a regular file with one link: not a FIFO, a device or a folder,
// and not a hard link to someone's file (which O_NOFOLLOW cannot see).
func plainFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	switch m := fi.Mode(); {
	case m&os.ModeNamedPipe != 0:
		return errors.New("is a FIFO")
	case m&os.ModeDevice != 0:
		return errors.New("is a device")
	case !m.IsRegular():
		return fmt.Errorf("is not a regular file (mode %s)", m)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return fmt.Errorf("has %d hard links (another file shares it)", st.Nlink)
	}
	return nil
}

// readHolder describes the holder a lock file names.
func readHolder(f *os.File) string {
	b := make([]byte, 4096)
	n, _ := f.ReadAt(b, 0)
	var h lockHolder
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(b[:n]))), &h); err != nil || h.PID == 0 {
		return "another process (its lock file " + f.Name() + " names none)"
	}
	return fmt.Sprintf("%s (pid %d on host %s, started %s)", h.Command, h.PID, h.Host, h.Start.Format(time.RFC3339))
}

// Release removes the lock file and drops the lock; releasing again does nothing.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path) // while still held: no one can lock the file being removed
	l.f.Close()
	l.f = nil
}
