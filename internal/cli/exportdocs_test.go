package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

func TestExportDocs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "shop")
	if err := os.MkdirAll(dbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dbDir, "shop.sqlite")
	db, err := sql.Open("sqlite3", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL)`,
		`INSERT INTO item VALUES (1, 'pen', 1.5), (2, 'ink', NULL)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	questions := filepath.Join(dir, "q.jsonl")
	if err := os.WriteFile(questions, []byte(
		`{"question_id": "q1", "db_id": "shop", "question": "?", "gold": "SELECT name, price FROM item ORDER BY id"}`+"\n"+
			`{"question_id": "q2", "db_id": "other", "question": "?", "gold": "SELECT 1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run("export-docs", "--db", dbPath, "--out", out, "--dataset", "jsonl:"+questions, "--db-root", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "1 collections, 2 documents") || !strings.Contains(stdout, "1 gold results") {
		t.Errorf("stdout %q", stdout)
	}
	docs, err := os.ReadFile(filepath.Join(out, "shop", "item.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	wantDocs := `{"_key":"1","id":1,"name":"pen","price":1.5}` + "\n" + `{"_key":"2","id":2,"name":"ink","price":null}` + "\n"
	if string(docs) != wantDocs {
		t.Errorf("item.jsonl:\n%s\nwant\n%s", docs, wantDocs)
	}
	gold, err := os.ReadFile(filepath.Join(out, "shop", "gold", "q1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "name,price\npen,1.5\nink,\n"; string(gold) != want {
		t.Errorf("q1.csv = %q, want %q", gold, want)
	}
	if _, err := os.Stat(filepath.Join(out, "shop", "gold", "q2.csv")); !os.IsNotExist(err) {
		t.Errorf("q2 is on another database but got a gold file (err %v)", err)
	}

	if code, _, stderr := run("export-docs", "--out", out); code != exitUsage || !strings.Contains(stderr, "--db") {
		t.Errorf("missing --db: exit %d, %q", code, stderr)
	}
	if code, _, _ := run("export-docs", "--db", filepath.Join(dir, "nope.sqlite"), "--out", out); code != exitError {
		t.Errorf("missing database file: exit %d, want %d", code, exitError)
	}
}
