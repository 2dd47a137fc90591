package predict

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// refs builds questions 0..n-1 on db "d" with ids "q<i>" and texts "text <i>".
func refs(n int) []QuestionRef {
	qs := make([]QuestionRef, n)
	for i := range qs {
		qs[i] = QuestionRef{Index: i, ID: "q" + strconv.Itoa(i), DBID: "d", Text: "text " + strconv.Itoa(i)}
	}
	return qs
}

func TestPairOK(t *testing.T) {
	dup := refs(4)
	dup[3].ID, dup[3].Text = "q1", "text 1" // a question repeated verbatim, as in BIRD mini-dev
	tests := []struct {
		name    string
		content string
		qs      []QuestionRef
		opt     PairOptions
		wantSQL []string // "<nil>" for no prediction
	}{
		{"spider", "A\nB\tD\nC\n", refs(3), PairOptions{}, []string{"A", "B", "C"}},
		{"spider fewer lines, allow missing", "A\nB\n", refs(3), PairOptions{AllowMissing: true}, []string{"A", "B", "<nil>"}},
		{"spider subset, ignore extra", "A\nB\nC\n", refs(3)[1:2], PairOptions{IgnoreExtra: true}, []string{"B"}},
		{"bird out of order", `{"2": "C\t----- bird -----\td", "0": "A", "1": "B\t----- bird -----\tD"}`, refs(3), PairOptions{}, []string{"A", "B", "C"}},
		{"bird partial", `{"2": "C"}`, refs(3), PairOptions{AllowMissing: true}, []string{"<nil>", "<nil>", "C"}},
		{"records by id", `[{"question_id": "q1", "PREDICTED_SQL": "B"}, {"question_id": "q0", "db_id": "d", "PREDICTED_SQL": "A"}]`,
			refs(2), PairOptions{}, []string{"A", "B"}},
		{"records by text", "{\"node_type\": \"candidate_generation\", \"question\": \" text 1 \", \"SQL\": \"B\"}\n{\"node_type\": \"candidate_generation\", \"question\": \"text 0\", \"SQL\": \"A\"}\n",
			refs(2), PairOptions{}, []string{"A", "B"}},
		{"records repeated question gets one prediction", `[{"question_id": "q0", "PREDICTED_SQL": "A"}, {"question_id": "q1", "PREDICTED_SQL": "B"}, {"question_id": "q2", "PREDICTED_SQL": "C"}]`,
			dup, PairOptions{}, []string{"A", "B", "C", "B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Read(writeFile(t, "p", tt.content))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Pair(set, tt.qs, tt.opt)
			if err != nil {
				t.Fatalf("Pair: %v", err)
			}
			if len(got) != len(tt.qs) {
				t.Fatalf("Pair returned %d entries for %d questions", len(got), len(tt.qs))
			}
			for i, p := range got {
				sql := "<nil>"
				if p != nil {
					sql = p.SQL
				}
				if sql != tt.wantSQL[i] {
					t.Errorf("question %d paired with %q, want %q", i, sql, tt.wantSQL[i])
				}
			}
		})
	}
}

func TestPairErrors(t *testing.T) {
	twoDBs := refs(3)
	twoDBs[2].ID, twoDBs[2].DBID = "q1", "e" // same id as question 1, another db
	tests := []struct {
		name     string
		content  string
		qs       []QuestionRef
		opt      PairOptions
		sentinel error
		wantMsg  []string
	}{
		{"spider count mismatch", "A\nB\n", refs(3), PairOptions{}, ErrCountMismatch, []string{"2 lines for 3 questions"}},
		{"spider too many lines", "A\nB\nC\nD\n", refs(3), PairOptions{AllowMissing: true}, ErrCountMismatch, []string{"4 lines for 3 questions"}},
		{"spider db mismatch", "A\tx\nB\td\n", refs(2), PairOptions{}, ErrDBMismatch, []string{":1:", `key "0"`, `"x"`, `"d"`}},
		{"bird missing key", "{\"0\": \"A\",\n\"2\": \"C\"}", refs(3), PairOptions{}, ErrMissing, []string{`key "1"`, "question 1"}},
		{"bird count mismatch too", "{\"0\": \"A\",\n\"2\": \"C\"}", refs(3), PairOptions{}, ErrCountMismatch, []string{"2 predictions for 3 questions"}},
		{"bird unknown key", "{\"0\": \"A\",\n\"1\": \"B\",\n\"7\": \"C\"}", refs(2), PairOptions{}, ErrUnknownKey, []string{":3:", `key "7"`}},
		{"bird db mismatch", "{\"0\": \"A\\t----- bird -----\\td\",\n\"1\": \"B\\t----- bird -----\\tother\"}", refs(2), PairOptions{}, ErrDBMismatch,
			[]string{":2:", `key "1"`, `"other"`}},
		{"records missing", `[{"question_id": "q0", "PREDICTED_SQL": "A"}]`, refs(2), PairOptions{}, ErrMissing, []string{`key "q1"`}},
		{"records unknown id", "{\"question_id\": \"q0\", \"PREDICTED_SQL\": \"A\"}\n{\"question_id\": \"zz\", \"PREDICTED_SQL\": \"B\"}\n", refs(1), PairOptions{}, ErrUnknownKey,
			[]string{":2:", `key "zz"`}},
		{"records unknown text", "{\"node_type\": \"candidate_generation\", \"question\": \"what?\", \"SQL\": \"B\"}\n", refs(1), PairOptions{AllowMissing: true}, ErrUnknownKey,
			[]string{":1:", `key "what?"`, "question text"}},
		{"records db mismatch", "{\"question_id\": \"q0\", \"db_id\": \"zz\", \"PREDICTED_SQL\": \"A\"}\n", refs(1), PairOptions{}, ErrDBMismatch,
			[]string{":1:", `"zz"`}},
		{"records ambiguous id", "{\"question_id\": \"q1\", \"PREDICTED_SQL\": \"A\"}\n", twoDBs, PairOptions{AllowMissing: true}, ErrAmbiguous,
			[]string{":1:", `key "q1"`, "1, 2"}},
		{"records ambiguous text answered twice", "{\"question\": \"text 0\", \"node_type\": \"candidate_generation\", \"SQL\": \"A\"}\n",
			[]QuestionRef{{Index: 0, ID: "0", DBID: "d", Text: "text 0"}, {Index: 1, ID: "1", DBID: "e", Text: "text 0"}}, PairOptions{}, ErrAmbiguous,
			[]string{":1:", "0, 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "p", tt.content)
			set, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Pair(set, tt.qs, tt.opt)
			if err == nil {
				t.Fatalf("Pair succeeded (%d entries), want an error", len(got))
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %q does not wrap %v", err, tt.sentinel)
			}
			var pe *PairError
			if !errors.As(err, &pe) || pe.Path != path {
				t.Errorf("error %q is not a *PairError for %s", err, path)
			}
			for _, want := range append([]string{path}, tt.wantMsg...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

// A hand-built set can hold two predictions for one question; Pair must refuse it.
func TestPairDuplicate(t *testing.T) {
	set := &Set{Path: "p.jsonl", Format: FormatRecords, Items: []Prediction{
		{Key: "q0", Line: 1, SQL: "A"}, {Key: "q0", Line: 5, SQL: "B"},
	}}
	_, err := Pair(set, refs(1), PairOptions{})
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "p.jsonl:5") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("Pair of a duplicate: %v", err)
	}
}

// A wholly misaligned file lists at most maxProblems problems and counts the rest.
func TestPairCapsProblems(t *testing.T) {
	var items []Prediction
	for i := range 50 {
		items = append(items, Prediction{Key: "x" + string(rune('A'+i)), Line: i + 1})
	}
	set := &Set{Path: "p", Format: FormatRecords, Items: items}
	_, err := Pair(set, nil, PairOptions{})
	if err == nil || !strings.Contains(err.Error(), "and 30 more pairing problems") {
		t.Errorf("error %v does not cap the list", err)
	}
	if n := strings.Count(err.Error(), "\n"); n != maxProblems {
		t.Errorf("%d lines in the joined error, want %d", n+1, maxProblems+1)
	}
}

func TestPairUnknownFormat(t *testing.T) {
	if _, err := Pair(&Set{Format: "csv"}, nil, PairOptions{}); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Pair of an unknown format: %v", err)
	}
}
