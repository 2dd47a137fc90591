package dataset

import (
	"fmt"
	"os"
	"path/filepath"
)

// loadJSONL reads nl2sqlbench's own question format, for benchmarks of your own.
//
// # The JSONL question format
//
// One JSON object per line, UTF-8; blank lines are skipped. Keys:
//
//	question_id  string or number; optional, defaults to the 0-based position among the
//	             questions. Must be unique (numbers compare as text without decimals,
//	             so 7 and 7.0 are the same id).
//	db_id        required: the database the question is asked of.
//	question     the natural-language question.
//	evidence     optional external knowledge, as BIRD has.
//	gold         required: the gold SQL, a string, or an array of equally acceptable
//	             gold queries, at most 100 (a prediction matching any one is correct). "SQL" or
//	             "query" are accepted in its place.
//	difficulty   optional label used to break results down; default "unknown".
//
// Example:
//
//	{"question_id": "q1", "db_id": "shop", "question": "How many customers?", "gold": "SELECT count(*) FROM customer"}
//	{"question_id": "q2", "db_id": "shop", "question": "Cheapest item?", "gold": ["SELECT name FROM item ORDER BY price LIMIT 1", "SELECT name FROM item WHERE price = (SELECT min(price) FROM item)"], "difficulty": "medium"}
//
// Databases are SQLite files found under the file's directory (or --db-root) as
// <root>/<db_id>/<db_id>.sqlite, <root>/<db_id>.sqlite or
// <root>/databases/<db_id>/<db_id>.sqlite, the first that exists. A tables.json is
// optional; tables.json beside the file is used when present.
func loadJSONL(path string, opt Options) (*Dataset, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("read questions: %s is a directory; jsonl wants the .jsonl file itself: %w", path, ErrBadSpec)
	}
	objs, err := readLineObjects(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	tables, err := tablesFile(opt, filepath.Join(dir, "tables.json"))
	if err != nil {
		return nil, err
	}
	d := &Dataset{Kind: KindJSONL, Path: path, DBRoot: dir, Tables: tables}
	if opt.DBRoot != "" {
		d.DBRoot = opt.DBRoot
	}
	seen := map[string]int{} // question_id -> line
	for i, o := range objs {
		q, err := jsonlQuestion(path, o, i)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[q.ID]; dup {
			return nil, fmt.Errorf("%s:%d: question %d: question_id %q already used at line %d: %w", path, o.line, i, q.ID, prev, ErrDuplicateID)
		}
		seen[q.ID] = o.line
		d.Questions = append(d.Questions, q)
	}
	return d, nil
}

func jsonlQuestion(path string, o object, i int) (Question, error) {
	q, err := commonFields(path, o, i)
	if err != nil {
		return q, err
	}
	for _, key := range []string{"gold", "SQL", "query"} {
		if _, ok := o.fields[key]; !ok {
			continue
		}
		if q.Gold, err = o.strs(path, key); err != nil {
			return q, err
		}
		break
	}
	return q, check(path, o.line, &q)
}
