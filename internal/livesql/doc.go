// Package livesql judges BIRD-Interact / LiveSQLBench tasks the way the official
// LiveSQLBench evaluator does (evaluation/src of bird-bench/livesqlbench, PostgreSQL),
// quirks included, so that a verdict here is the verdict there.
//
// The official evaluator is Python: psycopg2 turns each value into a Python object, the
// default test case strips comments, DISTINCT and ROUND from the SQL by text surgery, runs
// the prediction and the gold, rounds every number to 2 places and compares the rows as
// sets (or lists when the order matters). Each step is a pure function here, named for
// the official one, and each quirk of it is named in a comment and a table test:
//
//   - value.go: a Python value (None, bool, int, float, Decimal, str, bytes, time,
//     timedelta, list, dict) and Python's == between them, as row keys.
//   - psycopg.go: PostgreSQL's text form to the value psycopg2 makes of it, per type.
//   - clean.go: remove_comments, remove_distinct, remove_round, check_sql_function_usage.
//   - exbase.go: preprocess_results and ex_base's comparison.
//   - task.go: the order in which a Query task's SQL runs on its database copy
//     (preprocess, prediction, then the default test case), over taskdb.
//
// To extend: a new official rule is a pure function in the file of its step, with its
// quirk named, a row in that file's table test, and, when it changes a verdict, a task
// in the conformance test's expected verdicts (testdata/official_verdicts.tsv).
package livesql
