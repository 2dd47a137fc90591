package review

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadCorrections(t *testing.T) {
	ids := map[string]int{"788": 3, "791": 5}
	index := func(id string) (int, bool) { i, ok := ids[id]; return i, ok }
	tests := []struct {
		name, text string
		want       string // index:sql;... or the error's part
		bad        bool
	}{
		{"jsonl", `{"question_id": 788, "sql": "SELECT 1", "note": "n"}` + "\n\n" + `{"question_id": "791", "sql": "SELECT 2"}`, "3:SELECT 1;5:SELECT 2", false},
		{"published list", `[{"question_id": 791, "db_id": "superhero", "question": "q", "SQL": "SELECT 2"}]`, "5:SELECT 2", false},
		{"unknown id", `{"question_id": 1, "sql": "SELECT 1"}`, "line 1: bad correction: question_id 1 is not in the run's dataset", true},
		{"unknown key", `{"question_id": 788, "query": "SELECT 1"}`, "line 1: bad correction", true},
		{"empty sql", `{"question_id": 788, "sql": " "}`, "line 1 (question_id 788): bad correction: the corrected SQL is missing or empty", true},
		{"list without SQL", `[{"question_id": 788}]`, "item 0: bad correction: key SQL is missing", true},
		{"list with a bad id", `[{"question_id": [1], "SQL": "x"}]`, "item 0: bad correction: key question_id: [1] is not a string or an integer", true},
		{"not a list", `[1, 2`, "bad correction: not a JSON list", true},
		// Issue 45, failure 11: two conflicting corrections of one question: the last won
		// silently. Now an error naming both; the same SQL twice is read once.
		{"conflicting corrections", `{"question_id": 788, "sql": "SELECT 1"}` + "\n" + `{"question_id": "791", "sql": "SELECT 2"}` + "\n" + `{"question_id": "788", "sql": "SELECT 3"}`,
			"line 3: bad correction: question_id 788 is corrected twice with different SQL (line 1 and line 3)", true},
		{"conflicting corrections in a list", `[{"question_id": 791, "SQL": "SELECT 2"}, {"question_id": 791, "SQL": "SELECT 9"}]`,
			"item 1: bad correction: question_id 791 is corrected twice with different SQL (item 0 and item 1)", true},
		{"the same correction twice", `{"question_id": 788, "sql": "SELECT 1"}` + "\n" + `{"question_id": 788, "sql": " SELECT 1 "}`, "3:SELECT 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			rs, err := ReadCorrections(path, index)
			if tt.bad {
				if err == nil || !errors.Is(err, ErrBadCorrection) || !strings.Contains(err.Error(), path+" "+strings.TrimPrefix(tt.want, "")) && !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err %v, want one containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				if r.Decision != GoldWrong {
					t.Errorf("decision %s", r.Decision)
				}
				got = append(got, strings.Join([]string{itoa(r.Index), r.SQL}, ":"))
			}
			if g := strings.Join(got, ";"); g != tt.want {
				t.Errorf("got %q, want %q", g, tt.want)
			}
		})
	}
	if _, err := ReadCorrections(filepath.Join(t.TempDir(), "none"), index); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+i))) }
