package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckNotInsideRun (issue 45, round 54's attacks): `eval --out A/D/sub` nested a run
// in run A's system folder and `export-docs --out A` wrote into run A. Both are refused;
// a folder beside a run, a new folder and (without self) the run itself are not.
func TestCheckNotInsideRun(t *testing.T) {
	base := t.TempDir()
	run := filepath.Join(base, "A")
	for _, p := range []string{"summary.json", "D/records.jsonl"} {
		os.MkdirAll(filepath.Dir(filepath.Join(run, p)), 0o755)
		os.WriteFile(filepath.Join(run, p), []byte("{}"), 0o644)
	}
	tests := []struct {
		dir  string
		self bool
		ok   bool
	}{
		{"A/D/sub", false, false},
		{"A/sub", false, false},
		{"A/D", false, false},
		{"A", true, false},
		{"A", false, true}, // eval's own --out: PlanOut decides (--resume, --force)
		{"B", true, true},
		{"B/sub/deeper", true, true},
	}
	for _, tt := range tests {
		err := CheckNotInsideRun(filepath.Join(base, tt.dir), tt.self)
		if tt.ok && err != nil {
			t.Errorf("%s (self %v): refused: %v", tt.dir, tt.self, err)
		}
		if !tt.ok && !errors.Is(err, ErrInsideRun) {
			t.Errorf("%s (self %v): %v, want ErrInsideRun", tt.dir, tt.self, err)
		}
	}
}
