package cli

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestLimitsAndInputs: limits that would silently vanish (0 or negative reads as "no
// limit" below the CLI) are usage errors naming their flag, --workers is bounded, and a
// prediction or dataset file that is not a regular file (an endless device, a FIFO that
// would block, a directory) is refused before anything is read.
func TestLimitsAndInputs(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	ds := "jsonl:" + f.Questions
	eval := func(extra ...string) []string {
		return append([]string{"eval", "--dataset", ds, "--db-root", f.DBRoot, "--pred", "b=" + f.Systems["baseline"], "--out", t.TempDir()}, extra...)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"timeout 0", eval("--timeout", "0"), exitUsage, []string{"--timeout must be positive", "0s"}},
		{"timeout negative", eval("--timeout", "-1s"), exitUsage, []string{"--timeout must be positive", "-1s"}},
		{"max-rows 0", eval("--max-rows", "0"), exitUsage, []string{"--max-rows must be positive"}},
		{"max-rows negative", eval("--max-rows", "-1"), exitUsage, []string{"--max-rows must be positive", "-1"}},
		{"max-result-bytes 0", eval("--max-result-bytes", "0"), exitUsage, []string{"--max-result-bytes must be positive"}},
		{"max-result-bytes negative", eval("--max-result-bytes", "-5"), exitUsage, []string{"--max-result-bytes must be positive", "-5"}},
		{"workers 0", eval("--workers", "0"), exitUsage, []string{"--workers must be between 1 and 256"}},
		{"workers negative", eval("--workers", "-3"), exitUsage, []string{"--workers", "-3"}},
		{"workers too many", eval("--workers", "257"), exitUsage, []string{"--workers", "257"}},
		{"report max-rows 0", []string{"report", dir, "--max-rows", "0"}, exitUsage, []string{"--max-rows must be positive"}},
		{"serve max-rows -1", []string{"serve", dir, "--max-rows", "-1"}, exitUsage, []string{"--max-rows must be positive"}},
		{"export-docs timeout 0", []string{"export-docs", "--db", "x.sqlite", "--out", dir, "--timeout", "0"}, exitUsage, []string{"--timeout must be positive"}},
		{"prediction /dev/zero", []string{"eval", "--dataset", ds, "--pred", "S=/dev/zero"}, exitError, []string{"/dev/zero", "not a regular file", "a device"}},
		{"prediction FIFO", []string{"eval", "--dataset", ds, "--pred", "S=" + fifo}, exitError, []string{"fifo", "not a regular file", "a named pipe"}},
		{"prediction directory", []string{"eval", "--dataset", ds, "--pred", "S=" + dir}, exitError, []string{"not a regular file", "a directory"}},
		{"dataset /dev/zero", []string{"eval", "--dataset", "jsonl:/dev/zero", "--pred", "S=" + f.Systems["baseline"]}, exitError, []string{"/dev/zero", "not a regular file"}},
		{"dataset FIFO", []string{"eval", "--dataset", "bird:" + fifo, "--pred", "S=" + f.Systems["baseline"]}, exitError, []string{"not a regular file", "a named pipe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkExit(t, tt.args, tt.code, tt.contains...) })
	}
}
