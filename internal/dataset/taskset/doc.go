// Package taskset reads benchmarks whose tasks are more than one SELECT: tasks that
// change the database and are judged by what it holds afterwards, by test code, or by a
// result compared under per-task conditions, some with a follow-up turn. A task does not
// fit dataset.Question (one question, one gold query, one read-only database), so these
// formats have their own types here.
//
// Two formats:
//
//   - livesql:DIR (livesql.go), the BIRD-Interact / LiveSQLBench task format: a task file
//     that is a stream of JSON objects (several may share a line), a knowledge base per
//     database (DIR/<db>/<db>_kb.jsonl), and each database's setup
//     (DIR/setup/<db>/alloydb/{pre_setup,setup,post_setup}.sql and DIR/setup/<db>/data/*.csv).
//   - evalbench:DIR (evalbench.go), Google's EvalBench: DIR/prompts.json, an array of tasks
//     with golden, evaluation, setup and clean-up SQL per dialect, and
//     DIR/setup/<db>/<dialect>/ beside the same data/*.csv.
//
// The setup of a database (setup.go) becomes a taskdb.Setup: pre_setup.sql, setup.sql,
// one INSERT per CSV line (each cell is an SQL literal, in the table's column order), then
// post_setup.sql (keys and foreign keys, once the rows are in), as EvalBench loads it.
//
// Every file is read through inputfile (a regular file, capped) and every error names
// the file and the line, and the key when one is wrong; nothing from a file panics.
//
// To add a format: a LoadX(ctx, dir) in its own file returning its task type, with the
// fields decoded through fields (fields.go) so that errors read alike, and a test on
// the real files beside the repository (../shared) that asserts its counts.
package taskset
