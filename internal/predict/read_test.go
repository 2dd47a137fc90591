package predict

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func writeFile(tb testing.TB, name, content string) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"bird", `{"0": "SELECT 1\t----- bird -----\tdb"}`, FormatBIRD},
		{"bird with null", `{"0": null, "1": "x"}`, FormatBIRD},
		{"empty object", `{}`, FormatBIRD},
		{"bird after BOM and space", "\n  {\"0\": \"SELECT 1\"}\n", FormatBIRD},
		{"array", `[{"question_id": 1, "PREDICTED_SQL": "x"}]`, FormatRecords},
		{"jsonl", "{\"question_id\": 1}\n{\"question_id\": 2}\n", FormatRecords},
		{"one flat record of strings", `{"question_id": "1", "db_id": "d", "PREDICTED_SQL": "x"}`, FormatRecords},
		{"one node", `{"node_type": "candidate_generation", "question": "q", "SQL": "x", "token_cost": 3}`, FormatRecords},
		{"object with number values", `{"a": 1}`, FormatRecords},
		{"index keys with a number value", `{"0": "x", "1": 1}`, FormatBIRD},
		{"index keys, then more JSON", "{\"0\": \"x\"}\n{\"1\": \"y\"}\n", FormatBIRD},
		{"escaped index key", `{"\u0030": "x"}`, FormatBIRD},
		{"escaped record field", `{"question\u005fid": "1", "sql": "x"}`, FormatRecords},
		{"string values, then more JSON", "{\"a\": \"x\"}\n{\"a\": \"y\"}\n", FormatRecords},
		{"an object value holding a brace", `{"a": {"b": "}"}, "c": "d"}`, FormatRecords},
		{"string values holding braces", `{"a": "}{", "c": "\"}"}`, FormatBIRD},
		{"spider text", "SELECT 1\nSELECT 2\n", FormatSpider},
		{"empty file", "", FormatSpider},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Detect("p", []byte(tt.content))
			if err != nil {
				t.Fatalf("Detect: %v", err)
			}
			if got != tt.want {
				t.Errorf("Detect = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, content, format string
		sentinel              error
		wantMsg               []string // substrings of the message
	}{
		{"bird duplicate key", "{\n\"0\": \"a\",\n\"1\": \"b\",\n\"0\": \"c\"\n}", "", ErrDuplicate,
			[]string{":4:", `key "0"`, "line 2"}},
		{"bird duplicate index spelled differently", "{\n\"1\": \"a\",\n\"01\": \"b\"\n}", "", ErrDuplicate,
			[]string{":3:", `key "01"`, "line 2"}},
		{"bird non-integer key", "{\n\"0\": \"a\",\n\"q1\": \"b\"\n}", "bird", ErrMalformed,
			[]string{":3:", `key "q1"`}},
		{"bird negative key", "{\"-1\": \"a\"}", "bird", ErrMalformed, []string{`key "-1"`}},
		{"bird non-string value", "{\n\"0\": \"a\",\n\"1\": 5\n}", "bird", ErrMalformed, []string{":3:", `key "1"`}},
		{"bird non-string value detected", "{\n\"0\": \"a\",\n\"1\": [\"b\"]\n}", "", ErrMalformed, []string{":3:", `key "1"`}},
		{"bird followed by a second object", "{\"0\": \"a\"}\n{\"1\": \"b\"}\n", "", ErrMalformed, []string{":2:", "after the JSON object"}},
		{"bird not an object", "[\"a\"]", "bird", ErrMalformed, []string{":1:"}},
		{"bird broken json", "{\n\"0\": \"a\",\n\"1\" \"b\"\n}", "", ErrMalformed, []string{":3:"}},
		{"bird truncated", "{\n\"0\": \"a\",\n\"1\": \"b", "", ErrMalformed, []string{":3:", "unexpected end"}},
		{"bird trailing data", "{\"0\": \"a\"}\nxx", "bird", ErrMalformed, []string{":2:", "after the JSON object"}},
		{"records not object", "[\n{\"question_id\": 1, \"PREDICTED_SQL\": \"a\"},\n 7\n]", "", ErrMalformed,
			[]string{":3:", "element 1"}},
		{"records broken jsonl", "{\"question_id\": 1, \"PREDICTED_SQL\": \"a\"}\n\n{\"question_id\": 2,, }\n", "", ErrMalformed,
			[]string{":3:"}},
		{"records unknown node type", "{\"question\": \"q\", \"node_type\": \"ranking\", \"SQL\": \"a\"}\n", "", ErrMalformed,
			[]string{":1:", `"ranking"`}},
		{"records duplicate flat", "{\"question_id\": 1, \"PREDICTED_SQL\": \"a\"}\n{\"question_id\": 2, \"PREDICTED_SQL\": \"b\"}\n{\"question_id\": 1.0, \"PREDICTED_SQL\": \"c\"}\n",
			"", ErrDuplicate, []string{":3:", `question_id "1"`, "line 1"}},
		{"records two revisions", "{\"question_id\": 1, \"node_type\": \"candidate_generation\", \"SQL\": \"a\"}\n{\"question_id\": 1, \"node_type\": \"query_revision\", \"SQL\": \"b\"}\n{\"question_id\": 1, \"node_type\": \"revision\", \"SQL\": \"c\"}\n",
			"", ErrDuplicate, []string{":3:", `question_id "1"`, "query_revision", "line 2"}},
		{"records mixed keys", "{\"question_id\": 1, \"PREDICTED_SQL\": \"a\"}\n{\"question\": \"q\", \"node_type\": \"candidate_generation\", \"SQL\": \"b\"}\n",
			"", ErrMalformed, []string{":2:", "line 1"}},
		{"records no key", "{\"node_type\": \"candidate_generation\", \"SQL\": \"b\"}\n", "", ErrMalformed,
			[]string{":1:", "neither question_id nor question"}},
		{"records flat without sql", "{\"question_id\": 4, \"db_id\": \"d\"}\n", "", ErrMalformed,
			[]string{":1:", "PREDICTED_SQL"}},
		{"records db conflict", "{\"question_id\": 4, \"db_id\": \"a\", \"node_type\": \"candidate_generation\", \"SQL\": \"x\"}\n{\"question_id\": 4, \"db_id\": \"b\", \"node_type\": \"query_revision\", \"SQL\": \"y\"}\n",
			"", ErrMalformed, []string{":2:", `"b"`, `"a"`}},
		{"records bad count", "{\"question_id\": 4, \"PREDICTED_SQL\": \"x\", \"total_tokens\": 1.5}\n", "", ErrMalformed,
			[]string{":1:", "total_tokens", "integer"}},
		{"records bad sql type", "{\"question_id\": 4, \"PREDICTED_SQL\": {\"a\": 1}}\n", "", ErrMalformed,
			[]string{":1:", "PREDICTED_SQL"}},
		{"records duplicate key", "{\"question_id\": 4, \"PREDICTED_SQL\": \"x\"}\n{\"question_id\": 5, \"PREDICTED_SQL\": \"x\", \"PREDICTED_SQL\": \"y\"}\n", "", ErrMalformed,
			[]string{":2:", `key "PREDICTED_SQL" appears twice`}},
		{"records bad question_id", "{\"question_id\": true, \"PREDICTED_SQL\": \"x\"}\n", "", ErrMalformed,
			[]string{":1:", "question_id"}},
		{"unknown format", "x", "csv", ErrUnknownFormat, []string{`"csv"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "pred.json", tt.content)
			set, err := ReadFormat(path, tt.format)
			if err == nil {
				t.Fatalf("ReadFormat succeeded with %d items, want an error", len(set.Items))
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %q does not wrap %v", err, tt.sentinel)
			}
			msg := err.Error()
			for _, want := range append([]string{path}, tt.wantMsg...) {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
		})
	}
}

func TestReadMissingFile(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "nope.json"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope.json") {
		t.Errorf("Read of a missing file: %v", err)
	}
}

func TestReadBIRD(t *testing.T) {
	content := "{\r\n  \"1\": \"SELECT b\\t----- bird -----\\tdb_b\",\r\n" +
		"  \"0\": \"SELECT a\\nFROM t\\t----- bird -----\\tdb_a \",\r\n" +
		"  \"2\": \"SELECT c\",\r\n  \"3\": null\r\n}\r\n"
	set, err := Read(writeFile(t, "p.json", content))
	if err != nil {
		t.Fatal(err)
	}
	want := []Prediction{
		{Key: "1", Line: 2, DBID: "db_b", SQL: "SELECT b"},
		{Key: "0", Line: 3, DBID: "db_a", SQL: "SELECT a\nFROM t"},
		{Key: "2", Line: 4, SQL: "SELECT c"},
		{Key: "3", Line: 5},
	}
	if set.Format != FormatBIRD {
		t.Errorf("format %q", set.Format)
	}
	if diff := cmp.Diff(want, set.Items); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
}

func TestReadSpider(t *testing.T) {
	big := "SELECT '" + strings.Repeat("x", 1<<20+17) + "' FROM t"
	tests := []struct {
		name, content string
		want          []Prediction
	}{
		{"trailing newline adds nothing", "SELECT 1\nSELECT 2\n", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT 1"}, {Key: "1", Line: 2, SQL: "SELECT 2"}}},
		{"no trailing newline", "SELECT 1\nSELECT 2", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT 1"}, {Key: "1", Line: 2, SQL: "SELECT 2"}}},
		{"empty line is an empty prediction", "SELECT 1\n\n  \nSELECT 4\n", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT 1"}, {Key: "1", Line: 2}, {Key: "2", Line: 3}, {Key: "3", Line: 4, SQL: "SELECT 4"}}},
		{"final empty line after newline", "SELECT 1\n\n", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT 1"}, {Key: "1", Line: 2}}},
		{"CRLF", "SELECT 1\r\nSELECT 2\r\n", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT 1"}, {Key: "1", Line: 2, SQL: "SELECT 2"}}},
		{"tab then db_id", "  SELECT count(*) FROM singer \tconcert_singer\r\n", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT count(*) FROM singer", DBID: "concert_singer"}}},
		{"tabs inside the SQL", "SELECT id FROM t WHERE id IN ( \tSELECT id \tFROM u )\n", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT id FROM t WHERE id IN ( \tSELECT id \tFROM u )"}}},
		{"1 MB line", "SELECT 1\n" + big + "\nSELECT 3\n", []Prediction{
			{Key: "0", Line: 1, SQL: "SELECT 1"}, {Key: "1", Line: 2, SQL: big}, {Key: "2", Line: 3, SQL: "SELECT 3"}}},
		{"non-UTF-8 kept", "SELECT '\xff\xfe'\n", []Prediction{{Key: "0", Line: 1, SQL: "SELECT '\xff\xfe'"}}},
		{"byte-order mark dropped", "\xef\xbb\xbfSELECT 1\n", []Prediction{{Key: "0", Line: 1, SQL: "SELECT 1"}}},
		{"empty file", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := ReadFormat(writeFile(t, "p.txt", tt.content), "")
			if err != nil {
				t.Fatal(err)
			}
			if set.Format != FormatSpider {
				t.Errorf("format %q", set.Format)
			}
			if diff := cmp.Diff(tt.want, set.Items); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadRecords(t *testing.T) {
	tests := []struct {
		name, content string
		want          []Prediction
	}{
		{"flat records, array", `[
 {"question_id": 0, "db_id": "d", "PREDICTED_SQL": "SELECT 1", "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15, "call_llm_times": 2},
 {"question_id": "q-1", "db_id": "d", "PREDICTED_SQL": ["SELECT 2", "SELECT 3"]},
 {"question_id": 2.0, "PREDICTED_SQL": ["SELECT 4"], "prompt_tokens": 3, "completion_tokens": 4}
]`, []Prediction{
			{Key: "0", Line: 2, DBID: "d", SQL: "SELECT 1", Usage: record.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, LLMCalls: 2}},
			{Key: "q-1", Line: 3, DBID: "d", SQL: "SELECT 2", Candidates: []string{"SELECT 2", "SELECT 3"}},
			{Key: "2", Line: 4, SQL: "SELECT 4", Candidates: []string{"SELECT 4"}, Usage: record.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}},
		}},
		{"paper nodes without question_id, JSONL with blank lines and CRLF",
			"{\"node_type\": \"schema_selection\", \"question\": \"How many cards?\", \"extracted_schema\": {\"cards\": [\"id\", \"toughness\"]}, \"token_cost\": 1200, \"llm_calls\": 1}\r\n" +
				"\r\n" +
				"{\"node_type\": \"candidate_generation\", \"question\": \"How many cards?\", \"SQL\": \"SELECT COUNT(id) FROM cards\", \"token_cost\": 1200, \"llm_calls\": 1}\r\n" +
				"{\"node_type\": \"candidate_generation\", \"question\": \"Other?\", \"SQL\": [\"SELECT 1\", \"SELECT 2\"], \"token_cost\": 10, \"llm_calls\": 1}\r\n" +
				"{\"node_type\": \"query_revision\", \"question\": \"How many cards?\", \"SQL\": \"SELECT COUNT(*) FROM cards\", \"token_cost\": 1200, \"llm_calls\": 1}\r\n" +
				"{\"node_type\": \"schema_extraction\", \"question\": \"How many cards?\", \"extracted_schema\": {\"cards\": [\"id\", \"name\"], \"sets\": []}, \"token_cost\": 5, \"llm_calls\": 0}\r\n",
			[]Prediction{
				{Line: 1, Question: "How many cards?", SQL: "SELECT COUNT(*) FROM cards", Revised: true,
					Candidates:     []string{"SELECT COUNT(id) FROM cards"},
					SelectedSchema: map[string][]string{"cards": {"id", "toughness", "name"}, "sets": {}},
					Usage:          record.Usage{TotalTokens: 3605, LLMCalls: 3}},
				{Line: 4, Question: "Other?", SQL: "SELECT 1", Candidates: []string{"SELECT 1", "SELECT 2"},
					Usage: record.Usage{TotalTokens: 10, LLMCalls: 1}},
			}},
		{"nodes with question_id and PREDICTED_SQL", `{"question_id": 7, "db_id": "d", "node_type": "candidate_generation", "question": "q", "SQL": "A", "prompt_tokens": 2, "completion_tokens": 3, "llm_calls": 1, "latency_ms": 40}
{"question_id": "7", "node_type": "candidate_generation", "question": "q", "SQL": "B", "PREDICTED_SQL": "B", "total_tokens": 9, "token_cost": 100, "latency_ms": 2}
{"question_id": 8, "db_id": "d", "node_type": "revision", "question": "r", "SQL": "C"}
`, []Prediction{
			{Key: "7", Line: 1, DBID: "d", Question: "q", SQL: "B", Candidates: []string{"A", "B"},
				Usage: record.Usage{PromptTokens: 2, CompletionTokens: 3, TotalTokens: 14, LLMCalls: 1, LatencyMS: 42}},
			{Key: "8", Line: 3, DBID: "d", Question: "r", SQL: "C", Revised: true},
		}},
		{"empty node_type is a flat record; fields other tools add are not read",
			`{"question_id": 3, "node_type": "", "PREDICTED_SQL": "X", "strategy": {"name": "mine"}, "pass": "one", "votes": [0.5]}` + "\n",
			[]Prediction{{Key: "3", Line: 1, SQL: "X"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Read(writeFile(t, "r.jsonl", tt.content))
			if err != nil {
				t.Fatal(err)
			}
			if set.Format != FormatRecords {
				t.Errorf("format %q", set.Format)
			}
			if diff := cmp.Diff(tt.want, set.Items); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
		})
	}
}
