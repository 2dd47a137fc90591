// Package taskdb gives each task of a benchmark whose tasks change the database
// (LiveSQLBench, BIRD-Interact, EvalBench's DML and DDL) a database of its own to write.
//
// It exists because the read-only engines (package engine) cannot judge an INSERT, an
// ALTER TABLE or a test case that reads what a prediction left behind: such a task needs a
// database it may write, in exactly the state the benchmark's setup files describe, and
// the next task must not see what the previous one did.
//
// The shape is a template and copies. A Setup (the pre-setup, schema, rows and
// post-setup of one database, in order) is built ONCE into a template that nothing ever
// writes; every task gets a fresh Copy of it, runs on it through Exec, and Drops it.
//
//   - PostgreSQL (postgres.go): the template is a database named for the setup's hash
//     (nl2sb_t_...), built under a temporary name and renamed when complete, so a
//     template that exists is whole and a later run reuses it; once built it refuses
//     connections (ALLOW_CONNECTIONS false), so it cannot be written. A copy is
//     CREATE DATABASE nl2sb_c_... TEMPLATE the template, which the server does at file
//     level in milliseconds. The role needs CREATEDB (.ci/servers.sh grants it).
//   - SQLite (sqlite.go): the template is a file the tool owns, made read-only once
//     built; a copy is a file copy in the same directory. Its connections can attach no
//     other file (engine.OpenSQLiteFile): the file mode does not stop root.
//   - MySQL/MariaDB (mysql.go): no CREATE DATABASE ... TEMPLATE and no RENAME
//     DATABASE. The template is built under a build name (nl2sb_b_...) and moved into
//     its name by one atomic RENAME TABLE of every table, under a server-wide GET_LOCK;
//     nothing writes it afterwards: the server has no read-only database and a task's SQL
//     runs as a role that may write it, so while a run uses a template a session of the
//     run holds LOCK TABLES ... READ on its tables, and a statement of a task that names
//     the template waits and times out (TestTemplateNotWritableFromCopy). A copy is CREATE
//     DATABASE, then in one round trip each table's SHOW CREATE TABLE text (keys,
//     foreign keys, AUTO_INCREMENT kept) and INSERT ... SELECT of its stored columns
//     from the template, foreign key checks off: about 120 ms for db_blog, where
//     CREATE TABLE ... LIKE (which loses the foreign keys) takes 100 ms before the
//     ALTER TABLEs it would need (BenchmarkCopy). The role needs every privilege on
//     the databases named nl2sb\_% (.ci/servers.sh grants it). Views, triggers and
//     routines are not copied yet: a setup that makes them is refused. A copy on which
//     only SELECT, SHOW and SET ran (the session's Com_ counters tell) is reused, as
//     PostgreSQL's are.
//
// Every copy and every template under construction carries an owner marker (owner.go):
// host, process id and that process's start time. Sweep finds the copies whose owner is
// gone (a run killed with -9 never dropped them) and drops them; a copy whose owner still
// runs, or that was made on another host, is left alone.
//
// Exec runs SQL on a copy as the official LiveSQLBench evaluator's psycopg2 does: in a
// transaction that is committed after the statement (rolled back on error), with a
// server-side statement_timeout and the context's deadline, returning the last
// statement's result in the server's text form with each column's type, so that a judge
// can convert values exactly as the official tool's driver does. Reading is bounded
// (ExecLimits): rows past KeepRows are read and dropped, and a result over MaxBytes fails.
//
// To add a backend: a type with Template(ctx, Setup) returning something with
// Copy(ctx) (Copy, error), its Copy implementing the Copy interface, its copies marked
// with an owner marker and found by its Sweep; then run it through the tests of
// taskdb_test.go (the template checksum unchanged after writing tasks, leftovers swept).
package taskdb
