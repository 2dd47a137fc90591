package benchrun

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

// checkGoldTables is checkDatabasesIn for a dataset without a tables file (JSONL, BIRD
// without dev_tables.json): the tables its gold SQL names must be in the database src
// finds for its db_id (SQLite or DuckDB file, or a server's database). A database that holds the tables of none of its golds is another database of
// the same name and is refused, naming the database, the db_id, a question and the
// table. One whose golds are only partly there is judged (those golds fail as gold
// errors, as before) with a warning naming the first. A gold the parser cannot read (or
// that is no query) is not checked, and the run says once how many were not; nothing is
// guessed.
func checkGoldTables(ctx context.Context, ds *dataset.Dataset, src dbSource) error {
	type dbState struct {
		schema          *dbschema.Schema
		path            string
		broken          bool
		ok, bad         int
		badQ, badTables string
	}
	dbs := map[string]*dbState{}
	var order []string
	unchecked, firstUnchecked := 0, ""
	for _, q := range ds.Questions {
		path, ok := src.find(q.DBID)
		if !ok {
			continue
		}
		st := dbs[q.DBID]
		if st == nil {
			if err := ctx.Err(); err != nil {
				return err
			}
			got, err := src.read(ctx, q.DBID, path)
			if err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			st = &dbState{schema: got, path: path}
			dbs[q.DBID] = st
			order = append(order, q.DBID)
			// An unreadable or empty database is broken, not another one: it is judged
			// as before (its questions fail, saying why).
			st.broken = err != nil || got == nil || len(got.Tables) == 0
		}
		if st.broken {
			continue
		}
		for _, gold := range q.Gold {
			use, err := sqlast.ExtractSchema(gold, st.schema)
			switch {
			case err != nil:
				if unchecked == 0 {
					firstUnchecked = q.ID
				}
				unchecked++
			case len(use.UnknownTables) > 0:
				if st.bad == 0 {
					st.badQ, st.badTables = q.ID, strings.Join(use.UnknownTables, ", ")
				}
				st.bad++
			default:
				st.ok++
			}
		}
	}
	for _, id := range order {
		st := dbs[id]
		switch {
		case st.bad > 0 && st.ok == 0:
			return fmt.Errorf("%w: %s has no table %s, which the gold SQL of question %s (db_id %s) names, nor the tables of any other gold of %s: it is another database of the same name; %s",
				ErrWrongDatabase, st.path, st.badTables, st.badQ, id, id, src.hint)
		case st.bad > 0:
			ds.Warnings = append(ds.Warnings, fmt.Sprintf("database check: %s lacks table %s, which %d gold queries of db_id %s name (the first: question %s); they will fail as gold errors",
				st.path, st.badTables, st.bad, id, st.badQ))
		}
	}
	if unchecked > 0 {
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("database check: the dataset has no tables file, so each database is checked for the tables its gold SQL names; %d gold queries could not be parsed (the first: question %s) and their tables were not checked", unchecked, firstUnchecked))
	}
	return nil
}
