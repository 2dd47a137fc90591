package review

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func writeLabels(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "labels")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadLabels(t *testing.T) {
	tests := []struct {
		name, body, format string
		want               []string // per label: system/index-or-id/correct/note
		goldWrong          int
	}{
		{"labels", "{\"index\": 3, \"label\": \"correct\"}\n\n{\"question_id\": 718, \"system\": \"C3\", \"label\": \"incorrect\", \"note\": \"wrong column\"}\n{\"question_id\": \"q7\", \"label\": \"correct\"}\n",
			FormatLabels, []string{"/3/true/", "C3/718/false/wrong column", "/q7/true/"}, 0},
		{"reviews, last decision wins", "{\"index\": 1, \"system\": \"A\", \"decision\": \"accept\"}\n{\"index\": 2, \"decision\": \"gold_wrong\", \"sql\": \"SELECT 1\"}\n{\"index\": 1, \"system\": \"A\", \"decision\": \"reject\", \"note\": \"second look\"}\n{\"index\": 1, \"system\": \"B\", \"decision\": \"accept\"}\n",
			FormatReviews, []string{"A/1/false/second look", "B/1/true/"}, 1},
		{"nl2sql-bugs", `[{"id": 0, "question": "Q?", "db_id": "superhero", "sql": "SELECT 1", "label": true, "error_types": []},
 {"id": 1, "question": "Q?", "evidence": "e", "db_id": "superhero", "sql": "SELECT 2", "label": false, "error_types": [{"error_type": "Value-Related Errors", "sub_error_type": "Value Format"}]}]`,
			FormatNL2SQLBugs, []string{"//true/NL2SQL-BUGs id 0", "//false/NL2SQL-BUGs id 1 Value-Related Errors: Value Format"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := ReadLabels(writeLabels(t, tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if ls.Format != tc.format || ls.GoldWrong != tc.goldWrong {
				t.Errorf("format %s gold_wrong %d, want %s %d", ls.Format, ls.GoldWrong, tc.format, tc.goldWrong)
			}
			var got []string
			for _, l := range ls.Labels {
				key := l.QuestionID
				if l.Index != nil {
					key = strconv.Itoa(*l.Index)
				}
				got = append(got, l.System+"/"+key+"/"+map[bool]string{true: "true", false: "false"}[l.Correct]+"/"+l.Note)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("labels\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestReadLabelsRefuses: every bad entry is an error naming the file, the line or entry
// and the key.
func TestReadLabelsRefuses(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"empty", "\n \n", "holds no labels"},
		{"not json", "index 3 correct\n", "line 1"},
		{"bad label", "{\"index\": 3, \"label\": \"correct\"}\n{\"index\": 4, \"label\": \"right\"}\n", `line 2: bad label: key label is "right"`},
		{"no question", "{\"label\": \"correct\"}\n", "line 1: bad label: neither question_id nor index"},
		{"negative index", "{\"index\": -1, \"label\": \"correct\"}\n", "line 1: bad label: key index is negative"},
		{"unknown key", "{\"index\": 1, \"label\": \"correct\", \"verdict\": 1}\n", `line 1: bad label: json: unknown field "verdict"`},
		{"question_id object", "{\"question_id\": {}, \"label\": \"correct\"}\n", "line 1: bad label: key question_id: {} is not a string or an integer"},
		{"question_id fraction", "{\"question_id\": 1.5, \"label\": \"correct\"}\n", "key question_id: 1.5 is not"},
		{"bad review", "{\"index\": 1, \"decision\": \"accept\"}\n", "line 1: bad review: decision accept needs a system"},
		{"bugs no label", `[{"id": 0, "question": "Q", "db_id": "d", "sql": "S", "error_types": []}]`, "entry 1: bad label: key label is missing"},
		{"bugs no sql", `[{"id": 0, "question": "Q", "db_id": "d", "sql": " ", "label": true}]`, "entry 1: bad label: key sql is missing or empty"},
		{"bugs label text", `[{"id": 0, "question": "Q", "db_id": "d", "sql": "S", "label": true}, {"id": 1, "question": "Q", "db_id": "d", "sql": "S", "label": "yes"}]`, "entry 2: bad label: json: cannot unmarshal string"},
		{"bugs cut", `[{"id": 0, "question": "Q", "db_id": "d", "sql": "S", "label": true},`, "bad label"},
		{"bugs trailing", `[] []`, "data after the array"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeLabels(t, tc.body)
			_, err := ReadLabels(p)
			if err == nil {
				t.Fatalf("no error, want one saying %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name %s and say %q", err, p, tc.want)
			}
		})
	}
	if _, err := ReadLabels(filepath.Join(t.TempDir(), "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want os.ErrNotExist", err)
	}
}

func TestSameSQL(t *testing.T) {
	if !SameSQL("SELECT  a\n FROM t;", "SELECT a FROM t") || SameSQL("SELECT a FROM t", "SELECT b FROM t") {
		t.Error("SameSQL compares other than whitespace and a final semicolon")
	}
	if !SameQuestion(" What is  it? ", "What is it?") {
		t.Error("SameQuestion does not ignore whitespace")
	}
}
