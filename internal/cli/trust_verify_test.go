package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileRunDir writes a run directory of one system, s, whose single record carries a
// counterexample at path (the script written there when script is not ""), with gold
// and pred as its queries. It returns the run directory.
func hostileRunDir(tb testing.TB, path, script, gold, pred string) string {
	tb.Helper()
	out := filepath.Join(tb.TempDir(), "run")
	if err := os.MkdirAll(filepath.Join(out, "s", "counterexamples"), 0o755); err != nil {
		tb.Fatal(err)
	}
	writeHostile(tb, out, "summary.json", []byte(`{"settings": {"semantics": "bird"}, "systems": [{"system": "s", "dir": "s"}]}`))
	rec, err := json.Marshal(map[string]any{"index": 0, "question_id": "q0", "db_id": "shop", "gold_sql": gold, "pred_sql": pred,
		"verdict": "correct", "counterexample": map[string]any{"path": path, "rows": 1}})
	if err != nil {
		tb.Fatal(err)
	}
	writeHostile(tb, filepath.Join(out, "s"), "records.jsonl", append(rec, '\n'))
	if script != "" {
		writeHostile(tb, out, filepath.FromSlash(path), []byte(script))
	}
	return out
}

// TestVerifyHostileRunDir: verify re-runs SQL from a run directory that came from someone
// else. Each case must fail with a clear message and touch nothing outside the scratch
// database: no file read outside the run directory, none created, none changed.
func TestVerifyHostileRunDir(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	outside := t.TempDir()
	victim := filepath.Join(outside, "bench.sqlite")
	db, err := sql.Open("sqlite3", victim)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(context.Background(), "CREATE TABLE v (x); INSERT INTO v VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(victim)
	created := filepath.Join(outside, "new.sqlite")
	valid := "PRAGMA foreign_keys = ON;\nCREATE TABLE t (x INTEGER);\nINSERT INTO t (x) VALUES (1);\n"
	writeHostile(t, filepath.Join(outside, "counterexamples"), "q0.sql", []byte(valid))
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	const gold, pred = "SELECT x FROM t", "SELECT 2"
	cases := []struct {
		name, path, script string
		pred               string // "": pred
		setup              func(t *testing.T, out string)
		want               string // a regular expression
	}{
		{name: "path climbs out", path: "../../../../../../../../etc/passwd", want: "leaves the run directory"},
		{name: "absolute path", path: "/etc/passwd", want: "leaves the run directory"},
		{name: "path with NUL", path: "s/counterexamples/q0.sql\x00.txt", want: "NUL"},
		{name: "symlinked counterexamples dir", path: "s/counterexamples/q0.sql", setup: func(t *testing.T, out string) {
			dir := filepath.Join(out, "s", "counterexamples")
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "counterexamples"), dir); err != nil {
				t.Fatal(err)
			}
		}, want: "leaves the run directory"},
		{name: "symlinked script", path: "s/counterexamples/q0.sql", setup: func(t *testing.T, out string) {
			if err := os.Symlink(filepath.Join(outside, "counterexamples", "q0.sql"), filepath.Join(out, "s", "counterexamples", "q0.sql")); err != nil {
				t.Fatal(err)
			}
		}, want: "leaves the run directory"},
		{name: "script is a FIFO", path: "s/counterexamples/q0.sql", setup: func(t *testing.T, out string) {
			if err := syscall.Mkfifo(filepath.Join(out, "s", "counterexamples", "q0.sql"), 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, want: "not a regular file"},
		{name: "attach and delete", path: "s/counterexamples/q0.sql", script: valid + "ATTACH " + q(victim) + " AS v;\nDELETE FROM v.v;\n", want: "refused"},
		{name: "attach creates a file", path: "s/counterexamples/q0.sql", script: "ATTACH " + q(created) + " AS n;\nCREATE TABLE n.t (x);\n", want: "refused"},
		{name: "vacuum into", path: "s/counterexamples/q0.sql", script: valid + "VACUUM INTO " + q(created) + ";\n", want: "refused"},
		{name: "writable_schema", path: "s/counterexamples/q0.sql", script: "PRAGMA writable_schema = 1;\n" + valid, want: "refused"},
		{name: "load_extension", path: "s/counterexamples/q0.sql", script: valid + "INSERT INTO t SELECT load_extension(" + q(filepath.Join(outside, "x.so")) + ");\n", want: "refused"},
		{name: "recursive trigger", path: "s/counterexamples/q0.sql", script: valid + "CREATE TRIGGER r AFTER INSERT ON t BEGIN INSERT INTO t VALUES (new.x + 1); END;\nINSERT INTO t VALUES (5);\n", want: "refused"},
		{name: "stacked statement", path: "s/counterexamples/q0.sql", script: valid + "INSERT INTO t VALUES (2);DROP TABLE t;\n", want: "refused"},
		{name: "huge insert", path: "s/counterexamples/q0.sql", script: valid + "INSERT INTO t WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c;\n", want: "full|timed out"},
		{name: "endless prediction", path: "s/counterexamples/q0.sql", script: valid,
			pred: "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x + 1 FROM c) SELECT count(*) FROM c", want: "timed out"},
		{name: "prediction attaches", path: "s/counterexamples/q0.sql", script: valid,
			pred: "ATTACH " + q(created) + " AS n", want: "q0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pred
			if c.pred != "" {
				p = c.pred
			}
			out := hostileRunDir(t, c.path, c.script, gold, p)
			if c.setup != nil {
				c.setup(t, out)
			}
			start := time.Now()
			code, _, stderr := run("verify", out)
			if code == 0 || !regexp.MustCompile(c.want).MatchString(stderr) {
				t.Errorf("exit %d, stderr %q: want a failure saying %q", code, stderr, c.want)
			}
			if strings.Contains(stderr, "root:") {
				t.Errorf("stderr shows a file from outside the run: %q", stderr)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("verify took %v", d)
			}
			if _, err := os.Stat(created); err == nil {
				t.Errorf("%s was created", created)
			}
			if after, _ := os.ReadFile(victim); string(after) != string(before) {
				t.Errorf("%s changed", victim)
			}
		})
	}
	// The same run directory with a plain script verifies: the checks above refuse the
	// attack, not the format.
	out := hostileRunDir(t, "s/counterexamples/q0.sql", valid, gold, pred)
	if code, stdout, stderr := run("verify", out); code != 0 || !strings.Contains(stdout, "verified") {
		t.Errorf("plain run: exit %d: %s %s", code, stdout, stderr)
	}
}
