package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestRescore reviews a demo run: baseline's answer to one question it got wrong is
// accepted, and the gold of another is replaced by reviser's answer to it (so reviser
// is then right there, by the judge's own comparison). The reviewed EX moves by exactly
// those questions; the records are untouched.
func TestRescore(t *testing.T) {
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
	base := readRecords(t, filepath.Join(dir, "baseline", "records.jsonl"))
	rev := readRecords(t, filepath.Join(dir, "reviser", "records.jsonl"))
	accept, regold := -1, -1
	for i := range base {
		if base[i].Verdict == record.Incorrect && accept < 0 {
			accept = base[i].Index
		}
		if rev[i].Verdict == record.Incorrect && base[i].Verdict == record.Incorrect && base[i].Index != accept && regold < 0 {
			regold = rev[i].Index
		}
	}
	if accept < 0 || regold < 0 {
		t.Fatalf("the demo has no question to review (accept %d, regold %d)", accept, regold)
	}
	lines := fmt.Sprintf(`{"index": %d, "system": "baseline", "decision": "accept"}`+"\n"+`{"index": %d, "decision": "gold_wrong", "sql": %q}`+"\n",
		accept, regold, rev[regold].PredSQL)
	if err := os.WriteFile(filepath.Join(dir, "reviews.jsonl"), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "baseline", "records.jsonl"))
	code, out, stderr := run("rescore", dir)
	if code != exitOK {
		t.Fatalf("rescore: exit %d: %s", code, stderr)
	}
	var got reviewedSummary
	data, err := os.ReadFile(filepath.Join(dir, reviewedFile))
	if err != nil || json.Unmarshal(data, &got) != nil || len(got.Systems) != 2 {
		t.Fatalf("reviewed.json: %v %s", err, data)
	}
	judged := got.Systems[0].Raw.Denominator
	for _, s := range got.Systems {
		delta := 1 // baseline: the accepted question; reviser: right against its own SQL
		if s.System == "baseline" && base[regold].PredSQL == rev[regold].PredSQL {
			delta = 2
		}
		want := *s.Raw.Value + float64(delta)/float64(judged)
		if d := *s.Reviewed.Value - want; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: reviewed EX %v, want raw %v + %d/%d; changed %v", s.System, *s.Reviewed.Value, *s.Raw.Value, delta, judged, s.Changed)
		}
		if !strings.Contains(out, s.Raw.Text+" "+s.Raw.CIText) || !strings.Contains(out, s.Reviewed.Text+" "+s.Reviewed.CIText) {
			t.Errorf("%s: raw and reviewed not printed side by side:\n%s", s.System, out)
		}
	}
	_, md, _ := run("report", dir)
	if !strings.Contains(md, "### Reviewed scores") || !strings.Contains(md, got.Systems[0].Reviewed.Text+" \\["+strings.TrimPrefix(got.Systems[0].Reviewed.CIText, "[")) {
		t.Errorf("the report does not show the reviewed scores:\n%s", md)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "baseline", "records.jsonl"))
	if string(before) != string(after) {
		t.Error("rescore changed records.jsonl")
	}
	checkExit(t, []string{"rescore", dir, "--reviews", filepath.Join(dir, "none.jsonl")}, exitError, "no reviews")
	// Corrected golds are judged under the run's --spider-mode, read from a run directory
	// the user did not write: a mode this build does not know is refused, by name.
	for _, name := range []string{"summary.json", "manifest.json"} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte(`"spider_mode": "official"`)) {
			t.Fatalf("%s: no spider_mode setting (%v)", name, err)
		}
		if err := os.WriteFile(p, bytes.ReplaceAll(b, []byte(`"spider_mode": "official"`), []byte(`"spider_mode": "bogus"`)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Sealed again, so that the run reads as written and the mode itself is what refuses.
	sum, err := rundir.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := rundir.Seal(dir, sum, nil); err != nil {
		t.Fatal(err)
	}
	checkExit(t, []string{"rescore", dir}, exitError, `manifest setting spider_mode: spider mode "bogus"`)
}
