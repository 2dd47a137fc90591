package benchrun

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

// ParseConfig is what `parse` reads: a dataset and, optionally, a prediction file whose
// SQL is parsed instead of the gold.
type ParseConfig struct {
	DatasetSpec  string
	Pred         string
	DBRoot       string
	Tables       string
	AllowMissing bool
}

// Parser parses each question's SQL (its first gold query, or its paired prediction) and
// resolves it against the database's schema: the tables and columns it uses.
type Parser struct {
	Dataset *dataset.Dataset
	cfg     ParseConfig
	sqls    []string
	schemas *schemaSource
}

// NewParser loads the dataset; ReadTexts then reads what to parse.
func NewParser(ctx context.Context, cfg ParseConfig) (*Parser, error) {
	ds, err := dataset.Load(ctx, cfg.DatasetSpec, dataset.Options{DBRoot: cfg.DBRoot, Tables: cfg.Tables})
	if err != nil {
		return nil, err
	}
	return &Parser{Dataset: ds, cfg: cfg, schemas: newSchemaSource(ds)}, nil
}

// ReadTexts reads the SQL to parse per question (the prediction file, if any).
func (p *Parser) ReadTexts() error {
	sqls, err := parseTexts(p.Dataset, p.cfg)
	p.sqls = sqls
	return err
}

// Line parses question i's SQL; answered is false when a prediction file leaves the
// question without one.
func (p *Parser) Line(ctx context.Context, i int) (ln ParseLine, answered bool) {
	q := p.Dataset.Questions[i]
	ln = ParseLine{Index: q.Index, QuestionID: q.ID, DBID: q.DBID, SQL: p.sqls[i]}
	if p.sqls[i] == "" && p.cfg.Pred != "" {
		ln.Error = "no prediction"
		return ln, false
	}
	ln.fill(ctx, p.schemas, q.DBID)
	return ln, true
}

// ParseCounts are parse's totals: of the questions, those with SQL to parse (answered),
// those whose SQL parsed, and those that parsed with every reference resolved.
type ParseCounts struct {
	Questions, Answered, Parsed, Resolved int
}

// Each parses every question's SQL in dataset order (Line), hands each line to fn and
// counts them; it stops at fn's first error or when ctx ends.
func (p *Parser) Each(ctx context.Context, fn func(*ParseLine) error) (ParseCounts, error) {
	c := ParseCounts{Questions: len(p.Dataset.Questions)}
	for i := range p.Dataset.Questions {
		if err := ctx.Err(); err != nil {
			return c, err
		}
		ln, answered := p.Line(ctx, i)
		if answered {
			c.Answered++
		}
		if ln.Parsed {
			c.Parsed++
		}
		if ln.Resolved() {
			c.Resolved++
		}
		if err := fn(&ln); err != nil {
			return c, err
		}
	}
	return c, nil
}

// Resolved reports whether the SQL parsed and every reference in it resolved.
func (ln *ParseLine) Resolved() bool {
	return ln.Parsed && ln.Error == "" && len(ln.Unresolved)+len(ln.Ambiguous)+len(ln.UnknownTables) == 0
}

// ParseLine is one question's line of `parse --json`.
type ParseLine struct {
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

// parseTexts returns the SQL to parse per question: the first gold query, or the paired
// prediction ("" where a question has none).
func parseTexts(ds *dataset.Dataset, cfg ParseConfig) ([]string, error) {
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
func (ln *ParseLine) fill(ctx context.Context, schemas *schemaSource, db string) {
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

// schemaSource gives each database's schema through dbschema.Source (its SQLite file
// when that exists, else the dataset's tables.json entry), saying where it looked
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
