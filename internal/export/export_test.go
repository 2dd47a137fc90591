package export

// Helpers only this package's tests use, kept out of the build.

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

func makeSQLite(tb testing.TB, stmts ...string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "shop.sqlite")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			tb.Fatalf("%q: %v", s, err)
		}
	}
	return path
}

func TestWriteDocs(t *testing.T) {
	src := makeSQLite(t,
		`CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL, img BLOB, made DATE)`,
		`INSERT INTO item VALUES (1, 'pen', 1.5, x'00ff', '2020-01-02'), (2, NULL, 2, NULL, NULL)`,
		`CREATE TABLE pair (a TEXT, b INTEGER, PRIMARY KEY (b, a))`,
		`INSERT INTO pair VALUES ('x', 1)`,
		`CREATE TABLE log (msg TEXT)`,
		`INSERT INTO log VALUES ('hi'), ('yo')`,
	)
	dir := t.TempDir()
	st, err := WriteDocs(context.Background(), src, dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Collections != 3 || st.Documents != 5 {
		t.Errorf("stats %+v, want 3 collections and 5 documents", st)
	}
	want := map[string]string{
		"item.jsonl": `{"_key":"1","id":1,"name":"pen","price":1.5,"img":"AP8=","made":"2020-01-02"}` + "\n" +
			`{"_key":"2","id":2,"name":null,"price":2,"img":null,"made":null}` + "\n",
		"pair.jsonl": `{"_key":"1::x","a":"x","b":1}` + "\n",
		"log.jsonl":  `{"_key":"1","msg":"hi"}` + "\n" + `{"_key":"2","msg":"yo"}` + "\n",
	}
	for name, w := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != w {
			t.Errorf("%s:\n got %s\nwant %s", name, got, w)
		}
	}
}

func TestReadTablesKinds(t *testing.T) {
	src := makeSQLite(t,
		`CREATE TABLE m (i INTEGER, r REAL, mixed, empty_int INT, empty_date DATE, b BLOB)`,
		`INSERT INTO m VALUES (1, 1, 1, NULL, NULL, x'01'), (2, 2.5, 'a', NULL, NULL, NULL)`,
	)
	e := engine.NewSQLite()
	defer e.Close()
	tables, err := ReadTables(context.Background(), e, src)
	if err != nil {
		t.Fatal(err)
	}
	want := []Kind{KindInteger, KindReal, KindText, KindInteger, KindText, KindBlob}
	for i, c := range tables[0].Columns {
		if c.Kind != want[i] {
			t.Errorf("column %s: kind %d, want %d", c.Name, c.Kind, want[i])
		}
	}
}

func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	res := engine.NewResult([]string{"a", "b"}, [][]any{{int64(1), 2.0}, {nil, "x,y"}, {1e-5, []byte{0}}})
	if err := WriteCSV(&b, res); err != nil {
		t.Fatal(err)
	}
	want := "a,b\n1,2.0\n,\"x,y\"\n1e-05,AA==\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// WriteDocs is WriteDocsTo into a Dir opened at dir.
func WriteDocs(ctx context.Context, src, dir string) (DocStats, error) {
	d, err := OpenDir(dir)
	if err != nil {
		return DocStats{}, err
	}
	defer d.Close()
	return WriteDocsTo(ctx, src, d)
}
