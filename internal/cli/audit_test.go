package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
)

func readFindings(t *testing.T, path string) []audit.Finding {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []audit.Finding
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var x audit.Finding
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, x)
	}
	return out
}

// TestAuditDemo audits the demo run (eval --audit, and audit --run on the same run) and
// checks audit.jsonl, the printed counts and the report's section. The demo has one
// gold that fails (its database is broken on purpose) and questions where all three
// systems agree against the gold.
func TestAuditDemo(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--out", dir, "--timeout", testTimeout.String(), "--max-rows", "10000", "--audit"}
	for _, s := range f.SystemOrder {
		args = append(args, "--pred", s+"="+f.Systems[s])
	}
	code, out, stderr := run(args...)
	if code != exitOK {
		t.Fatalf("eval --audit: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "check  gold  predictions") || !strings.Contains(out, "predictions judged correct checked") {
		t.Errorf("eval --audit printed no audit counts:\n%s", out)
	}
	fs := readFindings(t, filepath.Join(dir, "audit.jsonl"))
	n := map[string]int{}
	for _, x := range fs {
		n[x.Check]++
		if x.Evidence == "" || x.DBID == "" || x.QuestionID == "" {
			t.Errorf("finding without its question or evidence: %+v", x)
		}
	}
	if n[audit.CheckConsensus] == 0 || n[audit.CheckGoldError] == 0 {
		t.Errorf("findings per check %v: want consensus and gold_error", n)
	}

	// audit --run finds the same, from the run directory alone.
	again := t.TempDir()
	code, _, stderr = run("audit", "--run", dir, "--out", again)
	if code != exitOK {
		t.Fatalf("audit --run: exit %d: %s", code, stderr)
	}
	if got := readFindings(t, filepath.Join(again, "audit.jsonl")); len(got) != len(fs) {
		t.Errorf("audit --run: %d findings, eval --audit %d", len(got), len(fs))
	}

	_, md, _ := run("report", dir)
	if !strings.Contains(md, "### Gold audit: findings per check") || !strings.Contains(md, fs[0].QuestionID) {
		t.Errorf("report has no audit section:\n%s", md)
	}
	page := filepath.Join(t.TempDir(), "r.html")
	if code, _, stderr := run("report", dir, "--html", page, "--no-exec"); code != exitOK {
		t.Fatalf("report --html: %s", stderr)
	}
	html, _ := os.ReadFile(page)
	if !strings.Contains(string(html), `id="audit"`) || !strings.Contains(string(html), `<p class="warn audit"><b>audit consensus:</b>`) {
		t.Errorf("html report lacks the audit section or the evidence beside a question")
	}

	// A damaged audit.jsonl is named in a warning and its section left out.
	if err := os.WriteFile(filepath.Join(dir, "audit.jsonl"), []byte("{\"index\": 1}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, md, stderr = run("report", dir)
	if code != exitOK || !strings.Contains(stderr, "audit.jsonl line 2") || strings.Contains(md, "Gold audit") {
		t.Errorf("damaged audit.jsonl: exit %d, stderr %q, section shown: %v", code, stderr, strings.Contains(md, "Gold audit"))
	}
	checkExit(t, []string{"audit", "--dataset", "jsonl:" + f.Questions}, exitUsage, "--out is required")
	checkExit(t, []string{"audit"}, exitUsage, "--dataset (or --run) is required")
}
