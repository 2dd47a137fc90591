package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenSQLiteFileConfined: SQL run on a database the tool builds (a task's setup, a
// prediction on its copy) changes that file and nothing else. Before, ATTACH created
// and wrote any file the tool's user may write (as root, the read-only template too),
// and VACUUM INTO wrote one.
func TestOpenSQLiteFileConfined(t *testing.T) {
	dir := t.TempDir()
	db, err := OpenSQLiteFile(filepath.Join(dir, "own.sqlite"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t(a); INSERT INTO t VALUES (1); UPDATE t SET a = 2; DELETE FROM t"); err != nil {
		t.Fatalf("own file: %v", err)
	}
	outside := filepath.Join(dir, "outside.sqlite")
	for _, q := range []string{
		"ATTACH DATABASE '" + outside + "' AS x",
		"ATTACH DATABASE ':memory:' AS x",
		"VACUUM INTO '" + outside + "'",
		"SELECT load_extension('" + filepath.Join(dir, "x.so") + "')",
		"DETACH DATABASE main",
	} {
		if _, err := db.Exec(q); err == nil {
			t.Errorf("%s: ran", q)
		}
	}
	if _, err := db.Exec("CREATE TABLE x.t(a)"); err == nil {
		t.Error("a table was created in an attached database")
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("%s exists (%v): a statement wrote outside its database", outside, err)
	}
}
