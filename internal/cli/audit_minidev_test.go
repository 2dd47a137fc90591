package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestAuditMiniDevSuperhero audits BIRD mini-dev superhero with the 13 mini-dev SQLite
// systems (../shared) and checks the golds the public audits name: the ties and the
// unordered LIMIT, and the three the mechanical checks missed (#791 sentinel heights,
// #744 half an answer, #788 a share of the wrong set). Then it rescores the run with
// docs/examples' corrections and checks the ranks, the paired tests and what moved.
func TestAuditMiniDevSuperhero(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	bird := testutil.Shared(t, "data/bird")
	testutil.Shared(t, "data/bird/dev_databases/superhero/superhero.sqlite")
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:" + filepath.Join(bird, "mini_dev_sqlite.json"), "--db-root", filepath.Join(bird, "dev_databases"),
		"--db-id", "superhero", "--metrics", "ex", "--out", dir, "--json"}
	files, _ := filepath.Glob(filepath.Join(bird, "predictions", "mini_dev", "predict_mini_dev_*_[sS][qQ][lL]ite.json"))
	if len(files) != 13 {
		t.Fatalf("%d mini-dev SQLite prediction files, want 13", len(files))
	}
	for _, f := range files {
		args = append(args, "--pred", strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "predict_mini_dev_"), ".json")+"="+f)
	}
	if code, _, stderr := run(args...); code != exitOK {
		t.Fatalf("eval: %s", stderr)
	}
	corr := filepath.Join(testutil.RepoRoot(t), "docs", "examples", "superhero-minidev-corrections.jsonl")
	code, out, stderr := run("audit", "--run", dir, "--corrections", corr)
	if code != exitOK {
		t.Fatalf("audit: %s", stderr)
	}
	// Every gold judged wrong there was found by the audit (that is how the file was made).
	if !strings.Contains(out, "6 corrected golds audited (0 without a database); the audit flags 6, misses 0") {
		t.Errorf("audit --corrections: no coverage line:\n%s", out)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"question_id": 791, "sql": "SELECT 1"}`+"\n"+`{"question_id": 791}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run("audit", "--run", dir, "--corrections", bad); code == exitOK || !strings.Contains(stderr, bad+" line 2 (question_id 791): bad correction: the corrected SQL is missing or empty") {
		t.Errorf("a bad corrections file: exit %d, stderr %q", code, stderr)
	}
	got := map[string][]string{} // question id -> gold checks
	for _, f := range readFindings(t, filepath.Join(dir, "audit.jsonl")) {
		if f.Target == audit.TargetGold {
			got[f.QuestionID] = append(got[f.QuestionID], f.Check)
			if f.Confidence == "" {
				t.Errorf("#%s %s has no confidence", f.QuestionID, f.Check)
			}
		}
	}
	want := map[string]string{
		"736": "limit_tie", "766": "limit_tie", "794": "limit_tie", "751": "reverse_scan",
		"791": "all_differ,sentinel_value", "750": "sentinel_value", "744": "partial_answer", "829": "partial_answer",
		"788": "ratio_scope", "772": "consensus",
	}
	for id, w := range want {
		cs := got[id]
		sort.Strings(cs)
		if strings.Join(cs, ",") != w {
			t.Errorf("#%s: gold findings %v, want %s", id, cs, w)
		}
	}
	// Rescore with the corrections of the golds judged wrong.
	code, out, stderr = run("rescore", dir, "--corrections", corr)
	if code != exitOK {
		t.Fatalf("rescore --corrections: exit %d: %s", code, stderr)
	}
	var rv rundir.Reviewed
	data, err := os.ReadFile(filepath.Join(dir, reviewedFile))
	if err != nil || json.Unmarshal(data, &rv) != nil {
		t.Fatalf("reviewed.json: %v", err)
	}
	if rv.Count != 6 || rv.Corrections == "" || len(rv.Moved) != 6 {
		t.Fatalf("reviewed.json: %d reviews, corrections %q, %d moved; want 6, the file, 6", rv.Count, rv.Corrections, len(rv.Moved))
	}
	for _, m := range rv.Moved {
		if !m.GoldFixed {
			t.Errorf("moved #%d: not marked gold corrected", m.Index)
		}
		if m.QuestionID == "772" && (m.Before != 0 || m.After == 0) {
			t.Errorf("#772 (colour names for ids): right before %d, after %d; want 0 and some", m.Before, m.After)
		}
	}
	for _, s := range rv.Systems {
		if s.RankRaw < 1 || s.RankReviewed < 1 || s.Paired == nil || s.Paired.N != s.Raw.Judged {
			t.Errorf("%s: ranks %d/%d, paired %+v", s.System, s.RankRaw, s.RankReviewed, s.Paired)
		}
	}
	if !strings.Contains(out, "rank") || !strings.Contains(out, "#283 791 gold corrected") {
		t.Errorf("rescore output lacks ranks or the moved questions:\n%s", out)
	}
	_, md, _ := run("report", dir)
	if !strings.Contains(md, "rank reviewed") || !strings.Contains(md, "questions whose verdicts moved") || !strings.Contains(md, "gold by confidence") {
		t.Errorf("the report lacks the ranks, the moved questions or the confidences")
	}
	page := filepath.Join(t.TempDir(), "r.html")
	if code, _, stderr := run("report", dir, "--html", page, "--no-exec"); code != exitOK {
		t.Fatalf("report --html: %s", stderr)
	}
	if html, _ := os.ReadFile(page); !strings.Contains(string(html), "<b>audit sentinel_value:</b>") || !strings.Contains(string(html), "(confidence medium)") {
		t.Errorf("the html drill-down lacks a finding's confidence")
	}
}
