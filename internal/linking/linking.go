package linking

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/memo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

// Sources of a predicted schema (record.PredSchemaSource).
const (
	SourceReported = "reported"
	SourcePredSQL  = "pred_sql"
)

// ErrNoSchema reports a database whose schema is neither in a SQLite file nor in tables.json.
var ErrNoSchema = dbschema.ErrNoSchema

// Options tune the annotator.
type Options struct {
	// PassK lists the k of Pass@k (default metrics.DefaultPassK).
	PassK []int
	// NoSQLFallback leaves the predicted schema empty when the system reported none,
	// instead of extracting it from the judged SQL.
	NoSQLFallback bool
	// Schemas, when set, is the run's introspections, shared with ETM (nil: each
	// database file is introspected here).
	Schemas *dbschema.Introspections
}

// Annotator implements judge.Annotator. It is safe for concurrent use.
type Annotator struct {
	opt     Options
	schemas *dbschema.Source // database file, else tables.json

	golds memo.Map[goldKey, *goldEntry] // a gold query's use, shared by every system
}

type goldKey struct {
	s   *dbschema.Schema
	sql string
}

type goldEntry struct {
	use *sqlast.Use
	err error
	// schema is SchemaOf(use), copied into each record (a record owns its gold schema);
	// sets is metrics.SetsOf(schema), only read.
	schema map[string][]string
	sets   metrics.SchemaSets
}

// New returns an annotator for ds. Its tables.json is read on first need.
func New(ds *dataset.Dataset, opt Options) *Annotator {
	if len(opt.PassK) == 0 {
		opt.PassK = metrics.DefaultPassK
	}
	a := &Annotator{opt: opt, schemas: &dbschema.Source{Introspections: opt.Schemas}}
	if ds != nil {
		a.schemas.Tables = ds.Tables
	}
	return a
}

// Annotate fills rec's SchemaLinking and Modules fields.
func (a *Annotator) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	metrics.FillPassAt(rec, a.opt.PassK)
	metrics.FillRevision(rec)

	rec.SchemaLinking = record.SchemaLinking{}
	s, err := a.Schema(ctx, q.DBID, dbPath)
	if err != nil {
		// Schema metrics never abort a run: the record says why it has none.
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rec.GoldSchemaError = err.Error()
		return nil
	}
	gold := rec.GoldSQL
	if gold == "" && len(q.Gold) > 0 {
		gold = q.Gold[0]
	}
	g := a.goldUse(gold, s)
	if g.err != nil {
		rec.GoldSchemaError = fmt.Sprintf("gold sql: %v", g.err)
	} else {
		// One map for every system's record of the question: records only read it (200
		// systems x 1034 questions held 88 MB of copies).
		rec.GoldSchema = g.schema
		rec.GoldSchemaUnresolved = append(append([]string(nil), g.use.Unresolved...), g.use.Ambiguous...)
	}

	switch {
	case rec.SelectedSchema != nil:
		rec.PredSchema, rec.PredSchemaSource = metrics.NormalizeSchema(rec.SelectedSchema), SourceReported
	case !a.opt.NoSQLFallback && strings.TrimSpace(rec.PredSQL) != "":
		if u, err := extractShared(rec.PredSQL, s); err == nil {
			rec.PredSchema, rec.PredSchemaSource = SchemaOf(u), SourcePredSQL
		}
	}
	metrics.ScoreSchemaSets(rec, g.sets) // a gold that failed has no schema: the scores are cleared
	return nil
}

// extractShared is sqlast.ExtractSchema taking the tree ETM already parsed from the same
// text, when it did (sqlast.ParseShared): Use only reads it.
func extractShared(sql string, s *dbschema.Schema) (*sqlast.Use, error) {
	q, err := sqlast.ParseShared(sql)
	if err != nil {
		return nil, err
	}
	return q.Use(s)
}

// goldUse is sqlast.ExtractSchema of a gold query, with its schema and that schema's
// sets, computed once per schema and text: every system of a run is scored against the
// same gold. The entry is only read.
func (a *Annotator) goldUse(gold string, s *dbschema.Schema) *goldEntry {
	e, _ := a.golds.Get(goldKey{s, gold}, func() (*goldEntry, error) {
		e := &goldEntry{}
		e.use, e.err = sqlast.ExtractSchema(gold, s)
		if e.err == nil {
			e.schema = SchemaOf(e.use)
			e.sets = metrics.SetsOf(e.schema)
		}
		return e, nil // a gold that does not parse is remembered too: it is the same for every system
	})
	return e
}

// SchemaOf turns an sqlast.Use into a {table: [columns]} schema (lower-cased, sorted):
// every used table, with the used columns of each (possibly none).
func SchemaOf(u *sqlast.Use) map[string][]string {
	// Sized up front: a map per record, and growing it was most of the cost.
	out := make(map[string][]string, len(u.Tables))
	for _, t := range u.Tables {
		t = strings.ToLower(t)
		if _, ok := out[t]; !ok {
			out[t] = []string{}
		}
	}
	for _, c := range u.Columns {
		t, col, ok := strings.Cut(c, ".")
		if !ok {
			continue
		}
		t = strings.ToLower(t)
		out[t] = append(out[t], strings.ToLower(col))
	}
	for t := range out {
		sort.Strings(out[t])
	}
	return out
}

// Schema returns the schema of database dbID: introspected from dbPath when that file
// exists, else from the dataset's tables.json (dbschema.Source). Errors wrap ErrNoSchema
// when neither has it.
func (a *Annotator) Schema(ctx context.Context, dbID, dbPath string) (*dbschema.Schema, error) {
	return a.schemas.Schema(ctx, dbID, dbPath)
}
