package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Issue 45, failure 5: `report r --md r/D/records.jsonl` replaced the records, `--html
// r/summary.json` made the run unloadable. Every path into the run's own files is refused,
// however it is spelled; new files beside summary.json and outside the run are not.
func TestCheckOutput(t *testing.T) {
	base := t.TempDir()
	run := filepath.Join(base, "r")
	for _, r := range []string{run, filepath.Join(base, "other")} { // "other": another run, not the one reported
		for _, p := range []string{"summary.json", "manifest.json", "args.json", "D/records.jsonl", "D/statistics.json"} {
			os.MkdirAll(filepath.Dir(filepath.Join(r, p)), 0o755)
			os.WriteFile(filepath.Join(r, p), []byte("{}"), 0o644)
		}
	}
	os.Symlink(run, filepath.Join(base, "link"))
	os.Symlink(filepath.Join(run, "D"), filepath.Join(base, "dlink"))
	tests := []struct {
		out string
		ok  bool
	}{
		{"r/D/records.jsonl", false},
		{"r/summary.json", false},
		{"r/manifest.json", false},
		{"r/args.json", false},
		{"r/./D/../summary.json", false},
		{"link/summary.json", false},   // through a symlink to the run
		{"dlink/records.jsonl", false}, // through a symlink to a system folder
		{"r/D/new.md", false},          // inside a system folder
		{"r/D", false},                 // a folder of the run
		{"r", false},                   // the run itself
		{"r/audit.jsonl", false},
		{"r/report.html", true}, // the run's report: eval writes it
		{"r/summary.md", true},  // a new file beside summary.json
		{"report.html", true},
		{"elsewhere/x.md", true}, // a folder that does not exist: the write reports it
		// Another run's files (the attack: `report A --md B/D/records.jsonl` replaced B's records).
		{"other/D/records.jsonl", false},
		{"other/summary.json", false},
		{"other/D/new.md", false},
		{"other/D", false},
		{"other", false},
		{"other/summary.md", true},
		{"other/report.html", true},
	}
	for _, tt := range tests {
		out := filepath.Join(base, tt.out)
		err := CheckOutput(run, out)
		if tt.ok && err != nil {
			t.Errorf("%s: refused: %v", tt.out, err)
		}
		if !tt.ok && !errors.Is(err, ErrOutputInRun) {
			t.Errorf("%s: got %v, want ErrOutputInRun", tt.out, err)
		}
	}
	// Relative to the working directory, as typed.
	t.Chdir(base)
	if err := CheckOutput("r", "r/D/records.jsonl"); !errors.Is(err, ErrOutputInRun) {
		t.Errorf("relative paths: %v", err)
	}
}
