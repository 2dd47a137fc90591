// Package audit checks benchmark gold SQL (and predictions judged correct) on their
// databases for answers the data does not determine, and for golds that look wrong:
//
//   - order dependence: a LIMIT cutting through rows tied on the ORDER BY keys
//     (limit_tie), an ORDER BY key whose NULLs sort into the rows a LIMIT keeps
//     (nulls_first), numbers stored as text in an ORDER BY key (text_number), and a
//     result (as a bag of rows) that changes when SQLite scans tables backwards
//     (reverse_scan: PRAGMA reverse_unordered_selects only reverses SELECTs without an
//     ORDER BY, so ties under an ORDER BY are limit_tie's business);
//   - a gold that fails (gold_error), returns no rows (gold_empty) or only NULLs
//     (gold_all_null); a question asking for names whose gold returns only id-like columns
//     (id_for_name, a heuristic, flagged as one);
//   - golds that look wrong from their data or question: a placeholder for missing (0,
//     -1, 'N/A', far-off dates) aggregated, compared or ordered by (sentinel_value,
//     sentinel.go), fewer result columns than the question asks for things
//     (partial_answer, a heuristic), a share whose numerator is filtered by the population
//     the question names or is not inside its denominator (ratio_scope; question.go);
//   - consensus: most judged systems agree with each other, up to extra columns, column
//     order, rounding and duplicates, on a result that differs from the gold's; failing
//     that, every judged system differs from it (all_differ, weaker; consensus.go).
//
// Tasks on a database copy (livesql:DIR, tasks.go) are audited on a fresh copy per task:
// a preprocess that fails, a gold that fails or returns nothing, a DISTINCT ON the
// official stripping breaks, today's date on fixed data.
//
// Besides the gold, the order checks run on the predictions judged correct. Each Finding
// carries its evidence and a confidence (high, medium, low).
//
// The package reads SQL text through sqlscan (sqltext.go: top-level clauses only, no full
// parse) and runs probes through the engine's read-only SQLite path (reverse_scan through
// engine.Limits.ReverseUnordered). run.Audit loads the dataset and calls Run, the cli
// writes audit.jsonl, and report reads that file (a sideways import of Finding, like
// match's types; audit never imports report or rundir). llmjudge runs Gold per question.
//
// To add a check: a function in checks.go appending Findings, and a hand-made database in
// the tests that triggers it and one that does not. docs/audit.md describes the checks
// for users.
package audit
