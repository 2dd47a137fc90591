package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlanOut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		setup         func(t *testing.T, out string)
		resume, force bool
		replacing     bool
		err           error // nil: no error
	}{
		{name: "absent", setup: func(*testing.T, string) {}},
		{name: "empty", setup: mkdir},
		{name: "non-empty", setup: withFile, err: ErrRunExists},
		{name: "non-empty, resume", setup: withFile, resume: true},
		{name: "non-empty, force", setup: withFile, force: true, replacing: true},
		{name: "empty, force", setup: mkdir, force: true},
		{name: "not a run, force", setup: withThesis, force: true, err: ErrNotReplaceable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			tt.setup(t, out)
			d, err := PlanOut(out, tt.resume, tt.force)
			if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if d.Out != out || d.Replacing() != tt.replacing {
				t.Errorf("plan %+v, replacing %v; want out %s, replacing %v", d, d.Replacing(), out, tt.replacing)
			}
		})
	}
}

// TestOutDirCommit: a replacement takes the run directory's name and nothing else is
// left beside it; an abandoned one leaves the earlier run as it was.
func TestOutDirCommit(t *testing.T) {
	t.Parallel()
	for _, keep := range []bool{true, false} {
		out := filepath.Join(t.TempDir(), "run")
		withFile(t, out)
		d, err := PlanOut(out, false, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.Work, "new"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		want := ManifestFile
		if keep {
			if err := d.Commit(); err != nil {
				t.Fatal(err)
			}
			want = "new"
		} else {
			d.Abandon()
		}
		// A replaced run has a new run's mode (MkdirTemp's 0700 made it unreadable to
		// the group: round 54's new-user trial), whatever the umask.
		ref := filepath.Join(t.TempDir(), "ref")
		os.Mkdir(ref, 0o755)
		fr, _ := os.Stat(ref)
		if fi, err := os.Stat(out); keep && (err != nil || fr == nil || fi.Mode().Perm() != fr.Mode().Perm()) {
			t.Errorf("replaced run's mode %v (%v), want a new folder's", fi.Mode().Perm(), err)
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 1 || entries[0].Name() != want {
			t.Errorf("commit %v: %s holds %v, want only %s", keep, out, entries, want)
		}
		if beside, _ := os.ReadDir(filepath.Dir(out)); len(beside) != 1 {
			t.Errorf("commit %v: %d entries beside the run directory", keep, len(beside))
		}
	}
}

func TestPlanOutFile(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(out, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanOut(out, false, false); err == nil || !strings.Contains(err.Error(), out) {
		t.Errorf("--out naming a file: %v", err)
	}
}

func mkdir(t *testing.T, out string) {
	t.Helper()
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
}

// withThesis makes out a folder of someone's work, not a run.
func withThesis(t *testing.T, out string) {
	t.Helper()
	mkdir(t, out)
	if err := os.WriteFile(filepath.Join(out, "thesis.tex"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// withFile makes out a run directory holding one file, manifest.json.
func withFile(t *testing.T, out string) {
	t.Helper()
	mkdir(t, out)
	if err := os.WriteFile(filepath.Join(out, ManifestFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}
