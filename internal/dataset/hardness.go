package dataset

import (
	"context"
	"fmt"
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// maxHardnessWarnings caps the per-question warnings; the rest are counted.
const maxHardnessWarnings = 10

// addHardness sets each question's Difficulty to Spider's hardness of its gold SQL,
// parsed against its database's schema from tables.json (original names). A question
// whose hardness cannot be derived (no tables.json, db not in it, SQL the parser
// refuses) gets Unknown and a warning; loading still succeeds, since difficulty only
// breaks results down and never changes a verdict.
func addHardness(ctx context.Context, d *Dataset) error {
	setAll := func(why string) {
		for i := range d.Questions {
			d.Questions[i].Difficulty = Unknown
		}
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: difficulty unknown for all %d questions", why, len(d.Questions)))
	}
	if d.Tables == "" {
		setAll(fmt.Sprintf("no tables.json beside %s (give one with --tables)", d.Path))
		return nil
	}
	raw, err := dbschema.ReadTablesJSON(d.Tables)
	if err != nil {
		setAll(err.Error())
		return nil
	}
	schemas := map[string]*spidersql.Schema{}
	notInTables := map[string]int{} // db_id -> questions
	type failure struct{ db, msg string }
	var failed []failure
	nFailed := 0
	for i := range d.Questions {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		q := &d.Questions[i]
		q.Difficulty = Unknown
		s, ok := schemas[q.DBID]
		if !ok {
			if ts := raw[q.DBID]; ts != nil {
				s = spidersql.NewSchema(ts.TableColumns())
			}
			schemas[q.DBID] = s
		}
		if s == nil {
			notInTables[q.DBID]++
			continue
		}
		h, err := hardnessOf(q.Gold[0], s)
		if err != nil || h == "" {
			nFailed++
			if len(failed) < maxHardnessWarnings {
				if err == nil {
					err = fmt.Errorf("no hardness returned")
				}
				failed = append(failed, failure{q.DBID, fmt.Sprintf("question %d (db %s): hardness: %v", q.Index, q.DBID, err)})
			}
			continue
		}
		q.Difficulty = h
	}
	dbs := make([]string, 0, len(notInTables))
	for db := range notInTables {
		dbs = append(dbs, db)
	}
	sort.Strings(dbs)
	for _, db := range dbs {
		d.warnAbout(db, fmt.Sprintf("db %s is not in %s: difficulty unknown for its %d questions", db, d.Tables, notInTables[db]))
	}
	for _, f := range failed {
		d.warnAbout(f.db, f.msg)
	}
	if nFailed > len(failed) {
		d.Warnings = append(d.Warnings, fmt.Sprintf("hardness could not be derived for %d more questions (difficulty unknown)", nFailed-len(failed)))
	}
	return nil
}

// hardnessOf guards the load against a parser bug: a panic becomes an error, so one
// odd gold query costs its difficulty label, not the whole run.
func hardnessOf(sql string, s *spidersql.Schema) (h string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parser panicked: %v", r)
		}
	}()
	return spidersql.HardnessOf(sql, s)
}
