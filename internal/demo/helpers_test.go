package demo

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildDemo materializes the embedded demo into a fresh temporary directory.
func buildDemo(tb testing.TB) *Files {
	tb.Helper()
	f, err := Materialize(context.Background(), tb.TempDir())
	if err != nil {
		tb.Fatalf("Materialize: %v", err)
	}
	return f
}

// question is one line of questions.jsonl, as the test reads it.
type question struct {
	ID         string          `json:"question_id"`
	DBID       string          `json:"db_id"`
	Text       string          `json:"question"`
	Evidence   string          `json:"evidence"`
	RawGold    json.RawMessage `json:"gold"`
	Difficulty string          `json:"difficulty"`
	Gold       []string        `json:"-"`
}

// readJSONL decodes every non-blank line of path into a fresh T, strictly (unknown
// fields are errors, so a typo in a field name cannot slip through).
func readJSONL[T any](tb testing.TB, path string) []T {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var v T
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			tb.Fatalf("%s:%d: %v", filepath.Base(path), n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func readQuestions(tb testing.TB, path string) []question {
	tb.Helper()
	qs := readJSONL[question](tb, path)
	for i := range qs {
		q := &qs[i]
		var one string
		if err := json.Unmarshal(q.RawGold, &one); err == nil {
			q.Gold = []string{one}
		} else if err := json.Unmarshal(q.RawGold, &q.Gold); err != nil {
			tb.Fatalf("%s: gold is neither a string nor an array of strings: %s", q.ID, q.RawGold)
		}
	}
	return qs
}

// sysLine is either a flat record or a module node; the fields of both are listed so that
// DisallowUnknownFields catches stray names.
type sysLine struct {
	QuestionID string `json:"question_id"`
	DBID       string `json:"db_id"`
	// flat record
	PredictedSQL     *string `json:"PREDICTED_SQL"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	TotalTokens      int     `json:"total_tokens"`
	CallLLMTimes     int     `json:"call_llm_times"`
	// module node
	NodeType        string              `json:"node_type"`
	Question        string              `json:"question"`
	ExtractedSchema map[string][]string `json:"extracted_schema"`
	SQL             *string             `json:"SQL"`
	TokenCost       int                 `json:"token_cost"`
	LLMCalls        int                 `json:"llm_calls"`
}

// answer is a system's output for one question, grouped the way the brief defines it.
type answer struct {
	DBID       string
	Flat       bool
	Final      string // the SQL the judge scores
	Candidates []string
	Revised    bool
	Schema     map[string][]string
	Tokens     int
	Calls      int
}

// readSystem groups a system file by question_id.
func readSystem(tb testing.TB, path string) map[string]*answer {
	tb.Helper()
	out := map[string]*answer{}
	for _, l := range readJSONL[sysLine](tb, path) {
		a := out[l.QuestionID]
		if a == nil {
			a = &answer{DBID: l.DBID}
			out[l.QuestionID] = a
		}
		if a.DBID != l.DBID {
			tb.Fatalf("%s: %s has db_id %q and %q", filepath.Base(path), l.QuestionID, a.DBID, l.DBID)
		}
		switch {
		case l.PredictedSQL != nil:
			if a.Final != "" || a.Flat {
				tb.Fatalf("%s: duplicate flat record for %s", filepath.Base(path), l.QuestionID)
			}
			a.Flat, a.Final = true, *l.PredictedSQL
			a.Tokens, a.Calls = l.TotalTokens, l.CallLLMTimes
			if l.TotalTokens != l.PromptTokens+l.CompletionTokens {
				tb.Errorf("%s: %s: total_tokens %d != prompt %d + completion %d", filepath.Base(path),
					l.QuestionID, l.TotalTokens, l.PromptTokens, l.CompletionTokens)
			}
		case l.NodeType == "schema_selection":
			a.Schema = l.ExtractedSchema
		case l.NodeType == "candidate_generation" && l.SQL != nil:
			a.Candidates = append(a.Candidates, *l.SQL)
		case l.NodeType == "query_revision" && l.SQL != nil:
			a.Revised, a.Final = true, *l.SQL
		default:
			tb.Fatalf("%s: %s: unexpected line (node_type %q)", filepath.Base(path), l.QuestionID, l.NodeType)
		}
		if !a.Flat {
			a.Tokens += l.TokenCost
			a.Calls += l.LLMCalls
			if l.Question == "" {
				tb.Errorf("%s: %s: module node without question text", filepath.Base(path), l.QuestionID)
			}
		}
	}
	for _, a := range out {
		if !a.Flat && !a.Revised && len(a.Candidates) > 0 {
			a.Final = a.Candidates[0]
		}
	}
	return out
}

// openRO opens a built demo database read-only.
func openRO(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// result is what a query returned, each value rendered with its Go type so that 1 and
// 1.0 and "1" stay apart.
type result struct {
	Columns []string
	Rows    [][]string
}

// runQuery executes q and reads at most maxRows+1 rows (0: no cap).
func runQuery(ctx context.Context, db *sql.DB, q string, maxRows int) (*result, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	res := &result{Columns: cols}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			row[i] = fmt.Sprintf("%T:%v", v, v)
		}
		res.Rows = append(res.Rows, row)
		if maxRows > 0 && len(res.Rows) > maxRows {
			break
		}
	}
	return res, rows.Err()
}

func rowKey(r []string) string { return strings.Join(r, "\x1f") }

// asSet is BIRD's view of a result: a set of rows.
func asSet(r *result) map[string]bool {
	s := map[string]bool{}
	for _, row := range r.Rows {
		s[rowKey(row)] = true
	}
	return s
}

// asBag is Spider's view of an unordered result: rows with multiplicity.
func asBag(r *result) map[string]int {
	s := map[string]int{}
	for _, row := range r.Rows {
		s[rowKey(row)]++
	}
	return s
}

func sameSet(a, b *result) bool {
	x, y := asSet(a), asSet(b)
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if !y[k] {
			return false
		}
	}
	return true
}

func sameBag(a, b *result) bool {
	x, y := asBag(a), asBag(b)
	if len(x) != len(y) {
		return false
	}
	for k, n := range x {
		if y[k] != n {
			return false
		}
	}
	return true
}

func sameList(a, b *result) bool {
	if len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := range a.Rows {
		if rowKey(a.Rows[i]) != rowKey(b.Rows[i]) {
			return false
		}
	}
	return true
}

// reversedColumns returns r with its columns in reverse order (for two-column results,
// the other order).
func reversedColumns(r *result) *result {
	out := &result{}
	for _, row := range r.Rows {
		n := make([]string, len(row))
		for i := range row {
			n[len(row)-1-i] = row[i]
		}
		out.Rows = append(out.Rows, n)
	}
	return out
}
