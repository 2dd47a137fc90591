package taskdb

import "context"

// Copy is one task's database: a fresh copy of a template, written by the task and
// dropped after it. A Copy is used by one goroutine at a time.
type Copy interface {
	// Name is the copy's database name (PostgreSQL) or file path (SQLite).
	Name() string
	// Exec runs sql (one statement or several) and commits it, or rolls it back when it
	// fails; it returns the last statement's result.
	Exec(ctx context.Context, sql string, lim ExecLimits) (*Result, error)
	// Checksum hashes every table's rows and the schema's columns, one entry per table
	// plus "(schema)", so that a test can tell whether two databases hold the same data.
	Checksum(ctx context.Context) (map[string]string, error)
	// Drop closes the copy's connections and removes it.
	Drop(ctx context.Context) error
}
