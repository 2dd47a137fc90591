package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAlternatives(t *testing.T) {
	dir := t.TempDir()
	bird := filepath.Join(dir, "dev.json")
	if err := os.WriteFile(bird, []byte(`[
{"question_id": 7, "db_id": "a", "question": "q0", "evidence": "", "SQL": "SELECT 1", "difficulty": "simple"},
{"question_id": 9, "db_id": "a", "question": "q1", "evidence": "", "SQL": "SELECT 2", "difficulty": "simple"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(alts string) (*Dataset, error) {
		p := filepath.Join(dir, "alts.jsonl")
		if err := os.WriteFile(p, []byte(alts), 0o644); err != nil {
			t.Fatal(err)
		}
		return Load(context.Background(), "bird:"+bird, Options{DBRoot: dir, Alternatives: p})
	}
	d, err := load(`{"question_id": 7, "sql": ["SELECT 1.0", "SELECT 1"]}

{"index": 1, "sql": ["SELECT 1 + 1"]}
{"question_id": "9", "sql": ["SELECT 4 / 2"]}
`)
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(d.Questions[0].Gold, " | "); g != "SELECT 1 | SELECT 1.0" {
		t.Errorf("question 0 golds %q, want the original then the new alternative (a repeat added once)", g)
	}
	if g := strings.Join(d.Questions[1].Gold, " | "); g != "SELECT 2 | SELECT 1 + 1 | SELECT 4 / 2" {
		t.Errorf("question 1 golds %q", g)
	}
	if d.Alternatives == "" {
		t.Error("the dataset does not record its alternatives file")
	}
	for _, c := range []struct{ name, alts, want string }{
		{"unknown id", `{"question_id": 8, "sql": ["SELECT 1"]}`, "line 1: bad alternative gold: question_id 8 is not a question"},
		{"unknown index", "\n" + `{"index": 5, "sql": ["SELECT 1"]}`, "line 2: bad alternative gold: index 5"},
		{"both", `{"index": 0, "question_id": 7, "sql": ["SELECT 1"]}`, "not both"},
		{"neither", `{"sql": ["SELECT 1"]}`, "no question_id or index"},
		{"no sql", `{"index": 0}`, "non-empty list"},
		{"sql a string", `{"index": 0, "sql": "SELECT 1"}`, "line 1"},
		{"empty sql", `{"index": 0, "sql": [" "]}`, "sql[0] is empty"},
		{"unknown field", `{"index": 0, "sql": ["SELECT 1"], "gold": []}`, "unknown field"},
		{"null id", `{"question_id": null, "sql": ["SELECT 1"]}`, "question_id: empty"},
	} {
		_, err := load(c.alts)
		if !errors.Is(err, ErrBadAlternative) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "alts.jsonl") {
			t.Errorf("%s: error %v, want ErrBadAlternative naming alts.jsonl and %q", c.name, err, c.want)
		}
	}
}
