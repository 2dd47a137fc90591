package benchrun

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

// TestCheckGoldTables: a dataset without a tables file was judged on whatever database
// bore its db_id. Now each database must hold the tables its gold SQL names: Spider's
// dev and BIRD mini-dev questions with the tables file taken away pass on their own databases (no
// gold is refused wrongly) and are refused on a concert_singer that is another
// database, naming it, the db_id and the table.
func TestCheckGoldTables(t *testing.T) {
	data := sharedData(t)
	ctx := context.Background()
	for _, spec := range []string{"spider:" + filepath.Join(data, "spider"), "bird:" + filepath.Join(data, "bird", "mini_dev_sqlite.json")} {
		ds, err := dataset.Load(ctx, spec, dataset.Options{NoHardness: true})
		if err != nil {
			t.Fatal(err)
		}
		ds.Tables = "" // as a JSONL dataset has none
		if err := checkDatabases(ctx, ds); err != nil {
			t.Errorf("%s on its own databases, no tables file: %v", spec, err)
		}
		t.Logf("%s: warnings %q", spec, ds.Warnings)
	}

	root := t.TempDir()
	dir := filepath.Join(root, "concert_singer")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "concert_singer.sqlite")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE invoices (id INTEGER, total REAL)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	other, err := dataset.Load(ctx, "spider:"+filepath.Join(data, "spider"), dataset.Options{DBRoot: root, NoHardness: true})
	if err != nil {
		t.Fatal(err)
	}
	other.Tables = ""
	err = checkDatabases(ctx, other)
	if !errors.Is(err, ErrWrongDatabase) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "db_id concert_singer") {
		t.Errorf("Spider on another concert_singer: err = %v, want ErrWrongDatabase naming %s and the db_id", err, path)
	}
}
