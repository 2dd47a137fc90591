// Package taskcode runs a task's Python test cases (LiveSQLBench, BIRD-Interact:
// `test_case(pred_sqls, sol_sqls, db_name, conn)`) in a sandbox, the way the official
// evaluator runs them but without handing the dataset's code our database, our
// credentials or our machine.
//
// It exists because these test cases are code from a dataset: the official evaluator
// exec()s them in its own process, with a live psycopg2 connection and its environment.
// Here each test case runs in a separate python3 (found once by Find; ErrNoPython when
// there is none) started with -I -S, an embedded bootstrap (bootstrap.py) and a scrubbed
// environment, and the test's only way to the database is to ask: every statement, and
// every helper that compares results, is a JSON line on the child's stdout, answered by
// Run on its stdin after running the SQL on the task's copy through DB (taskdb.Copy's
// Exec). What the sandbox guarantees, per isolation mode, is in docs/taskcode.md.
//
// The pieces:
//   - python.go: Find, the limits, the isolation mode (Namespaces as root: new network,
//     mount, PID, IPC and UTS namespaces, the file system hidden, uid nobody; Basic
//     otherwise) and the child's environment.
//   - run.go: Run, one test case in one process: the wall-clock timeout kills the process
//     group (and, in Namespaces mode, PID 1 of the namespace, which takes every process
//     with it); how it ended becomes an Outcome (passed, assertion, error, timeout, killed).
//   - session.go: the parent's side of the protocol: exec, the SQL cleaners and
//     check_sql_function_usage (package livesql's, so there is one implementation), and
//     ex_base (package livesql's comparison, after running both lists here).
//   - bootstrap.py: the child's side: isolation, resource limits, a psycopg2-like conn
//     (cursor, execute with psycopg2's parameter quoting, fetch*, rowcount), psycopg2's
//     value casts from PostgreSQL's text, the official helpers, and run_test_case's exact
//     exec (separate globals and locals, `from datetime import date` prepended).
//
// To extend: a helper the official evaluator adds is a function in bootstrap.py under
// the same name, put in run_test_case's globals there; when it needs the database or a
// rule package livesql implements, it sends a request with a new "op" that
// session.answer handles, never a second implementation of the rule. A module test code
// imports is added to the bootstrap's pre-imports (after isolation the interpreter's own
// directory may be hidden). Each addition gets a case in taskcode_test.go, and
// TestRealTestCases (NL2SQLBENCH_TASKCODE_FULL=1) must stay free of NameError and
// ImportError on the real test cases.
package taskcode
