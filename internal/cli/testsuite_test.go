package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestEvalTestSuiteThenVerify: eval --test-suite on the demo stores ts_ex on every judged
// record and a script for every counterexample; verify confirms them all, and names the
// one whose script was broken or removed.
func TestEvalTestSuiteThenVerify(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	f := demoFiles(t)
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--out", out, "--json",
		"--test-suite", "--test-suite-budget", "150", "--test-suite-seed", "3"}
	for _, name := range f.SystemOrder {
		args = append(args, "--pred", name+"="+f.Systems[name])
	}
	if code, _, stderr := run(args...); code != 0 {
		t.Fatalf("eval exit %d: %s", code, stderr)
	}
	var paths []string
	for _, name := range f.SystemOrder {
		for _, r := range readRecords(t, filepath.Join(out, name, "records.jsonl")) {
			if r.Judged() && r.TSEX == nil {
				t.Errorf("%s #%d: judged but no ts_ex", name, r.Index)
			}
			if r.TSEX != nil && *r.TSEX == 1 && r.Verdict != record.Correct {
				t.Errorf("%s #%d: ts_ex 1 on a %s record", name, r.Index, r.Verdict)
			}
			if c := r.Counterexample; c != nil {
				refutes := c.Kind == "realistic" && c.GoldSuspect == ""
				if (*r.TSEX == 0) != refutes || len(c.GoldResult.Columns) == 0 || c.Kind == "" {
					t.Errorf("%s #%d: %s counterexample (gold suspect %q) with ts_ex %d, gold columns %v", name, r.Index, c.Kind, c.GoldSuspect, *r.TSEX, c.GoldResult.Columns)
				}
				paths = append(paths, c.Path)
			}
		}
	}
	if len(paths) == 0 {
		t.Fatal("no counterexample on the demo: the search found nothing to verify")
	}
	sum, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil || !strings.Contains(string(sum), `"test_suite"`) || !strings.Contains(string(sum), `"ts_ex"`) {
		t.Errorf("summary.json lacks the test_suite section or the ts_ex metric (err %v)", err)
	}
	code, stdout, stderr := run("verify", out)
	if code != 0 || !strings.Contains(stdout, "verified") {
		t.Fatalf("verify exit %d: %s %s", code, stdout, stderr)
	}
	if code, stdout, stderr := run("verify", "--integrity-only", out); code != 0 || !strings.Contains(stdout, "every file matches") {
		t.Fatalf("verify --integrity-only of an intact run: exit %d: %s %s", code, stdout, stderr)
	}

	broken := filepath.Join(out, filepath.FromSlash(paths[0]))
	text, _ := os.ReadFile(broken)
	if err := os.WriteFile(broken, append(text, "INSERT INTO no_such_table VALUES (1);\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	// The sealed run's hashes catch the edit first; --integrity-only stops there.
	for _, args := range [][]string{{"verify", out}, {"verify", "--integrity-only", out}} {
		code, _, stderr = run(args...)
		if code == 0 || !strings.Contains(stderr, paths[0]) || !strings.Contains(stderr, "changed") {
			t.Errorf("%v of a broken script: exit %d, stderr %q should name %s as changed", args, code, stderr, paths[0])
		}
	}
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = run("verify", out)
	if code == 0 || !strings.Contains(stderr, paths[0]) {
		t.Errorf("verify of a missing script: exit %d, stderr %q should name %s", code, stderr, paths[0])
	}
}

func TestTestSuiteBudgetFlag(t *testing.T) {
	t.Parallel()
	checkExit(t, []string{"eval", "--dataset", "jsonl:x", "--pred", "x", "--test-suite-budget", "soon"}, exitUsage, "test-suite-budget")
	checkExit(t, []string{"eval", "--dataset", "jsonl:x", "--pred", "x", "--test-suite-domain", "strict"}, exitUsage, "test-suite-domain")
}
