// Package counterex searches for counterexample databases: a small database, built
// from the schema of a question's own database, on which a prediction that execution
// accuracy judged correct returns a different result from the gold query under the
// run's semantics (BIRD's or Spider's comparison). A found counterexample proves the
// prediction means something else; none found within the budget leaves ts_ex at 1.
//
// It runs with eval --test-suite, as a judge annotator on every EX-correct record, and
// adds ts_ex, ts_dbs and counterexample (both results, kind, assumes, gold_suspect) to
// the record; the script itself is written by the run directory's writer to
// DIR/<system>/counterexamples/q<index>.sql, and nl2sqlbench verify re-runs the scripts
// (Verify; docs/test-suite.md).
//
// It exists because execution accuracy on one database has false positives, and
// Spider's test-suite databases (Zhong, Yu and Klein, 2020) exist for Spider only. Here
// the suite is built on the fly for any SQLite database:
//
//   - schema.go reads the original database once (read-only): tables, declared types,
//     collations, primary keys, UNIQUE, NOT NULL, and the foreign keys its data
//     satisfies (only those are declared and enforced in the variants);
//   - profile.go profiles the original data once (bounded scans): per column whether
//     NULL occurs, distinctness, the value domain; observed inclusions; lookup tables
//     and reference tables (reference.go: small catalogues whose rows are facts).
//     assume.go lays it out per pair: realistic mode (the default) draws only values the
//     profile allows, and every found variant lists the facts it departs from (none: a
//     realistic counterexample, the only kind that sets ts_ex to 0; else a robustness
//     finding), a tie under the gold's LIMIT marking the gold suspect instead;
//   - values.go draws each column's candidate values from the original data, from the
//     literals of both queries, and from boundary cases (NULL where allowed, numbers on
//     both sides of each literal, strings equal up to case or spaces);
//   - gen.go builds random variants (a few rows per table the queries touch, plus the
//     foreign-key parents they need; duplicates, ties, empty tables);
//   - neighbours.go mutates the gold (a predicate dropped or changed, DISTINCT, LIMIT,
//     join kind, aggregate, ORDER direction); suite.go keeps the variants that tell the
//     gold from its neighbours, once per question, and every prediction is tried on
//     that suite first, then on fresh random variants;
//   - sandbox.go loads a variant into a private in-memory SQLite database with foreign
//     keys enforced and runs both queries with engine.QueryConn; a difference counts
//     only when both queries succeed and it survives inserting the rows in reverse order
//     (so a LIMIT over ties, whose answer SQLite may pick either way, is never evidence);
//   - shrink.go removes rows while the two still differ (delta debugging, children of a
//     removed row go with it), and script.go writes the result as a standalone SQL
//     script (CREATE TABLE + INSERT) that Verify re-runs.
//
// Everything is deterministic for a seed and a count budget (a time budget can cut a
// search short on a slow machine). The original database is only ever read.
//
// Layering: counterex is layer 3 and imports judge (a sideways import) for the run's
// comparison functions, so a counterexample is a difference under exactly the verdict's
// rules. To extend: a new neighbour mutation is one function in neighbours.go; a new
// boundary value is a line in values.go.
package counterex
