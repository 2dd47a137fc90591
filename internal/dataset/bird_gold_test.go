package dataset

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestBIRDGold loads BIRD's gold .sql with its question JSON: found beside it, named
// by Options.DiffJSON, absent (no difficulty, a warning), or not belonging to it.
func TestBIRDGold(t *testing.T) {
	const gold = "SELECT a FROM t\tshop\n\nSELECT b FROM t\tzoo\n"
	const qs = `[{"question_id": 7, "db_id": "shop", "question": "A?", "evidence": "e", "SQL": "x", "difficulty": "simple"},
 {"question_id": 9, "db_id": "zoo", "question": "B?", "evidence": "", "SQL": "y", "difficulty": "challenging"}]`
	dir := writeFiles(t, map[string]string{
		"mini_gold.sql": gold, "mini.json": qs,
		"lone_gold.sql": gold,
		"other.json":    strings.Replace(qs, `"zoo"`, `"farm"`, 1),
		"short.json":    `[{"question_id": 7, "db_id": "shop", "SQL": "x"}]`,
	})
	for _, tc := range []struct{ name, spec, diff string }{
		{"json beside", "bird:" + filepath.Join(dir, "mini_gold.sql"), ""},
		{"json named", "bird:" + filepath.Join(dir, "lone_gold.sql"), filepath.Join(dir, "mini.json")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := load(t, tc.spec, Options{DiffJSON: tc.diff})
			if len(d.Questions) != 2 || d.DiffJSON != filepath.Join(dir, "mini.json") {
				t.Fatalf("%d questions, diff json %q", len(d.Questions), d.DiffJSON)
			}
			q := d.Questions[1]
			if q.Index != 1 || q.ID != "9" || q.DBID != "zoo" || q.Text != "B?" || q.Difficulty != "challenging" || q.Gold[0] != "SELECT b FROM t" {
				t.Errorf("question 1 = %+v", q)
			}
		})
	}
	d := load(t, "bird:"+filepath.Join(dir, "lone_gold.sql"), Options{})
	if d.Questions[0].ID != "0" || d.Questions[0].Difficulty != Unknown || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "--diff-json") {
		t.Errorf("without a JSON: %+v, warnings %q", d.Questions[0], d.Warnings)
	}
	if _, err := Load(context.Background(), "bird:"+filepath.Join(dir, "mini.json"), Options{DiffJSON: filepath.Join(dir, "mini.json")}); !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), "--diff-json") {
		t.Errorf("--diff-json with a JSON dataset: %v", err)
	}
	for _, tc := range []struct{ name, diff, want string }{
		{"db_id disagrees", "other.json", `lone_gold.sql:3: question 1 is on db_id "zoo"`},
		{"count disagrees", "short.json", "has 1 questions but"},
	} {
		_, err := Load(context.Background(), "bird:"+filepath.Join(dir, "lone_gold.sql"), Options{DiffJSON: filepath.Join(dir, tc.diff)})
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.diff) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
