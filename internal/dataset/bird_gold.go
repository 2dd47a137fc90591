package dataset

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// isGoldText reports whether a question file is BIRD's gold .sql ("SQL<TAB>db_id" per
// line) rather than its JSON: no JSON file starts with anything but '[' or '{'.
func isGoldText(data []byte) bool {
	s := bytes.TrimLeft(data, " \t\r\n")
	return len(s) > 0 && s[0] != '[' && s[0] != '{'
}

// DiffJSONFor is the question JSON that BIRD ships beside a gold .sql file:
// mini_dev_sqlite_gold.sql -> mini_dev_sqlite.json, dev_gold.sql or dev.sql -> dev.json.
func DiffJSONFor(gold string) string {
	stem := strings.TrimSuffix(filepath.Base(gold), filepath.Ext(gold))
	stem = strings.TrimSuffix(stem, "_gold")
	return filepath.Join(filepath.Dir(gold), stem+".json")
}

// birdGold reads BIRD's gold .sql, as BIRD's scripts take it with --ground_truth_path:
// line i is "SQL<TAB>db_id" for question i (the db_id is after the last tab; blank
// lines are skipped, as Spider's gold reader does).
//
// The difficulty comes, as with BIRD's --diff_json_path, from the question JSON:
// Options.DiffJSON, else the JSON BIRD ships beside the .sql (DiffJSONFor) when it
// exists. The JSON also gives each question its question_id, text and evidence; it must
// have as many questions as the .sql has lines and the same db_id on each, or the two
// files do not belong together and loading fails. Without a JSON, questions are
// numbered by line and have no difficulty (a warning says how to add it).
func birdGold(d *Dataset, data []byte, opt Options) error {
	type goldLine struct {
		line int
		q    Question
	}
	var lines []goldLine
	for n, raw := range bytes.Split(data, []byte{'\n'}) {
		line := strings.TrimSpace(string(raw))
		if line == "" {
			continue
		}
		i := len(lines)
		q, err := goldLineQuestion(d.Path, n+1, i, line, `"SQL<TAB>db_id" (BIRD's gold .sql)`)
		if err != nil {
			return err
		}
		lines = append(lines, goldLine{n + 1, q})
	}
	diff := opt.DiffJSON
	if diff == "" {
		if fi, err := os.Stat(DiffJSONFor(d.Path)); err == nil && !fi.IsDir() {
			diff = DiffJSONFor(d.Path)
		}
	}
	var info []Question
	if diff != "" {
		var err error
		if info, err = diffQuestions(diff); err != nil {
			return err
		}
		if len(info) != len(lines) {
			return fmt.Errorf("%s has %d questions but %s has %d gold lines: they are not the same question set: %w",
				diff, len(info), d.Path, len(lines), ErrMalformed)
		}
		d.DiffJSON = diff
	} else {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: no difficulty for its questions: give BIRD's question JSON with --diff-json FILE (as BIRD's --diff_json_path)", d.Path))
	}
	seen := map[string]int{} // question_id -> line, warned about as loadBIRD does
	for i, gl := range lines {
		q := gl.q
		if info != nil {
			j := info[i]
			if !strings.EqualFold(strings.TrimSpace(j.DBID), q.DBID) {
				return fmt.Errorf("%s:%d: question %d is on db_id %q but %s says %q: the gold .sql and the question JSON do not belong together: %w",
					d.Path, gl.line, i, q.DBID, diff, j.DBID, ErrMalformed)
			}
			q.ID, q.Text, q.Evidence, q.Difficulty = j.ID, j.Text, j.Evidence, j.Difficulty
		}
		if err := check(d.Path, gl.line, &q); err != nil {
			return err
		}
		if prev, dup := seen[q.ID]; dup {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: question %d repeats question_id %s (first at line %d)", d.Path, gl.line, i, q.ID, prev))
		} else {
			seen[q.ID] = gl.line
		}
		d.Questions = append(d.Questions, q)
	}
	return nil
}

// diffQuestions reads a BIRD question JSON for what a gold .sql lacks (its own gold SQL
// is not used: the .sql is the gold, as in BIRD's scripts).
func diffQuestions(path string) ([]Question, error) {
	data, err := readText(path)
	if err != nil {
		return nil, fmt.Errorf("difficulty file: %w", err)
	}
	objs, err := arrayObjects(path, data)
	if err != nil {
		return nil, fmt.Errorf("difficulty file: %w", err)
	}
	qs := make([]Question, len(objs))
	for i, o := range objs {
		if qs[i], err = commonFields(path, o, i); err != nil {
			return nil, fmt.Errorf("difficulty file: %w", err)
		}
	}
	return qs, nil
}

// goldLineQuestion is question i from line lineNo of a gold .sql file, "SQL<TAB>db_id"
// (the last tab splits it); form names the expected layout in the error.
func goldLineQuestion(path string, lineNo, i int, line, form string) (Question, error) {
	tab := strings.LastIndexByte(line, '\t')
	if tab < 0 {
		return Question{}, fmt.Errorf("%s:%d: question %d: want %s, found no tab: %w", path, lineNo, i, form, ErrMissing)
	}
	q := Question{Index: i, ID: strconv.Itoa(i), DBID: strings.TrimSpace(line[tab+1:])}
	if sql := strings.TrimSpace(line[:tab]); sql != "" {
		q.Gold = []string{sql}
	}
	return q, nil
}
