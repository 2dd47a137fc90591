package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// sealedDir writes a minimal sealed run: one system "a" with a records file.
func sealedDir(tb testing.TB) (string, *Summary) {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "a"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", RecordsFile), []byte(`{"index":0,"verdict":"correct"}`+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	sum := &Summary{Tool: "nl2sqlbench", Systems: []metrics.Summary{{System: "a"}}}
	m := &Manifest{Tool: "nl2sqlbench"}
	sum.Manifest = m
	if err := Seal(dir, sum, m); err != nil {
		tb.Fatal(err)
	}
	if got := Check(dir, sum); got.State != Intact {
		tb.Fatalf("fresh run: %v %q", got.State, got.Problems)
	}
	return dir, sum
}

// TestCheckStaysInRunAndCaps: Check reads a recorded file only inside the run and within
// its reader's cap. Before, a records file symlinked out was read (to hash it), and a
// sparse 2 GB one read through for seconds before any reader refused it.
func TestCheckStaysInRunAndCaps(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "records.jsonl")
	if err := os.WriteFile(outside, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		attack func(records string) error
		want   string
	}{
		{"records a symlink out", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink(outside, p)
		}, "path leaves the run directory"},
		{"records sparse over its cap", func(p string) error { return os.Truncate(p, MaxRecords+1) }, "over its size cap"},
		{"records a FIFO", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return syscall.Mkfifo(p, 0o644)
		}, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, sum := sealedDir(t)
			if err := tt.attack(filepath.Join(dir, "a", RecordsFile)); err != nil {
				t.Skipf("attack: %v", err)
			}
			got := Check(dir, sum)
			if got.State != Changed || !strings.Contains(got.Banner(), "a/records.jsonl") || !strings.Contains(got.Banner(), tt.want) {
				t.Fatalf("Check = %v %q, want changed naming a/records.jsonl and %q", got.State, got.Problems, tt.want)
			}
		})
	}
}
