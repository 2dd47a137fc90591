package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLoadScriptHostile loads scripts that try to leave the scratch database, write a
// file, load code or run without end; each must fail with the named error and leave no
// file behind, and the files next to it untouched.
func TestLoadScriptHostile(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.sqlite")
	if err := createDB(victim, "CREATE TABLE v (x INTEGER)", "INSERT INTO v VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	newFile := filepath.Join(dir, "new.sqlite")
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	small := ScriptLimits{Timeout: 2 * time.Second, MaxPages: 256, MaxValueBytes: 1 << 20}
	cases := []struct {
		name   string
		script string
		lim    ScriptLimits
		want   error // errors.Is; nil: any error
	}{
		{"attach and write", "CREATE TABLE t (x); ATTACH " + q(victim) + " AS v; DELETE FROM v.v;", small, ErrScriptRefused},
		{"attach new file", "ATTACH " + q(newFile) + " AS n; CREATE TABLE n.t (x);", small, ErrScriptRefused},
		{"attach in a CTE statement", "CREATE TABLE t (x); INSERT INTO t SELECT 1; ATTACH DATABASE " + q(newFile) + " AS n", small, ErrScriptRefused},
		{"vacuum into", "CREATE TABLE t (x); VACUUM INTO " + q(newFile), small, ErrScriptRefused},
		{"writable_schema", "PRAGMA writable_schema = 1; CREATE TABLE t (x);", small, ErrScriptRefused},
		{"query_only off", "PRAGMA query_only = 0;", small, ErrScriptRefused},
		{"load_extension", "CREATE TABLE t (x); INSERT INTO t SELECT load_extension(" + q(filepath.Join(dir, "x.so")) + ");", small, ErrScriptRefused},
		{"recursive trigger", "PRAGMA recursive_triggers = 1; CREATE TABLE t (x); CREATE TRIGGER r AFTER INSERT ON t BEGIN INSERT INTO t VALUES (new.x + 1); END; INSERT INTO t VALUES (1);", small, ErrScriptRefused},
		{"trigger alone", "CREATE TABLE t (x); CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END;", small, ErrScriptRefused},
		{"temp table", "CREATE TEMP TABLE t (x);", small, ErrScriptRefused},
		{"view", "CREATE TABLE t (x); CREATE VIEW w AS SELECT * FROM t;", small, ErrScriptRefused},
		{"virtual table", "CREATE VIRTUAL TABLE f USING fts3(x);", small, ErrScriptRefused},
		{"stacked delete", "CREATE TABLE t (x); INSERT INTO t VALUES (1); DELETE FROM t", small, ErrScriptRefused},
		{"stacked on one line", "CREATE TABLE t (x); INSERT INTO t VALUES (1);DROP TABLE t", small, ErrScriptRefused},
		{"schema row", "CREATE TABLE t (x); INSERT INTO sqlite_master VALUES ('table','u','u',0,'CREATE TABLE u(y)');", small, nil},
		{"begin", "BEGIN; CREATE TABLE t (x);", small, ErrScriptRefused},
		{"huge insert", "CREATE TABLE t (x); INSERT INTO t WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c;", small, nil},
		{"zeroblob", "CREATE TABLE t (x); INSERT INTO t VALUES (zeroblob(2000000000));", small, nil},
		{"blob literal over the value cap", "CREATE TABLE t (x); INSERT INTO t VALUES (X'" + strings.Repeat("00", 1<<20) + "');", small, nil},
		{"script over the size cap", strings.Repeat("-- padding\n", 1<<19), small, ErrScriptRefused},
		{"endless recursive CTE", "CREATE TABLE t AS WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x + 1 FROM c) SELECT count(*) AS n FROM c;",
			ScriptLimits{Timeout: 300 * time.Millisecond}, ErrTimeout},
		{"NUL byte", "CREATE TABLE t (x);\x00ATTACH " + q(newFile) + " AS n", small, ErrNULByte},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			s, err := LoadScript(context.Background(), c.script, c.lim)
			if err == nil {
				s.Close()
				t.Fatal("loaded")
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			t.Logf("%v (%v)", err, time.Since(start))
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if _, err := os.Stat(newFile); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s was created", newFile)
			}
			after, err := os.ReadFile(victim)
			if err != nil || string(after) != string(before) {
				t.Errorf("%s changed (%v)", victim, err)
			}
		})
	}
}

// TestScratchQueriesReadOnly: once loaded, a scratch database answers queries and
// refuses everything else, as a benchmark file does.
func TestScratchQueriesReadOnly(t *testing.T) {
	ctx := context.Background()
	s, err := LoadScript(ctx, "PRAGMA foreign_keys = ON;\nCREATE TABLE p (id INTEGER PRIMARY KEY);\nCREATE TABLE c (id INTEGER, p INTEGER REFERENCES p(id));\nINSERT INTO p (id) VALUES (1);\nINSERT INTO c (id, p) VALUES (1, 1);\n", ScriptLimits{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Query(ctx, "SELECT count(*) FROM c JOIN p ON c.p = p.id", Limits{Timeout: time.Second})
	if err != nil || r.NumRows() != 1 || r.Value(0, 0) != int64(1) {
		t.Fatalf("query: %v %v", r, err)
	}
	newFile := filepath.Join(t.TempDir(), "n.sqlite")
	for _, q := range []string{
		"ATTACH '" + newFile + "' AS n",
		"INSERT INTO p VALUES (2)",
		"PRAGMA query_only = 0",
		"VACUUM INTO '" + newFile + "'",
		"SELECT load_extension('x')",
	} {
		if _, err := s.Query(ctx, q, Limits{Timeout: time.Second}); err == nil {
			t.Errorf("%s: ran", q)
		}
	}
	if _, err := os.Stat(newFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s was created", newFile)
	}
	_, err = s.Query(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x + 1 FROM c) SELECT count(*) FROM c", Limits{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("endless query: %v, want %v", err, ErrTimeout)
	}
}
