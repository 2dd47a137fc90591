package predict

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestDetectWrongFormats checks what Detect makes of files near the prediction
// formats: CSV/TSV tables and question files are refused with ErrWrongFormat, a JSON
// array of strings is a SQL list, and SQL that merely contains commas stays Spider text.
func TestDetectWrongFormats(t *testing.T) {
	tests := []struct {
		name, content, want string
		err                 error
	}{
		{"csv header", "question_id,sql\n0,SELECT 1\n", "", ErrWrongFormat},
		{"csv header quoted", "\"id\",\"prediction\"\n", "", ErrWrongFormat},
		{"csv number first", "12,SELECT a, b FROM t\n", "", ErrWrongFormat},
		{"csv quoted sql", "\"SELECT a, b FROM t\",db\n", "", ErrWrongFormat},
		{"tsv header", "db_id\tquery\n", "", ErrWrongFormat},
		{"spider questions", `[{"db_id": "d", "question": "q", "query": "SELECT 1"}]`, "", ErrWrongFormat},
		{"bird questions", `[{"question_id": 0, "db_id": "d", "question": "q", "evidence": "", "SQL": "SELECT 1", "difficulty": "simple"}]`, "", ErrWrongFormat},
		{"sql with commas", "SELECT a, b FROM t\nSELECT c FROM t\n", FormatSpider, nil},
		{"sql then db_id", "SELECT a, b FROM t\tdb\n", FormatSpider, nil},
		{"a word and commas is not a header", "hello, world\n", FormatSpider, nil},
		{"select list with a column named id", "SELECT a,id,b FROM t\n", FormatSpider, nil},
		{"lower-case select of header-like names", "select id,sql\n", FormatSpider, nil},
		{"sql list", `["SELECT 1", "SELECT 2"]`, FormatList, nil},
		{"sql list starting with null", `[null, "SELECT 2"]`, FormatList, nil},
		{"empty array", `[]`, FormatRecords, nil},
		{"records array", `[{"question_id": "1", "PREDICTED_SQL": "x"}]`, FormatRecords, nil},
		{"records with query and question", `[{"question_id": "1", "db_id": "d", "question": "q", "query": "x", "PREDICTED_SQL": "y"}]`, FormatRecords, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Detect("p", []byte(tt.content))
			if !errors.Is(err, tt.err) {
				t.Fatalf("Detect error %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("Detect = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRealTrailingBlankAndCSV is the case on real data: DAIL's Spider dev file
// with one more newline (1035 lines for 1034 questions, fatal before) pairs every
// question, and the same predictions as CSV are refused instead of scoring 0%.
func TestRealTrailingBlankAndCSV(t *testing.T) {
	src := testutil.Shared(t, "data/spider/predictions/DAIL.txt")
	qs := questionRefs(t, testutil.Shared(t, "data/spider/dev.json"))
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Read(writeFile(t, "DAIL.txt", string(data)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Items) != 1035 {
		t.Fatalf("%d lines read, want 1035", len(set.Items))
	}
	paired, err := Pair(set, qs, PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if paired[1033] == nil || paired[1033].Line != 1034 || paired[1033].SQL == "" {
		t.Errorf("last question paired with %+v", paired[1033])
	}
	var csv strings.Builder
	csv.WriteString("question_id,sql\n")
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		fmt.Fprintf(&csv, "%d,\"%s\"\n", i, strings.ReplaceAll(line, `"`, `""`))
	}
	if _, err := Read(writeFile(t, "DAIL.csv", csv.String())); !errors.Is(err, ErrWrongFormat) {
		t.Errorf("CSV read: %v, want ErrWrongFormat", err)
	}
}
