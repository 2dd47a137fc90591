package llmjudge

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

// What the prompt shows is bounded, so one question with a huge schema, result or
// query costs a bounded number of tokens.
const (
	maxTables     = 6    // tables sampled
	maxTableCols  = 30   // columns shown per table
	tableRows     = 3    // rows per table
	resultRows    = 5    // rows of each result
	maxCellRunes  = 80   // a cell's text
	maxTextRunes  = 4000 // the question, the evidence, each SQL
	maxAuditItems = 8    // audit findings
)

// Querier runs read-only queries on a database file (engine.SQLite).
type Querier interface {
	Query(ctx context.Context, path, query string, lim engine.Limits) (*engine.Result, error)
}

// input gathers what the judge is shown about rec. A fault (the database went away, the
// context ended) is an error; a query's own failure is shown as such.
func (j *Judge) input(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record, findings []audit.Finding) (*Input, error) {
	in := &Input{
		DBID: Data(rec.DBID), Question: Data(clip(q.Text, maxTextRunes)), Evidence: Data(clip(q.Evidence, maxTextRunes)),
		GoldSQL: Data(clip(rec.GoldSQL, maxTextRunes)), PredSQL: Data(clip(rec.PredSQL, maxTextRunes)),
		ExVerdict: Data(rec.Verdict), ErrorMessage: Data(clip(rec.ErrorMessage, 300)),
		ETM: Data(etmText(rec)), TSEX: Data(tsText(rec)), Categories: Taxonomy,
	}
	if c := rec.Counterexample; c != nil {
		in.Counterexample = JSONValue{counterexampleView(c)}
	}
	if len(findings) > 0 {
		type item struct {
			Check    string `json:"check"`
			Evidence string `json:"evidence"`
		}
		var items []item
		for _, f := range findings[:min(len(findings), maxAuditItems)] {
			items = append(items, item{f.Check, clip(f.Evidence, 300)})
		}
		in.Audit = JSONValue{items}
	}
	if dbPath == "" {
		return in, nil
	}
	var err error
	if in.GoldResult, err = j.sample(ctx, dbPath, rec.GoldSQL); err != nil {
		return nil, err
	}
	if rec.Verdict == record.Error {
		// It failed in the judge already (a timeout, say): not run again, its error shown.
		in.PredResult = Sample{Error: clip(rec.ErrorMessage, 300)}
	} else if in.PredResult, err = j.sample(ctx, dbPath, rec.PredSQL); err != nil {
		return nil, err
	}
	if in.Tables, err = j.tables(ctx, dbPath, rec); err != nil {
		return nil, err
	}
	return in, nil
}

func etmText(r *record.Record) string {
	if r.ETM == nil {
		return "not computed"
	}
	s := "no match"
	if *r.ETM == 1 {
		s = "match"
	}
	if len(r.ETMRules) > 0 {
		s += " (rules: " + strings.Join(r.ETMRules, ", ") + ")"
	}
	return s
}

func tsText(r *record.Record) string {
	if r.TSEX == nil {
		if r.TSNote != "" {
			return "not searched: " + r.TSNote
		}
		return ""
	}
	if *r.TSEX == 1 {
		return "no realistic counterexample found"
	}
	if r.Counterexample != nil {
		return "counterexample found"
	}
	return "not correct"
}

// counterexampleView is the counterexample as shown: both results and what it assumes.
func counterexampleView(c *record.Counterexample) any {
	return struct {
		Kind        string   `json:"kind,omitempty"`
		Assumes     []string `json:"assumes,omitempty"`
		GoldSuspect string   `json:"gold_suspect,omitempty"`
		Rows        int      `json:"rows_inserted"`
		Gold        Sample   `json:"gold_result"`
		Pred        Sample   `json:"predicted_result"`
	}{c.Kind, c.Assumes, c.GoldSuspect, c.Rows, tableSample(c.GoldResult), tableSample(c.PredResult)}
}

func tableSample(t record.ResultTable) Sample {
	s := Sample{Columns: t.Columns, TotalRows: len(t.Rows)}
	for i, row := range t.Rows {
		if i == resultRows {
			s.Truncated = true
			break
		}
		out := make([]any, len(row))
		for k, v := range row {
			out[k] = cell(v)
		}
		s.Rows = append(s.Rows, out)
	}
	return s
}

// sample runs sql for its first rows; a query that fails says so in the sample.
func (j *Judge) sample(ctx context.Context, dbPath, sql string) (Sample, error) {
	if strings.TrimSpace(sql) == "" {
		return Sample{Error: "no query"}, nil
	}
	res, err := j.db.Query(ctx, dbPath, sql, j.opt.Limits)
	if err != nil {
		if fault(ctx, err) {
			return Sample{}, err
		}
		return Sample{Error: clip(err.Error(), 300)}, nil
	}
	return resultSample(res, resultRows), nil
}

func resultSample(res *engine.Result, n int) Sample {
	s := Sample{Columns: res.Columns, TotalRows: res.NumRows(), Rows: [][]any{}}
	for i := range min(res.NumRows(), n) {
		row := make([]any, res.NumCols())
		for k := range row {
			row[k] = cell(res.Value(i, k))
		}
		s.Rows = append(s.Rows, row)
	}
	s.Truncated = res.NumRows() > n
	return s
}

// cell is a value as JSON shows it: blobs as X'..', non-finite reals and long text as
// text, clipped.
func cell(v any) any {
	switch x := v.(type) {
	case []byte:
		return clip("X'"+hex.EncodeToString(x)+"'", maxCellRunes)
	case string:
		return clip(x, maxCellRunes)
	case engine.DecimalText:
		return string(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
	}
	return v
}

// tables samples the tables either query uses (read from the SQL against the database's
// schema; by name when a query does not parse).
func (j *Judge) tables(ctx context.Context, dbPath string, rec *record.Record) (Tables, error) {
	sch, err := j.schemas.Introspect(ctx, dbPath)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil // no schema, no tables shown: the rest of the evidence stands
	}
	used := map[string]bool{}
	for _, sql := range []string{rec.GoldSQL, rec.PredSQL} {
		if u, err := sqlast.ExtractSchema(sql, sch); err == nil {
			for _, t := range u.Tables {
				used[strings.ToLower(t)] = true
			}
			continue
		}
		for _, t := range namedTables(sql, sch) {
			used[strings.ToLower(t)] = true
		}
	}
	var out Tables
	for _, t := range sch.Tables {
		if !used[strings.ToLower(t.Name)] || len(out) == maxTables {
			continue
		}
		cols := make([]string, 0, min(len(t.Columns), maxTableCols))
		for _, c := range t.Columns[:min(len(t.Columns), maxTableCols)] {
			cols = append(cols, c.Name)
		}
		q := "SELECT " + quoteList(cols) + " FROM " + quoteIdent(t.Name) + " LIMIT " + fmt.Sprint(tableRows)
		res, err := j.db.Query(ctx, dbPath, q, j.opt.Limits)
		tb := Table{Name: t.Name, Columns: cols, Rows: [][]any{}}
		if err != nil {
			if fault(ctx, err) {
				return nil, err
			}
		} else {
			tb.Rows = resultSample(res, tableRows).Rows
		}
		out = append(out, tb)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, nil
}

// namedTables are the schema's tables whose names appear as words in sql.
func namedTables(sql string, s *dbschema.Schema) []string {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(sql), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		words[w] = true
	}
	var out []string
	for _, t := range s.Tables {
		if words[strings.ToLower(t.Name)] {
			out = append(out, t.Name)
		}
	}
	return out
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return strings.Join(q, ", ")
}

// fault reports an error that says nothing about the query: it stops the run.
func fault(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, engine.ErrInfrastructure)
}
