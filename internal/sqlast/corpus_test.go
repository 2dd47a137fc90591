package sqlast

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// corpusItem is one SQL text of a real benchmark file, with where it came from.
type corpusItem struct {
	where string // file:line or file[key]
	db    string
	sql   string
}

// readGoldSQL reads a "SQL<TAB>db_id" file, one query per line.
func readGoldSQL(tb testing.TB, path string) []corpusItem {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []corpusItem
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		q, db := line, ""
		if i := strings.LastIndexByte(line, '\t'); i >= 0 {
			q, db = line[:i], strings.TrimSpace(line[i+1:])
		}
		out = append(out, corpusItem{where: fmt.Sprintf("%s:%d", filepath.Base(path), n), db: db, sql: q})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// readBirdJSON reads a BIRD question file's gold SQL.
func readBirdJSON(tb testing.TB, path string) []corpusItem {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var qs []struct {
		DBID string `json:"db_id"`
		SQL  string `json:"SQL"`
	}
	if err := json.Unmarshal(data, &qs); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	out := make([]corpusItem, len(qs))
	for i, q := range qs {
		out[i] = corpusItem{where: fmt.Sprintf("%s[%d]", filepath.Base(path), i), db: q.DBID, sql: q.SQL}
	}
	return out
}

// goldCorpus is the ~11.7k gold queries the issue requires to parse.
func goldCorpus(tb testing.TB) []corpusItem {
	tb.Helper()
	var all []corpusItem
	all = append(all, readBirdJSON(tb, testutil.Shared(tb, "data/bird/dev.json"))...)
	all = append(all, readGoldSQL(tb, testutil.Shared(tb, "data/bird/mini_dev_sqlite_gold.sql"))...)
	all = append(all, readGoldSQL(tb, testutil.Shared(tb, "data/spider/dev_gold.sql"))...)
	all = append(all, readGoldSQL(tb, testutil.Shared(tb, "data/spider/train_gold.sql"))...)
	return all
}

func TestCorpusGoldParses(t *testing.T) {
	all := goldCorpus(t)
	if len(all) != 1534+500+1034+8659 {
		t.Errorf("corpus has %d queries, want %d", len(all), 1534+500+1034+8659)
	}
	for _, it := range all {
		if _, err := Parse(it.sql); err != nil {
			t.Errorf("%s: %v\n  %s", it.where, err, it.sql)
		}
	}
	t.Logf("%d gold queries parsed", len(all))
}

// resolveAll extracts every item's schema use and names each one that has unresolved or
// ambiguous references or unknown tables.
func resolveAll(tb testing.TB, items []corpusItem, schemas map[string]*dbschema.Schema) (bad []string) {
	tb.Helper()
	for _, it := range items {
		s := schemas[it.db]
		if s == nil {
			bad = append(bad, fmt.Sprintf("%s: db %q not in tables.json", it.where, it.db))
			continue
		}
		u, err := ExtractSchema(it.sql, s)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", it.where, err))
			continue
		}
		if len(u.Unresolved)+len(u.Ambiguous)+len(u.UnknownTables) > 0 {
			bad = append(bad, fmt.Sprintf("%s: unresolved %v ambiguous %v unknown tables %v\n  %s",
				it.where, u.Unresolved, u.Ambiguous, u.UnknownTables, it.sql))
		}
		if len(u.Tables) == 0 && len(u.UnknownTables) == 0 {
			bad = append(bad, fmt.Sprintf("%s: uses no table\n  %s", it.where, it.sql))
		}
	}
	return bad
}

// TestCorpusBirdDevResolves: every column of the BIRD dev gold resolves to exactly one
// table of dev_tables.json (a schema-only database).
func TestCorpusBirdDevResolves(t *testing.T) {
	items := readBirdJSON(t, testutil.Shared(t, "data/bird/dev.json"))
	schemas, err := dbschema.ReadTablesJSON(testutil.Shared(t, "data/bird/dev_tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range resolveAll(t, items, schemas) {
		t.Error(b)
	}
	t.Logf("%d BIRD dev gold queries resolved", len(items))
}

// TestCorpusOtherGoldResolves reports (and requires) full resolution of the other gold
// files against their tables.json.
func TestCorpusOtherGoldResolves(t *testing.T) {
	for _, c := range []struct{ gold, tables string }{
		{"data/bird/mini_dev_sqlite_gold.sql", "data/bird/mini_dev_sqlite_tables.json"},
		{"data/spider/dev_gold.sql", "data/spider/tables.json"},
		{"data/spider/train_gold.sql", "data/spider/tables.json"},
	} {
		t.Run(filepath.Base(c.gold), func(t *testing.T) {
			items := readGoldSQL(t, testutil.Shared(t, c.gold))
			schemas, err := dbschema.ReadTablesJSON(testutil.Shared(t, c.tables))
			if err != nil {
				t.Fatal(err)
			}
			bad := resolveAll(t, items, schemas)
			for _, b := range bad {
				if why, ok := brokenGold[strings.SplitN(b, ":", 3)[0]+":"+strings.SplitN(b, ":", 3)[1]]; ok {
					t.Logf("known broken gold, %s: %s", why, b)
					continue
				}
				t.Error(b)
			}
			t.Logf("%s: %d/%d resolve fully", c.gold, len(items)-len(bad), len(items))
		})
	}
}

// brokenGold are gold queries that SQLite itself rejects on their database, so their
// references cannot resolve; each was checked against the .sqlite file.
var brokenGold = map[string]string{
	"train_gold.sql:4398": "Ref_Company_Types is not a table of assets_maintenance (SQLite: no such table)",
}

// readPredictions reads a BIRD prediction JSON ({"0": "SQL\t----- bird -----\tdb"}) or a
// text file with one prediction per line (empty lines are empty predictions, skipped).
func readPredictions(tb testing.TB, path string) []corpusItem {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	name := filepath.Base(path)
	var out []corpusItem
	if strings.HasSuffix(path, ".json") {
		var m map[string]string
		if err := json.Unmarshal(data, &m); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int {
			x, _ := strconv.Atoi(a)
			y, _ := strconv.Atoi(b)
			return x - y
		})
		for _, k := range keys {
			q := m[k]
			if i := strings.Index(q, "\t----- bird -----\t"); i >= 0 {
				q = q[:i]
			}
			if strings.TrimSpace(q) != "" {
				out = append(out, corpusItem{where: fmt.Sprintf("%s[%s]", name, k), sql: q})
			}
		}
		return out
	}
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, corpusItem{where: fmt.Sprintf("%s:%d", name, i+1), sql: line})
		}
	}
	return out
}

// sqliteRejects reports whether SQLite's own parser rejects q: preparing it against an
// empty database fails for any reason other than name resolution (which only runs after
// a successful parse, and in an empty database stops at the first table).
func sqliteRejects(tb testing.TB, db *sql.DB, q string) (bool, string) {
	tb.Helper()
	if first, rest := splitFirst(q); strings.TrimSpace(rest) != "" {
		// Python's sqlite3 (the official scripts) and our engine refuse a second statement;
		// SQLite's prepare would silently stop after the first.
		return true, "text after the first statement: " + strings.TrimSpace(rest)[:min(40, len(strings.TrimSpace(rest)))]
	} else {
		q = first
	}
	st, err := db.Prepare(q)
	if err == nil {
		st.Close()
		return false, "prepared"
	}
	msg := err.Error()
	for _, p := range []string{"no such table", "no such column", "no such function", "ambiguous column"} {
		if strings.HasPrefix(msg, p) {
			return false, msg
		}
	}
	return true, msg
}

// TestCorpusPredictions reports each real prediction file's parse rate and requires that
// every prediction that fails to parse is one SQLite rejects too.
func TestCorpusPredictions(t *testing.T) {
	root := testutil.Shared(t, "data")
	var files []string
	for _, pat := range []string{"bird/predictions/*/*", "spider/predictions/*", "*/predictions/*"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		files = append(files, m...)
	}
	slices.Sort(files)
	files = slices.Compact(files)
	db, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		items := readPredictions(t, f)
		rel, _ := filepath.Rel(root, f)
		failed := 0
		for _, it := range items {
			_, perr := Parse(it.sql)
			if perr == nil {
				continue
			}
			failed++
			if rej, msg := sqliteRejects(t, db, it.sql); !rej {
				t.Errorf("%s: parse fails but SQLite accepts it (%s): %v\n  %s", it.where, msg, perr, it.sql)
			}
		}
		t.Logf("%-75s %4d/%4d parse (%.1f%%)", rel, len(items)-failed, len(items), 100*float64(len(items)-failed)/float64(max(len(items), 1)))
	}
}

// splitFirst splits q after its first top-level semicolon (outside quotes and comments),
// dropping comments from the rest, so the caller can tell whether more text follows.
func splitFirst(q string) (first, rest string) {
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '\'' || c == '"' || c == '`':
			if j := strings.IndexByte(q[i+1:], c); j >= 0 {
				i += j + 1
			} else {
				return q, ""
			}
		case c == '[':
			if j := strings.IndexByte(q[i+1:], ']'); j >= 0 {
				i += j + 1
			}
		case c == '-' && strings.HasPrefix(q[i:], "--"):
			if j := strings.IndexByte(q[i:], '\n'); j >= 0 {
				i += j
			} else {
				return q, ""
			}
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			if j := strings.Index(q[i+2:], "*/"); j >= 0 {
				i += j + 3
			} else {
				return q, ""
			}
		case c == ';':
			rest := q[i+1:]
			// Only semicolons, white space and comments may follow.
			for {
				rest = strings.TrimLeft(rest, " \t\r\n\f;")
				switch {
				case strings.HasPrefix(rest, "--"):
					if j := strings.IndexByte(rest, '\n'); j >= 0 {
						rest = rest[j:]
						continue
					}
					rest = ""
				case strings.HasPrefix(rest, "/*"):
					if j := strings.Index(rest, "*/"); j >= 0 {
						rest = rest[j+2:]
						continue
					}
					rest = ""
				}
				return q[:i+1], rest
			}
		}
	}
	return q, ""
}
