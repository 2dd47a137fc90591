package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

type parseConfig struct {
	DatasetSpec  string
	Pred         string
	DBRoot       string
	Tables       string
	JSON         bool
	AllowMissing bool
}

// parseLine is one question's line of `parse --json`.
type parseLine struct {
	Index         int      `json:"index"`
	QuestionID    string   `json:"question_id"`
	DBID          string   `json:"db_id"`
	SQL           string   `json:"sql"`
	Parsed        bool     `json:"parsed"`
	Error         string   `json:"error"`
	Tables        []string `json:"tables"`
	Columns       []string `json:"columns"`
	Unresolved    []string `json:"unresolved"`
	Ambiguous     []string `json:"ambiguous"`
	UnknownTables []string `json:"unknown_tables,omitempty"`
}

func newParseCmd(e *env) *cobra.Command {
	cfg := parseConfig{}
	cmd := &cobra.Command{
		Use:   "parse --dataset KIND:PATH [--pred FILE] [--json]",
		Short: "Parse each gold query (or prediction) and say which tables and columns it uses",
		Long: `Parse every question's gold SQL (the first accepted one), or with --pred the system's
prediction, as SQLite SQL, resolve each column reference to its table, and report the
tables and columns used (the gold schema, for schema-linking research).

Each database's schema is read from its SQLite file when present, else from the
dataset's tables.json (BIRD dev ships only some databases; its tables.json has all).

With --json, one JSON object per question: index, question_id, db_id, sql, parsed,
error, tables, columns ("table.column"), unresolved, ambiguous (and unknown_tables when
a FROM names a table the schema lacks). Without it, a summary and every problem.`,
		Example: `  nl2sqlbench parse --dataset bird:../shared/data/bird/dev.json --json
  nl2sqlbench parse --dataset spider:../shared/data/spider --pred ../shared/data/spider/predictions/C3.txt`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.DatasetSpec == "" {
				return usagef("--dataset is required")
			}
			return runParse(cmd.Context(), e, cfg)
		},
	}
	f := cmd.Flags()
	bindDatasetFlags(f, &cfg.DatasetSpec, &cfg.DBRoot, &cfg.Tables, dataset.KindFlagHelp(dataset.QuestionFiles))
	f.StringVar(&cfg.Pred, "pred", "", "prediction file to parse instead of the gold SQL")
	f.BoolVar(&cfg.JSON, "json", false, "print one JSON object per question on stdout")
	f.BoolVar(&cfg.AllowMissing, "allow-missing", false, "accept a prediction file that leaves questions unanswered")
	return cmd
}

func runParse(ctx context.Context, e *env, cfg parseConfig) error {
	ds, err := dataset.Load(ctx, cfg.DatasetSpec, dataset.Options{DBRoot: cfg.DBRoot, Tables: cfg.Tables})
	if err != nil {
		return err
	}
	for _, w := range ds.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	sqls, err := parseTexts(ds, cfg)
	if err != nil {
		return err
	}
	schemas := newSchemaSource(ds)
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	var parsed, resolved, answered int
	var problems []string
	for i, q := range ds.Questions {
		if err := ctx.Err(); err != nil {
			return err
		}
		ln := parseLine{Index: q.Index, QuestionID: q.ID, DBID: q.DBID, SQL: sqls[i]}
		if sqls[i] != "" || cfg.Pred == "" {
			answered++
			ln.fill(ctx, schemas, q.DBID)
		} else {
			ln.Error = "no prediction"
		}
		if ln.Parsed {
			parsed++
		}
		ok := ln.Parsed && ln.Error == "" && len(ln.Unresolved)+len(ln.Ambiguous)+len(ln.UnknownTables) == 0
		if ok {
			resolved++
		}
		if cfg.JSON {
			if err := enc.Encode(&ln); err != nil {
				return err
			}
		} else if !ok {
			problems = append(problems, ln.problem())
		}
	}
	if cfg.JSON {
		return nil
	}
	for _, p := range problems {
		if _, err := fmt.Fprintln(e.stdout, p); err != nil {
			return err
		}
	}
	what := "gold queries"
	if cfg.Pred != "" {
		what = "predictions"
	}
	_, err = fmt.Fprintf(e.stdout, "%d questions, %d %s: %d parse (%.1f%%), %d parse with every reference resolved (%.1f%%)\n",
		len(ds.Questions), answered, what, parsed, pct(parsed, answered), resolved, pct(resolved, answered))
	return err
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// parseTexts returns the SQL to parse per question: the first gold query, or the paired
// prediction ("" where a question has none).
func parseTexts(ds *dataset.Dataset, cfg parseConfig) ([]string, error) {
	out := make([]string, len(ds.Questions))
	if cfg.Pred == "" {
		for i, q := range ds.Questions {
			if len(q.Gold) > 0 {
				out[i] = q.Gold[0]
			}
		}
		return out, nil
	}
	refs := make([]predict.QuestionRef, len(ds.Questions))
	for i, q := range ds.Questions {
		refs[i] = predict.QuestionRef{Index: q.Index, ID: q.ID, DBID: q.DBID, Text: q.Text}
	}
	set, err := predict.ReadFor(cfg.Pred, len(refs))
	if err != nil {
		return nil, err
	}
	preds, err := predict.Pair(set, refs, predict.PairOptions{AllowMissing: cfg.AllowMissing})
	if err != nil {
		return nil, err
	}
	for i, p := range preds {
		if p != nil {
			out[i] = p.SQL
		}
	}
	return out, nil
}

// fill parses and resolves ln.SQL against db's schema.
func (ln *parseLine) fill(ctx context.Context, schemas *schemaSource, db string) {
	q, err := sqlast.Parse(ln.SQL)
	if err != nil {
		ln.Error = err.Error()
		return
	}
	ln.Parsed = true
	s, err := schemas.get(ctx, db)
	if err != nil {
		ln.Error = err.Error()
		return
	}
	u, err := q.Use(s)
	if err != nil {
		ln.Error = err.Error()
		return
	}
	ln.Tables, ln.Columns, ln.Unresolved, ln.Ambiguous, ln.UnknownTables = u.Tables, u.Columns, u.Unresolved, u.Ambiguous, u.UnknownTables
}

// problem is the one-line account of a question that did not parse or resolve fully.
func (ln *parseLine) problem() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d (%s, %s):", ln.Index, ln.QuestionID, ln.DBID)
	if ln.Error != "" {
		fmt.Fprintf(&b, " %s", ln.Error)
	}
	if len(ln.Unresolved) > 0 {
		fmt.Fprintf(&b, " unresolved %s", strings.Join(ln.Unresolved, ", "))
	}
	if len(ln.Ambiguous) > 0 {
		fmt.Fprintf(&b, " ambiguous %s", strings.Join(ln.Ambiguous, ", "))
	}
	if len(ln.UnknownTables) > 0 {
		fmt.Fprintf(&b, " unknown tables %s", strings.Join(ln.UnknownTables, ", "))
	}
	return b.String()
}

// schemaSource gives each database's schema through dbschema.Source (its SQLite file
// when that exists, else the dataset's tables.json entry), saying where parse looked
// when neither has it.
type schemaSource struct {
	ds  *dataset.Dataset
	src *dbschema.Source
}

func newSchemaSource(ds *dataset.Dataset) *schemaSource {
	return &schemaSource{ds: ds, src: &dbschema.Source{Tables: ds.Tables}}
}

func (s *schemaSource) get(ctx context.Context, db string) (*dbschema.Schema, error) {
	path, _ := s.ds.DBPath(db)
	sc, err := s.src.Schema(ctx, db, path)
	switch {
	case !errors.Is(err, dbschema.ErrNoSchema):
		return sc, err
	case s.ds.Tables == "":
		return nil, fmt.Errorf("schema of db %q: no database file under %s and no tables.json", db, s.ds.DBRoot)
	}
	return nil, fmt.Errorf("schema of db %q: no database file under %s and not in %s", db, s.ds.DBRoot, s.ds.Tables)
}
