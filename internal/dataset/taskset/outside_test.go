package taskset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesOutsideDataset: a dataset folder (which may come from someone else) whose
// schema text, knowledge base, setup script or data file is a symbolic link out of the
// folder is refused, naming the file; before, the linked file was read (a schema text
// linked to a secret went into the prompts collect sends to a model). A folder reached
// through a link of the user's own still loads.
func TestFilesOutsideDataset(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("password=hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"prompts.jsonl":                goodTask + "\n",
		"a/a_kb.jsonl":                 "",
		"a/a_schema.txt":               "CREATE TABLE t (x int);",
		"setup/a/alloydb/setup.sql":    "CREATE TABLE t (x int);",
		"setup/a/data/t.csv":           "1\n",
		"setup/a/sqlite/setup.sql":     "CREATE TABLE t (x int);",
		"setup/a/sqlite/pre_setup.sql": "",
	}
	ctx := context.Background()
	load := map[string]func(dir string) error{
		"a/a_schema.txt":            func(dir string) error { _, err := SchemaText(dir, "a", LiveSQLDialect()); return err },
		"a/a_kb.jsonl":              func(dir string) error { _, err := LoadLiveSQL(ctx, dir); return err },
		"prompts.jsonl":             func(dir string) error { _, err := LoadLiveSQL(ctx, dir); return err },
		"setup/a/alloydb/setup.sql": func(dir string) error { _, err := LiveSQLSetup(ctx, dir, "a"); return err },
		"setup/a/data/t.csv":        func(dir string) error { _, err := LiveSQLSetup(ctx, dir, "a"); return err },
		"setup/a/sqlite/pre_setup.sql": func(dir string) error {
			_, err := EvalBenchSetup(ctx, dir, "a", "sqlite")
			return err
		},
	}
	for name, f := range load {
		t.Run(name, func(t *testing.T) {
			dir := writeFiles(t, files)
			if err := f(dir); err != nil {
				t.Fatalf("before the link: %v", err)
			}
			p := filepath.Join(dir, name)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(secret, p); err != nil {
				t.Fatal(err)
			}
			err := f(dir)
			if !errors.Is(err, ErrOutsideDataset) || !strings.Contains(err.Error(), name) {
				t.Errorf("err %v, want %v naming %s", err, ErrOutsideDataset, name)
			}
			// The same folder reached through a link of the user's own loads.
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
				t.Fatal(err)
			}
			via := filepath.Join(t.TempDir(), "via")
			if err := os.Symlink(dir, via); err != nil {
				t.Fatal(err)
			}
			if err := f(via); err != nil {
				t.Errorf("through a link to the folder: %v", err)
			}
		})
	}
}
