package predict

import (
	"errors"
	"testing"
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
