package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// ensureDatabase builds the SQLite database dst from script unless dst already exists. A
// database only ever reaches dst by a rename of a finished build, so an existing file is a
// complete one; the directory name (a hash of the scripts) makes sure it is the right one.
func ensureDatabase(ctx context.Context, dst, script string) error {
	if st, err := os.Stat(dst); err == nil && st.Mode().IsRegular() {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("create database directory: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.tmp")
	if err != nil {
		return fmt.Errorf("create temporary database: %w", err)
	}
	name := tmp.Name()
	if err := tmp.Close(); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("create temporary database: %w", err)
	}
	err = runScript(ctx, name, script)
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err == nil {
		// A concurrent build may have renamed its copy first; both are identical, so
		// replacing it is harmless.
		err = os.Rename(name, dst)
	}
	if err != nil {
		removeDatabaseFiles(name)
		return err
	}
	return nil
}

// runScript executes script against a new database file at path, in one transaction and
// with foreign keys enforced, so a script whose rows break its own constraints fails.
func runScript(ctx context.Context, path, script string) (err error) {
	db, err := engine.OpenSQLiteFile(path, "")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", path, cerr)
		}
	}()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect %s: %w", path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = ON"); err != nil {
		return fmt.Errorf("enable foreign keys: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if _, err := tx.ExecContext(ctx, script); err != nil {
		_ = tx.Rollback()
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return fmt.Errorf("run script: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// removeDatabaseFiles deletes a failed build and any journal SQLite left beside it.
func removeDatabaseFiles(path string) {
	// Best effort: the build's own error is the one worth reporting.
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		_ = os.Remove(p)
	}
}
