package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// TestCompareGate runs the demo's systems as one system "s" in separate runs and checks
// compare's verdicts and exit codes: reviser (EX 73.47) to baseline (40.82) is a
// significant drop (exit 3), the reverse an improvement (exit 0), a run against itself
// no change; runs of different datasets are refused.
func TestCompareGate(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	f := demoFiles(t)
	ds := "jsonl:" + f.Questions
	dir := t.TempDir()
	eval := func(name, dataset, pred string) string {
		out := filepath.Join(dir, name)
		if code, _, stderr := run("eval", "--dataset", dataset, "--db-root", f.DBRoot, "--pred", "s="+pred, "--out", out, "--json", "--timeout", testTimeout.String(), "--max-rows", "100000"); code != 0 {
			t.Fatalf("eval %s: exit %d: %s", name, code, stderr)
		}
		return out
	}
	good := eval("good", ds, f.Systems["reviser"])
	bad := eval("bad", ds, f.Systems["baseline"])

	code, out, stderr := run("compare", good, bad)
	if code != exitRegression || !strings.Contains(out, "REGRESSION") || !strings.Contains(out, "B - A = -32.65") {
		t.Errorf("good -> bad: exit %d, want %d\n%s%s", code, exitRegression, out, stderr)
	}
	if !strings.Contains(out, "73.47 [") || !strings.Contains(out, "exact McNemar: right in A only") {
		t.Errorf("good -> bad does not print the values with intervals and the test:\n%s", out)
	}
	// --json: the same comparison, the same exit status, as one JSON object.
	code, out, stderr = run("compare", good, bad, "--json")
	var c benchrun.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("compare --json: %v\n%s%s", err, out, stderr)
	}
	if code != exitRegression || c.Outcome != "regression" || c.ChangeText != "-32.65" || c.A.Text != "73.47" || c.B.Text != "40.82" ||
		c.Test.Method != metrics.MethodMcNemar || c.Test.AOnly == nil || c.System != "s" || c.Metric != "ex" || c.RunA != good {
		t.Errorf("compare --json good -> bad: exit %d\n%s", code, out)
	}
	if code, out, _ := run("compare", good, good, "--json"); code != exitOK || !strings.Contains(out, `"outcome": "no_change"`) {
		t.Errorf("compare --json against itself: exit %d\n%s", code, out)
	}
	code, out, _ = run("compare", bad, good, "--metric", "soft_f1")
	if code != exitOK || !strings.Contains(out, "improvement") || !strings.Contains(out, "paired bootstrap") {
		t.Errorf("bad -> good soft_f1: exit %d\n%s", code, out)
	}
	code, out, _ = run("compare", good, good)
	if code != exitOK || !strings.Contains(out, "no significant change") || !strings.Contains(out, "right in A only 0, right in B only 0, p=1.0000") {
		t.Errorf("run against itself: exit %d\n%s", code, out)
	}
	// A stricter alpha keeps the drop, p is far below it; an absurd alpha is refused.
	if code, _, _ := run("compare", good, bad, "--alpha", "0.001"); code != exitRegression {
		t.Errorf("alpha 0.001: exit %d, want %d", code, exitRegression)
	}
	checkExit(t, []string{"compare", good, bad, "--alpha", "2"}, exitUsage, "--alpha")
	checkExit(t, []string{"compare", good, bad, "--metric", "nope"}, exitUsage, "nope")
	checkExit(t, []string{"compare", good, bad, "--system", "other"}, exitUsage, "not in both runs")

	// The same questions with one blank line more: another file, refused.
	data, err := os.ReadFile(f.Questions)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.jsonl")
	if err := os.WriteFile(other, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	otherRun := eval("other", "jsonl:"+other, f.Systems["baseline"])
	checkExit(t, []string{"compare", good, otherRun}, exitError, "different datasets")
}
