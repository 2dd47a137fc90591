package sqlast

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// sqliteReads asks SQLite itself which columns a query reads: its authorizer is called
// with SQLITE_READ (table, column) for every column reference while the statement is
// compiled. That is an independent oracle for our resolution.
func sqliteReads(ctx context.Context, db *sql.DB, q string) (cols []string, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var mu sync.Mutex
	set := map[string]bool{}
	err = conn.Raw(func(dc any) error {
		c := dc.(*sqlite3.SQLiteConn)
		c.RegisterAuthorizer(func(op int, a1, a2, _ string) int {
			if op == sqlite3.SQLITE_READ && a2 != "" && !strings.HasPrefix(a1, "sqlite_") {
				mu.Lock()
				set[a1+"."+a2] = true
				mu.Unlock()
			}
			return sqlite3.SQLITE_OK
		})
		defer c.RegisterAuthorizer(nil)
		st, err := c.Prepare(q)
		if err != nil {
			return err
		}
		return st.Close()
	})
	for k := range set {
		cols = append(cols, k)
	}
	slices.Sort(cols)
	return cols, err
}

// TestConformanceSQLiteAuthorizer compares ExtractSchema's columns with the columns
// SQLite's authorizer reports, for every Spider dev gold query (all its databases are
// present) and the BIRD dev gold of the databases present.
func TestConformanceSQLiteAuthorizer(t *testing.T) {
	ctx := context.Background()
	var items []corpusItem
	var roots []string
	items = append(items, readGoldSQL(t, testutil.Shared(t, "data/spider/dev_gold.sql"))...)
	items = append(items, readGoldSQL(t, testutil.Shared(t, "data/spider/train_gold.sql"))...)
	// Spider predictions are messier SQL on the same databases; they take the db_id of
	// the dev gold line they answer.
	dev := readGoldSQL(t, testutil.Shared(t, "data/spider/dev_gold.sql"))
	preds, _ := filepath.Glob(filepath.Join(testutil.Shared(t, "data/spider/predictions"), "*.txt"))
	for _, f := range preds {
		for _, p := range readPredictions(t, f) {
			var line int
			fmt.Sscanf(p.where[strings.LastIndexByte(p.where, ':')+1:], "%d", &line)
			if line >= 1 && line <= len(dev) {
				p.db = dev[line-1].db
				items = append(items, p)
			}
		}
	}
	for range items {
		roots = append(roots, testutil.Shared(t, "data/spider/database"))
	}
	for _, it := range readBirdJSON(t, testutil.Shared(t, "data/bird/dev.json")) {
		if _, ok := testutil.SharedIfPresent(t, filepath.Join("data/bird/dev_databases", it.db, it.db+".sqlite")); ok {
			items = append(items, it)
			roots = append(roots, testutil.Shared(t, "data/bird/dev_databases"))
		}
	}
	type dbInfo struct {
		db     *sql.DB
		schema *dbschema.Schema
	}
	dbs := map[string]*dbInfo{}
	defer func() {
		for _, d := range dbs {
			if d != nil {
				d.db.Close()
			}
		}
	}()
	agree, checked, rejected := 0, 0, 0
	for i, it := range items {
		path := filepath.Join(roots[i], it.db, it.db+".sqlite")
		d, seen := dbs[path]
		if seen && d == nil {
			continue
		}
		if d == nil {
			if _, err := os.Stat(path); err != nil {
				dbs[path] = nil
				t.Logf("%s: database %s missing; its queries are not compared", it.where, it.db)
				continue
			}
			s, err := dbschema.Introspect(ctx, path)
			if err != nil {
				t.Fatalf("%s: %v", it.where, err)
			}
			db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
			if err != nil {
				t.Fatal(err)
			}
			d = &dbInfo{db: db, schema: s}
			dbs[path] = d
		}
		want, err := sqliteReads(ctx, d.db, it.sql)
		if err != nil {
			rejected++
			continue
		}
		u, err := ExtractSchema(it.sql, d.schema)
		if err != nil {
			t.Errorf("%s: %v", it.where, err)
			continue
		}
		checked++
		if diff := setDiff(lowerAll(want), lowerAll(u.Columns)); diff != "" {
			t.Errorf("%s: columns differ from SQLite's authorizer: %s\n  %s", it.where, diff, it.sql)
			continue
		}
		agree++
	}
	t.Logf("column sets agree with SQLite's authorizer on %d/%d queries (Spider dev+train gold, Spider dev predictions, BIRD dev gold with a database)", agree, checked)
	t.Logf("%d queries SQLite rejects were not compared", rejected)
	if checked < 900 {
		t.Errorf("only %d queries compared, want the whole Spider dev gold", checked)
	}
}

func lowerAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// setDiff describes what only SQLite reads and what only we report.
func setDiff(sqlite, ours []string) string {
	var onlyS, onlyO []string
	for _, x := range sqlite {
		if !slices.Contains(ours, x) {
			onlyS = append(onlyS, x)
		}
	}
	for _, x := range ours {
		if !slices.Contains(sqlite, x) {
			onlyO = append(onlyO, x)
		}
	}
	if len(onlyS)+len(onlyO) == 0 {
		return ""
	}
	return fmt.Sprintf("only SQLite %v, only ours %v", onlyS, onlyO)
}
