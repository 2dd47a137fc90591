package benchrun

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestInputFIFORefused: a named pipe given where a file is read (a matrix plan, a
// --tables or --diff-json the manifest hashes) is refused at once, not waited on forever
// (SIGTERM did not end that wait).
func TestInputFIFORefused(t *testing.T) {
	testutil.RefusesFIFO(t, map[string]func(string) error{
		"matrix plan":     func(p string) error { _, err := LoadMatrixPlan(p); return err },
		"manifest digest": func(p string) error { _, err := digestFile(context.Background(), p); return err },
	})
}

// Issue 45, failure 9: a system named summary.json failed after judging (rename: file
// exists) and --resume could not recover; manifest.json / args.json failed with "open
// records: not a directory". Such names are refused before a file is read, naming the rule.
func TestSystemNamesCollidingWithRunFiles(t *testing.T) {
	ds := &dataset.Dataset{}
	for _, name := range []string{"summary.json", "manifest.json", "args.json", "Summary.JSON", "report.html", "audit.jsonl", ".hidden", "..", "statistics.json"} {
		_, _, err := readSystems(ds, Config{Preds: []string{name + "=/nonexistent/preds.txt"}})
		if err == nil || !strings.Contains(err.Error(), "cannot name a system folder") || strings.Contains(err.Error(), "no such file") {
			t.Errorf("system %q: %v", name, err)
		}
	}
	// An ordinary name passes the check and fails on its missing file instead.
	if _, _, err := readSystems(ds, Config{Preds: []string{"summary=/nonexistent/preds.txt"}}); err == nil || strings.Contains(err.Error(), "cannot name") {
		t.Errorf("system summary: %v", err)
	}
}
