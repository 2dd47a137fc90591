package predict

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRead: any file content, read as each format and auto-detected, gives either a Set
// or an error wrapping one of the package's sentinels and naming the file; nothing
// panics. Seeds are the shapes of real files: BIRD dev JSON, Spider dev text, C3's
// tab-indented lines, flat records, JSONL module records.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		"",
		"\n",
		"\xef\xbb\xbf{\"0\": \"SELECT 1\\t----- bird -----\\tdb\"}",
		"{\n    \"0\": \"SELECT count(*) FROM frpm WHERE `County Name` = 'Alameda'\\t----- bird -----\\tcalifornia_schools\",\n    \"1\": null\n}",
		"{\"0\": \"a\", \"0\": \"b\"}",
		"{\"01\": \"a\", \"1\": 2}",
		"{\"0\": \"x\"} trailing",
		"SELECT count(*) FROM singer\tconcert_singer\nSELECT name FROM singer\n",
		"SELECT a FROM t WHERE b IN (SELECT\tc FROM d)\n\n\r\nSELECT 1\r\n",
		"[{\"question_id\": 1, \"db_id\": \"d\", \"PREDICTED_SQL\": \"SELECT 1\"}]",
		"{\"question_id\": 1, \"db_id\": \"d\", \"question\": \"q\", \"PREDICTED_SQL\": \"x\", \"token_cost\": 3}\n",
		"{\"node_type\": \"schema_selection\", \"question\": \"q\", \"selected_schema\": {\"t\": [\"a\"]}}\n" +
			"{\"node_type\": \"candidate_generation\", \"question\": \"q\", \"SQL\": [\"SELECT 1\", \"SELECT 2\"]}\n" +
			"{\"node_type\": \"query_revision\", \"question\": \"q\", \"SQL\": \"SELECT 1\", \"input_tokens\": 1e400}\n",
		"[1, \"x\", null, [], {}]",
		"{\"a\": NaN}",
		"{{{{[[[[",
		"{\"0\": \"\xff\xfe\"}",
		"[\"SELECT 1\", null, \"SELECT 2\"]",
		"[\"SELECT 1\", 2]",
		"question_id,sql\n0,SELECT 1\n",
		"[{\"db_id\": \"d\", \"question\": \"q\", \"query\": \"SELECT 1\"}]",
	} {
		f.Add([]byte(seed))
	}
	sentinels := []error{ErrMalformed, ErrUnknownFormat, ErrDuplicate, ErrWrongFormat}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "pred.txt")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"", FormatBIRD, FormatSpider, FormatRecords, FormatList} {
			set, err := ReadFormat(path, format)
			if err != nil {
				if set != nil {
					t.Fatalf("ReadFormat(%q): a set and an error %v", format, err)
				}
				if !wrapsAny(err, sentinels) {
					t.Fatalf("ReadFormat(%q): error %v wraps no sentinel", format, err)
				}
				if !strings.Contains(err.Error(), path) {
					t.Fatalf("ReadFormat(%q): error %q does not name the file", format, err)
				}
				continue
			}
			if set == nil {
				t.Fatalf("ReadFormat(%q): no set and no error", format)
			}
			for i, p := range set.Items {
				if p.Line < 0 {
					t.Fatalf("ReadFormat(%q): item %d has line %d", format, i, p.Line)
				}
			}
		}
	})
}

func wrapsAny(err error, sentinels []error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
