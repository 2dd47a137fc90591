package dbschema

import (
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTablesCache: a tables.json read again gives the same schemas as parsing it afresh
// (and a map of the caller's own); a file rewritten in place (other content, same path)
// is parsed again, even with the same size and time; a file that turns bad gives its
// error, never the old schemas.
func TestTablesCache(t *testing.T) {
	path := writeFile(t, "tables.json", goodTables)
	fresh, err := parseTablesJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ReadTablesJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadTablesJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fresh.schemas, b); d != "" {
		t.Fatalf("cached read differs from a fresh parse (-fresh +cached):\n%s", d)
	}
	if a["school"] != b["school"] {
		t.Error("the second read parsed again: the schemas are not shared")
	}
	delete(a, "school")
	if c, _ := ReadTablesJSON(path); c["school"] == nil {
		t.Error("deleting from one caller's map changed the next caller's")
	}
	es, err := ReadTablesEntries(path)
	if err != nil || len(es) != 2 || es[0].DBID != "school" || len(es[0].Columns) != 7 ||
		es[0].Columns[0] != (TableColumn{-1, "*"}) || es[0].Columns[4] != (TableColumn{2, "StuID"}) ||
		!cmp.Equal(es[0].ForeignKeys, [][2]int{{4, 1}, {5, 3}}) {
		t.Fatalf("ReadTablesEntries = %+v, %v", es, err)
	}

	// Same size, same modification time, other content: parsed again all the same.
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	other := []byte(goodTables)
	copy(other[len(`[{
  "db_id": "`):], "SCHOOL")
	if err := os.WriteFile(path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	c, err := ReadTablesJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if c["SCHOOL"] == nil || c["school"] != nil {
		t.Fatalf("a rewritten file gave the old schemas: %v", c)
	}

	if err := os.WriteFile(path, []byte(`[{"db_id": ""}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTablesJSON(path); !errors.Is(err, ErrBadTablesJSON) {
		t.Fatalf("a file turned bad: error %v, want ErrBadTablesJSON", err)
	}
	if _, err := ReadTablesEntries(path); !errors.Is(err, ErrBadTablesJSON) {
		t.Fatalf("ReadTablesEntries of a bad file: error %v, want ErrBadTablesJSON", err)
	}
}

// TestTablesCacheBounded: the cache keeps the last few files only.
func TestTablesCacheBounded(t *testing.T) {
	for range maxTablesCache + 3 {
		if _, err := ReadTablesJSON(writeFile(t, "tables.json", goodTables)); err != nil {
			t.Fatal(err)
		}
	}
	tablesCache.mu.Lock()
	n := len(tablesCache.entries)
	tablesCache.mu.Unlock()
	if n > maxTablesCache {
		t.Errorf("%d files kept, want at most %d", n, maxTablesCache)
	}
}
