package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestAgreement labels a demo run's baseline by hand: one question the judge calls
// correct is labelled incorrect (an EX false positive), one it calls incorrect is
// labelled correct, two more agree. agreement prints the counts, writes agreement.json
// (the run stays intact), and report shows the section with links to the drill-down.
func TestAgreement(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--dataset", "jsonl:" + f.Questions, "--db-root", f.DBRoot, "--out", dir, "--timeout", testTimeout.String(), "--max-rows", "10000", "--json"}
	for _, s := range []string{"baseline", "reviser"} {
		args = append(args, "--pred", s+"="+f.Systems[s])
	}
	if code, _, stderr := run(args...); code != exitOK {
		t.Fatalf("eval: %s", stderr)
	}
	var right, wrong []record.Record
	for _, r := range readRecords(t, filepath.Join(dir, "baseline", "records.jsonl")) {
		switch {
		case r.ExBird == 1 && r.Verdict == record.Correct:
			right = append(right, r)
		case r.Verdict == record.Incorrect:
			wrong = append(wrong, r)
		}
	}
	if len(right) < 2 || len(wrong) < 2 {
		t.Fatalf("the demo has %d right and %d wrong baseline answers; the test needs 2 of each", len(right), len(wrong))
	}
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	body := fmt.Sprintf(`{"question_id": %q, "system": "baseline", "label": "incorrect", "note": "right rows for the wrong reason"}
{"index": %d, "system": "baseline", "label": "correct"}
{"index": %d, "system": "baseline", "label": "correct"}
{"index": %d, "system": "baseline", "label": "incorrect"}
`, right[0].QuestionID, wrong[0].Index, right[1].Index, wrong[1].Index)
	if err := os.WriteFile(labels, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run("agreement", dir, "--labels", labels)
	if code != exitOK {
		t.Fatalf("agreement: exit %d: %s", code, stderr)
	}
	// EX bird: TP 1, FP 1, FN 1, TN 1: accuracy 50, kappa 0.
	if !regexpLine(out, `EX bird\s+4\s+1\s+1\s+1\s+1\s+50\.00\s+50\.00\s+50\.00\s+50\.00\s+0\.00 \[-0\.98, 0\.98\]`) {
		t.Errorf("EX bird's row is not TP 1 FP 1 FN 1 TN 1:\n%s", out)
	}
	for _, want := range []string{fmt.Sprintf("baseline #%d (question_id %s", right[0].Index, right[0].QuestionID), "right rows for the wrong reason",
		"Cohen's kappa between verdicts", "report.html#qN"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var a rundir.Agreement
	data, err := os.ReadFile(filepath.Join(dir, rundir.AgreementFile))
	if err != nil || json.Unmarshal(data, &a) != nil || a.Labelled != 4 || len(a.Verdicts) == 0 {
		t.Fatalf("agreement.json: %v %s", err, data)
	}
	// --json prints the same file.
	if code, js, stderr := run("agreement", dir, "--labels", labels, "--json"); code != exitOK || strings.TrimSpace(js) != strings.TrimSpace(string(data)) {
		t.Errorf("--json: exit %d %s\n%s\nwant agreement.json:\n%s", code, stderr, js, data)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	if code, _, stderr := run("report", dir, "--html", page, "--no-exec"); code != exitOK {
		t.Fatalf("report: %s", stderr)
	}
	_, md, _ := run("report", dir)
	if strings.Contains(md, "changed") || !strings.Contains(md, "### Agreement of each verdict with expert labels") {
		t.Errorf("the Markdown report is not intact with the agreement table:\n%s", md)
	}
	html, _ := os.ReadFile(page)
	if link := fmt.Sprintf(`<a href="#q%d">baseline #%d</a>`, right[0].Index, right[0].Index); !strings.Contains(string(html), link) {
		t.Errorf("the HTML report does not link the disagreement to its drill-down (%s)", link)
	}
	// Without labels: the matrix only, written over the previous file.
	if code, out, _ := run("agreement", dir); code != exitOK || strings.Contains(out, "expert labels") || !strings.Contains(out, "Cohen's kappa between verdicts") {
		t.Errorf("agreement without labels: exit %d\n%s", code, out)
	}
	// agreement.json is an add-on: edited, the run reads as changed; removed, it does not.
	ag := filepath.Join(dir, rundir.AgreementFile)
	if err := os.WriteFile(ag, []byte(`{"labels": "forged", "verdicts": [], "matrix": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, md, _ := run("report", dir); !strings.Contains(md, "agreement.json differs from its recorded sha256") {
		t.Errorf("an edited agreement.json is not reported:\n%s", md)
	}
	if err := os.Remove(ag); err != nil {
		t.Fatal(err)
	}
	if _, md, _ := run("report", dir); strings.Contains(md, "changed") || strings.Contains(md, "Agreement of each verdict") {
		t.Errorf("a removed agreement.json reads as a change, or its section is still shown:\n%s", md)
	}
}

// TestAgreementRefuses: bad labels and a changed run are refused with what and where.
func TestAgreementRefuses(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run("eval", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot, "--out", dir, "--json",
		"--pred", "baseline="+f.Systems["baseline"], "--pred", "reviser="+f.Systems["reviser"]); code != exitOK {
		t.Fatalf("eval: %s", stderr)
	}
	write := func(body string) string {
		p := filepath.Join(t.TempDir(), "labels.jsonl")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no system", []string{"--labels", write(`{"index": 0, "label": "correct"}` + "\n")}, exitError, "line 1: bad label: no key system, and the run has 2 systems (baseline, reviser)"},
		{"bad label", []string{"--labels", write(`{"index": 0, "label": "yes"}` + "\n")}, exitError, `line 1: bad label: key label is "yes"`},
		{"unknown question", []string{"--labels", write(`{"index": 99999, "system": "baseline", "label": "correct"}` + "\n")}, exitError, "key index: the run has no question 99999"},
		{"missing file", []string{"--labels", filepath.Join(dir, "none.jsonl")}, exitUsage, "no such file"},
		{"unknown system", []string{"--system", "nobody"}, exitUsage, "--system nobody: the run has no such system"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(append([]string{"agreement", dir}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d saying %q", code, stderr, tc.code, tc.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.AgreementFile)); err == nil {
		t.Error("a refused agreement wrote agreement.json")
	}
	// A run whose records were changed is refused: its verdicts are not what it recorded.
	recs := filepath.Join(dir, "baseline", "records.jsonl")
	b, _ := os.ReadFile(recs)
	if err := os.WriteFile(recs, append(b, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run("agreement", dir); code == exitOK || !strings.Contains(stderr, "records.jsonl differs") {
		t.Errorf("changed run: exit %d %s", code, stderr)
	}
}

// regexpLine reports whether some line of out matches the pattern.
func regexpLine(out, pattern string) bool {
	re := regexp.MustCompile(pattern)
	for _, l := range strings.Split(out, "\n") {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}
