package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestEvalAlternatives: on the demo questions written as a BIRD dev.json, an accepted
// alternative gold equal to a prediction judged incorrect makes that prediction correct;
// the manifest records the file, and --resume with a changed file is refused.
func TestEvalAlternatives(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	f := demoFiles(t)
	ds, err := dataset.Load(context.Background(), "jsonl:"+f.Questions, dataset.Options{DBRoot: f.DBRoot})
	if err != nil {
		t.Fatal(err)
	}
	var bird []map[string]any
	for _, q := range ds.Questions {
		bird = append(bird, map[string]any{"question_id": q.ID, "db_id": q.DBID, "question": q.Text, "evidence": "", "SQL": q.Gold[0], "difficulty": "simple"})
	}
	dir := t.TempDir()
	dev := filepath.Join(dir, "dev.json")
	b, _ := json.Marshal(bird)
	if err := os.WriteFile(dev, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(out string, extra ...string) []string {
		return append([]string{"eval", "--dataset", "bird:" + dev, "--db-root", f.DBRoot, "--pred", "b=" + f.Systems["baseline"],
			"--out", out, "--json", "--timeout", testTimeout.String()}, extra...)
	}
	records := func(out string) []record.Record {
		fh, err := os.Open(filepath.Join(out, "b", "records.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		recs, _, err := record.ReadJSONL(fh)
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	raw := filepath.Join(dir, "raw")
	if code, _, stderr := run(args(raw)...); code != 0 {
		t.Fatal(stderr)
	}
	var wrong *record.Record
	for _, r := range records(raw) {
		if r.Verdict == record.Incorrect {
			wrong = &r
			break
		}
	}
	if wrong == nil {
		t.Fatal("the demo baseline gets every question right")
	}
	alts := filepath.Join(dir, "alts.jsonl")
	lb, _ := json.Marshal(map[string]any{"question_id": wrong.QuestionID, "sql": []string{wrong.PredSQL}})
	line := string(lb) + "\n"
	if err := os.WriteFile(alts, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "alt")
	if code, _, stderr := run(args(out, "--alternatives", alts)...); code != 0 {
		t.Fatal(stderr)
	}
	for _, r := range records(out) {
		if r.Index == wrong.Index && r.Verdict != record.Correct {
			t.Errorf("question %d with its prediction as an accepted alternative is %s, want correct", r.Index, r.Verdict)
		}
	}
	m, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || !strings.Contains(string(m), `"alternatives"`) {
		t.Errorf("manifest.json does not record the alternatives file (%v)", err)
	}
	if err := os.WriteFile(alts, []byte(line+`{"index": 0, "sql": ["SELECT 1"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkExit(t, args(out, "--alternatives", alts, "--resume"), exitError, "alternatives file changed")
}
