// Package linking fills each judged record's schema-linking and module fields: the gold
// schema its question's gold SQL uses, the schema the system selected, table and column
// precision / recall / F1 between them, Pass@k over its candidates, and its verdicts
// before and after query revision. It is a judge annotator.
//
// It exists so that records.jsonl carries the NL2SQLBench module metrics per question,
// and every summary (metrics.SchemaSelectionOf, RevisionOfRecords, ...) is an average of
// fields anyone can recompute.
//
// Where the schemas come from:
//   - the database schema is introspected from the question's SQLite file when it exists,
//     else taken from the dataset's tables.json (BIRD questions whose database is absent
//     still get a gold schema); one schema per database, cached;
//   - the gold schema is sqlast.ExtractSchema of the question's first gold SQL, computed
//     once per schema and text and shared by every system;
//   - the predicted schema is the system's reported schema-selection output
//     (pred_schema_source "reported"); when the system reported none it is extracted from
//     the judged SQL (pred_schema_source "pred_sql"), so SQL-only systems still get the
//     schema their SQL touched, from the parse ETM shares (sqlast.ParseShared).
//     Options.NoSQLFallback turns that off.
//
// To extend: another per-record module field is filled in Annotate, from a pure function
// in internal/metrics.
package linking
