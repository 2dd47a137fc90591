package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzTables is a Spider tables.json for concert_singer, so that Spider loads also
// derive hardness from the fuzzed gold SQL.
const fuzzTables = `[{"db_id": "concert_singer",
 "table_names_original": ["singer", "concert"],
 "table_names": ["singer", "concert"],
 "column_names_original": [[-1, "*"], [0, "singer_id"], [0, "name"], [0, "age"], [1, "concert_id"], [1, "singer_id"]],
 "column_names": [[-1, "*"], [0, "singer id"], [0, "name"], [0, "age"], [1, "concert id"], [1, "singer id"]],
 "column_types": ["text", "number", "text", "number", "number", "number"],
 "primary_keys": [1, 4], "foreign_keys": [[5, 1]]}]`

// FuzzLoad: any question file content, loaded as BIRD JSON, Spider JSON, a Spider gold
// file and JSONL, gives either questions that each have a db_id, a non-empty gold and a
// difficulty, or an error that wraps a sentinel and names the file; nothing panics.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		"",
		"[]",
		"\xef\xbb\xbf[]",
		birdDev,
		`[{"question_id": 1471, "db_id": "debit_card_specializing", "question": "q?", "evidence": "e", "SQL": "SELECT COUNT(*) FROM customers WHERE Segment = 'LAM'", "difficulty": "simple"}]`,
		`[{"db_id": "concert_singer", "query": "SELECT count(*) FROM singer", "query_toks": ["SELECT"], "question": "How many singers?", "sql": {}}]`,
		"SELECT count(*) FROM singer\tconcert_singer\n\nSELECT name FROM singer WHERE age > 3\tconcert_singer\n",
		"{\"question_id\": \"q1\", \"db_id\": \"concert_singer\", \"question\": \"?\", \"gold\": \"SELECT 1\"}\n" +
			"{\"question_id\": 7.0, \"db_id\": \"d\", \"gold\": [\"SELECT 1\", \"SELECT 2\"], \"difficulty\": \"hard\"}\n",
		`{"question_id": 1e400, "db_id": "d", "gold": "x"}`,
		`[{"db_id": "../etc", "SQL": "x"}]`,
		`[{"db_id": 3, "SQL": ["x"]}]`,
		"[{\"db_id\": \"d\", \"SQL\": \"x\"}\n",
		"[[[[[[[[[[[[[[[[[[[[",
		"\xff\xfe[]",
		"SELECT 1\r\nSELECT 2\td\r\n",
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tables.json"), []byte(fuzzTables), 0o644); err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range []struct{ kind, file string }{
			{KindBIRD, "dev.json"},
			{KindSpider, "dev.json"},
			{KindSpider, "dev_gold.sql"},
			{KindJSONL, "questions.jsonl"},
		} {
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := Load(ctx, c.kind+":"+path, Options{})
			if err != nil {
				if d != nil {
					t.Fatalf("%s %s: a dataset and an error %v", c.kind, c.file, err)
				}
				if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrMissing) && !errors.Is(err, ErrDuplicateID) {
					t.Fatalf("%s %s: error %v wraps no sentinel", c.kind, c.file, err)
				}
				if !strings.Contains(err.Error(), path) {
					t.Fatalf("%s %s: error %q does not name the file", c.kind, c.file, err)
				}
				continue
			}
			for i, q := range d.Questions {
				if q.Index != i || q.DBID == "" || len(q.Gold) == 0 || q.Difficulty == "" {
					t.Fatalf("%s %s: question %d is incomplete: %+v", c.kind, c.file, i, q)
				}
			}
		}
	})
}
