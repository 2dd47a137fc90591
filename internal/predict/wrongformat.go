package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrWrongFormat is a file that is no prediction format at all (CSV, a question file):
// read as Spider text it would score 0% on syntax errors without a word.
var ErrWrongFormat = errors.New("not a prediction file")

// Accepted lists the prediction formats, for messages that refuse a file.
const Accepted = `Spider text (one SQL per line, line i answers question i, optionally "SQL<TAB>db_id"), ` +
	`BIRD JSON ({"0": "SQL\t----- bird -----\tdb_id", ...}), a JSON list of SQL strings (["SELECT ...", ...]) ` +
	`or NL2SQLBench records (JSON array or JSONL with question_id and PREDICTED_SQL)`

// csvColumns are header names that say a first line is a table header, not SQL.
var csvColumns = map[string]bool{
	"sql": true, "query": true, "pred": true, "prediction": true, "predicted_sql": true, "pred_sql": true,
	"predicted": true, "generated_sql": true, "sql_query": true, "output": true, "answer": true,
	"question_id": true, "id": true, "idx": true, "index": true, "db_id": true, "question": true,
}

var (
	csvName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// sqlStart is a line that starts like a SQL statement: never a table header, even
	// when its select list reads "a,id,b".
	sqlStart = regexp.MustCompile(`(?i)^(\(|select\b|with\b|values\b|insert\b|update\b|delete\b|pragma\b|explain\b)`)
	// csvRow is a first line that starts with a number (perhaps quoted) and a comma: a
	// question number column. No SQL statement starts that way.
	csvRow = regexp.MustCompile(`^"?[0-9]+"?\s*,`)
	// csvQuoted is a first line that starts with a quoted field followed by a comma or
	// ends one: CSV quoting. No SQL statement starts with a double quote.
	csvQuoted = regexp.MustCompile(`^"[^"]*("")?.*",|^".*"$`)
)

// sniffText refuses text that detect would take for Spider predictions but that is a
// CSV (or TSV) table: a header naming SQL or id columns, a first field that is a
// question number, or CSV quoting. Only the first non-blank line is looked at; a Spider
// prediction line starts with SQL, never with these.
//
// CSV is refused rather than read: which column holds the SQL, whether the id column is
// a 0-based index or BIRD's question_id, and how a SQL with commas and quotes was
// escaped can only be guessed, and a wrong guess is a silently wrong score.
func (s *source) sniffText() error {
	path := s.path
	line, n, err := firstLine(s.lines())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if line == "" || sqlStart.MatchString(line) {
		return nil
	}
	what := ""
	for _, sep := range []string{",", "\t"} {
		if isHeader(line, sep) {
			what = fmt.Sprintf("a table header %q", abbrev(line))
			break
		}
	}
	if what == "" && (csvRow.MatchString(line) || csvQuoted.MatchString(line)) {
		what = fmt.Sprintf("comma-separated fields %q", abbrev(line))
	}
	if what == "" {
		return nil
	}
	return fmt.Errorf("%s:%d: this looks like a CSV/TSV table (%s), which nl2sqlbench does not read: "+
		"write the SQL column as Spider text, one SQL per line in question order; accepted formats: %s: %w",
		path, n, what, Accepted, ErrWrongFormat)
}

// isHeader reports whether line is sep-separated column names, at least two, one of
// them a name that SQL prediction tables use.
func isHeader(line, sep string) bool {
	fields := strings.Split(line, sep)
	if len(fields) < 2 {
		return false
	}
	known := false
	for _, f := range fields {
		f = strings.Trim(strings.TrimSpace(f), `"'`)
		if !csvName.MatchString(f) {
			return false
		}
		known = known || csvColumns[strings.ToLower(f)]
	}
	return known
}

// firstLine returns the first non-blank line, trimmed, and its 1-based number.
func firstLine(lr *lineReader) (string, int, error) {
	for n := 1; ; n++ {
		raw, _, ok, err := lr.next()
		if err != nil || !ok {
			return "", 0, err
		}
		if s := bytes.TrimSpace(raw); len(s) > 0 {
			return string(s), n, nil
		}
	}
}

func abbrev(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "..."
	}
	return s
}

// questionFileKey are the keys sniffArray looks for.
var questionFileKey = map[string]bool{"PREDICTED_SQL": true, "node_type": true, "query": true, "question": true,
	"db_id": true, "SQL": true, "evidence": true, "difficulty": true}

// sniffArray looks at a JSON array's first element: a string makes a SQL list; a
// question of Spider's or BIRD's question files is refused with the flag it belongs to.
func (s *source) sniffArray(start int64) (string, error) {
	path := s.path
	dec := json.NewDecoder(s.reader(start))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return "", s.valueError(start, err)
	}
	if !dec.More() {
		return FormatRecords, nil
	}
	// The first element, token by token: a string makes a list; of an object only the
	// top-level keys are kept. A fault in it is the records reader's to name.
	tok, err := dec.Token()
	if err != nil {
		return FormatRecords, nil
	}
	switch tok {
	case nil:
		return FormatList, nil
	case json.Delim('{'):
	default:
		if _, ok := tok.(string); ok {
			return FormatList, nil
		}
		return FormatRecords, nil
	}
	keys := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return FormatRecords, nil
		}
		if k, _ := tok.(string); questionFileKey[k] {
			keys[k] = true
		}
		if _, err := skipTokens(dec); err != nil {
			return FormatRecords, nil
		}
	}
	if _, err := dec.Token(); err != nil {
		return FormatRecords, nil
	}
	has := func(want ...string) bool {
		for _, k := range want {
			if !keys[k] {
				return false
			}
		}
		return true
	}
	if has("PREDICTED_SQL") || has("node_type") {
		return FormatRecords, nil
	}
	kind, name := "", ""
	switch {
	case has("query", "question", "db_id"):
		kind, name = "spider", "Spider"
	case has("SQL", "evidence", "difficulty", "db_id"):
		kind, name = "bird", "BIRD"
	}
	if kind == "" {
		return FormatRecords, nil
	}
	return "", fmt.Errorf("%s: this is a %s question file (its questions carry the gold SQL), not predictions: "+
		"give it as --dataset %s:%s and the system's output as --pred; accepted prediction formats: %s: %w",
		path, name, kind, path, Accepted, ErrWrongFormat)
}
