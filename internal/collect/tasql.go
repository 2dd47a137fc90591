package collect

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

// TA-SQL (Qu et al., "Before generation, align it!") caches one LLM response per stage and
// question, as <n>_<db_id>_<question_id>_<stage>_<sha256>.json holding a JSON string:
//
//   - dummy_sql: a preliminary SQL, which TA-SQL uses to select the schema;
//   - sr: a pandas-like intermediate representation (not a module record of its own);
//   - tmp_sql: the generated SQL.
//
// TASQL maps them to module records: schema_selection with the tables and columns the
// dummy SQL uses (sqlast.ExtractSchema against the database schema; when the dummy SQL
// does not parse, the schema's table and column names appearing in it as words, labelled
// schema_source "dummy_sql_lexical"), and candidate_generation with the tmp_sql SQL. SQL is
// taken from the first ```sql fenced block (else the whole response); a response that
// starts mid-statement (TA-SQL's prompt ends with SELECT) gets "SELECT " put back.
// Token counts are not in the traces: token_cost stays unset (unknown, not zero). Each
// trace file is one LLM response, so llm_calls is 1 for schema selection (dummy_sql) and 2
// for candidate generation (sr and tmp_sql).

var traceName = regexp.MustCompile(`^(\d+)_(.+)_([^_]+)_(dummy_sql|sr|tmp_sql)_([0-9a-f]{64})\.json$`)

// TASQLStats says how the traces were turned into records.
type TASQLStats struct {
	Questions      int `json:"questions"`
	Files          int `json:"files"`
	SchemaParsed   int `json:"schema_from_parsed_dummy_sql"`
	SchemaLexical  int `json:"schema_from_lexical_match"`
	PrefixedSelect int `json:"select_prefixed"`
}

type trace struct {
	dbID, qid string
	stage     map[string]string // stage -> file
}

// TASQL reads the TA-SQL traces in dir for the questions of ds and returns their module
// records in dataset order. <n> in a trace's name is the question's 0-based position in
// ds, and its db_id and question_id must agree with that question. schemaOf gives a
// database's schema. Every question of ds must have a dummy_sql and a tmp_sql trace; a
// trace for no question of ds, or a file name of another shape, is an error naming the
// file. A question repeated verbatim in ds (BIRD's mini-dev has two) is written once.
func TASQL(ctx context.Context, dir string, ds *dataset.Dataset, schemaOf func(ctx context.Context, dbID string) (*dbschema.Schema, error)) ([]predict.ModuleRecord, TASQLStats, error) {
	var st TASQLStats
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, st, fmt.Errorf("read traces: %w", err)
	}
	byN := map[int]*trace{}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		m := traceName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, st, fmt.Errorf("read traces: %s: name is not <n>_<db_id>_<question_id>_<stage>_<sha256>.json: %w", e.Name(), ErrBadTrace)
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n >= len(ds.Questions) {
			return nil, st, fmt.Errorf("read traces: %s: position %s is not a question of %s (%d questions): %w", e.Name(), m[1], ds.Path, len(ds.Questions), ErrBadTrace)
		}
		if q := ds.Questions[n]; q.DBID != m[2] || q.ID != m[3] {
			return nil, st, fmt.Errorf("read traces: %s: question %d of %s is %s (%s), not %s (%s): %w", e.Name(), n, ds.Path, q.ID, q.DBID, m[3], m[2], ErrBadTrace)
		}
		t := byN[n]
		if t == nil {
			t = &trace{dbID: m[2], qid: m[3], stage: map[string]string{}}
			byN[n] = t
		}
		if prev, dup := t.stage[m[4]]; dup {
			return nil, st, fmt.Errorf("read traces: %s: second %s trace for question %d (first %s): %w", e.Name(), m[4], n, prev, ErrBadTrace)
		}
		t.stage[m[4]] = e.Name()
		st.Files++
	}
	written := map[string]bool{}
	var nodes []predict.ModuleRecord
	for i, q := range ds.Questions {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		t := byN[i]
		if t == nil || t.stage["dummy_sql"] == "" || t.stage["tmp_sql"] == "" {
			return nil, st, fmt.Errorf("read traces: question %d, %s (%s): %w: want its dummy_sql and tmp_sql files in %s", i, q.ID, q.DBID, ErrMissing, dir)
		}
		key := q.DBID + "\x00" + q.ID
		if written[key] {
			continue
		}
		written[key] = true
		dummy, _, err := readSQL(filepath.Join(dir, t.stage["dummy_sql"]))
		if err != nil {
			return nil, st, err
		}
		final, prefixed, err := readSQL(filepath.Join(dir, t.stage["tmp_sql"]))
		if err != nil {
			return nil, st, err
		}
		if prefixed {
			st.PrefixedSelect++
		}
		s, err := schemaOf(ctx, q.DBID)
		if err != nil {
			return nil, st, fmt.Errorf("question %s: %w", q.ID, err)
		}
		sel, src := selectedSchema(dummy, s)
		if src == "dummy_sql" {
			st.SchemaParsed++
		} else {
			st.SchemaLexical++
		}
		st.Questions++
		ss := predict.ModuleRecord{
			ModuleOutput: predict.ModuleOutput{NodeType: predict.NodeSchemaSelection, QuestionID: predict.QuestionID(q.ID), DBID: q.DBID, Question: q.Text,
				ExtractedSchema: sel, LLMCalls: predict.CountOf(1)},
			ModuleDetails: predict.ModuleDetails{SchemaSource: src, Source: t.stage["dummy_sql"]},
		}
		gen := predict.ModuleRecord{
			ModuleOutput: predict.ModuleOutput{NodeType: predict.NodeCandidateGeneration, QuestionID: predict.QuestionID(q.ID), DBID: q.DBID, Question: q.Text,
				LLMCalls: predict.CountOf(2)},
			ModuleDetails: predict.ModuleDetails{Source: t.stage["tmp_sql"]},
		}
		if final != "" { // no SQL read: the node says none, not an empty candidate
			gen.SQL = predict.OneSQL(final)
		}
		nodes = append(nodes, ss, gen)
	}
	return nodes, st, nil
}

var (
	sqlFence   = regexp.MustCompile("(?s)```(?:sql|sqlite)?[ \t]*\n(.*?)```")
	startsStmt = regexp.MustCompile(`(?i)^\s*(select|with|values)\b`)
)

// readSQL reads one trace file (a JSON string) and returns the SQL in it.
func readSQL(path string) (sql string, prefixed bool, err error) {
	b, err := safefile.ReadFile(path, MaxConfigFile)
	if err != nil {
		return "", false, fmt.Errorf("read traces: %w", err)
	}
	var text string
	if err := json.Unmarshal(b, &text); err != nil {
		return "", false, fmt.Errorf("read traces: %s: not a JSON string: %v: %w", filepath.Base(path), err, ErrBadTrace)
	}
	sql, prefixed = ExtractSQL(text)
	return sql, prefixed, nil
}

// ExtractSQL takes the SQL out of an LLM response: the first ```sql fenced block, else
// the whole text; a trailing ';' is dropped, and "SELECT " is put back when the response
// starts mid-statement (prefixed reports that).
func ExtractSQL(text string) (sql string, prefixed bool) {
	sql = text
	if m := sqlFence.FindStringSubmatch(text); m != nil {
		sql = m[1]
	}
	sql = strings.TrimSpace(sql)
	sql = strings.TrimSpace(strings.TrimSuffix(sql, ";"))
	if sql != "" && !startsStmt.MatchString(sql) {
		return "SELECT " + sql, true
	}
	return sql, false
}

// selectedSchema is the schema the dummy SQL uses, or, when it does not parse, the
// schema's names that appear in it as words.
func selectedSchema(sql string, s *dbschema.Schema) (map[string][]string, string) {
	if u, err := sqlast.ExtractSchema(sql, s); err == nil {
		out := map[string][]string{}
		for _, t := range u.Tables {
			if _, ok := out[t]; !ok {
				out[t] = []string{}
			}
		}
		for _, c := range u.Columns {
			if t, col, ok := strings.Cut(c, "."); ok {
				out[t] = append(out[t], col)
			}
		}
		return out, "dummy_sql"
	}
	return lexicalSchema(sql, s), "dummy_sql_lexical"
}

var wordRe = regexp.MustCompile("[A-Za-z_][A-Za-z0-9_]*|`[^`]+`|\"[^\"]+\"|\\[[^\\]]+\\]")

// lexicalSchema selects every table whose name appears in sql as a word, and every column
// of those tables whose name does.
func lexicalSchema(sql string, s *dbschema.Schema) map[string][]string {
	words := map[string]bool{}
	for _, w := range wordRe.FindAllString(sql, -1) {
		w = strings.Trim(w, "`\"[]")
		words[strings.ToLower(w)] = true
	}
	out := map[string][]string{}
	if s == nil {
		return out
	}
	for _, t := range s.Tables {
		if !words[strings.ToLower(t.Name)] {
			continue
		}
		cols := []string{}
		for _, c := range t.Columns {
			if words[strings.ToLower(c.Name)] {
				cols = append(cols, c.Name)
			}
		}
		out[t.Name] = cols
	}
	return out
}
