package rundir

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// WriteAudit writes DIR/audit.jsonl, one finding a line, atomically, and returns its
// path. Into a finished run directory the manifest then records the new file's hash, so
// the run still reads as written (Check); elsewhere (no run there yet) that does nothing.
func WriteAudit(dir string, findings []audit.Finding) (string, error) {
	path := filepath.Join(dir, AuditFile)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("audit output: %w", err)
	}
	if err := safefile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		for i := range findings {
			if err := enc.Encode(&findings[i]); err != nil {
				return err
			}
		}
		return bw.Flush()
	}); err != nil {
		return "", err
	}
	if err := Reseal(dir, AuditFile); err != nil {
		return "", err
	}
	return path, nil
}
