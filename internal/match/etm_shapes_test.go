package match

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

var updateETMShapes = flag.Bool("update-etm-shapes", false, "rewrite testdata/etm_shapes/mode_diffs.txt")

// shapePair is one generated pair of testdata/etm_shapes/pairs.jsonl with the verdict of
// the ETM authors' script (scripts/etm_shapes.py ran it).
type shapePair struct {
	Name   string `json:"name"`
	Pred   string `json:"pred"`
	Gold   string `json:"gold"`
	Script *int   `json:"script"`
}

func readShapePairs(tb testing.TB) []shapePair {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "etm_shapes", "pairs.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []shapePair
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var p shapePair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil || p.Name == "" || p.Script == nil {
			tb.Fatalf("pairs.jsonl line %d: want name, pred, gold and script (%v)", line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// etmShapesDB builds the pairs' database from testdata/etm_shapes/schema.sql.
func etmShapesDB(tb testing.TB) *ETMDB {
	tb.Helper()
	schema, err := os.ReadFile(filepath.Join("testdata", "etm_shapes", "schema.sql"))
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "shapes.sqlite")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	for _, stmt := range strings.Split(string(schema), ";") {
		var lines []string
		for _, l := range strings.Split(stmt, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "--") {
				lines = append(lines, l)
			}
		}
		if s := strings.TrimSpace(strings.Join(lines, "\n")); s != "" {
			if _, err := db.Exec(s); err != nil {
				tb.Fatalf("schema.sql: %s: %v", s, err)
			}
		}
	}
	db.Close()
	d, err := OpenETMDB(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	return d
}

// TestETMShapes: official mode agrees with the ETM authors' script on every generated
// pair around the corners of issue 31 (a GROUP BY on one side of a join key, [NOT] IN
// over a join, aliases in ON, a compound's ORDER BY, rule 13 and rule 14 with
// subqueries; alone, in UNION / INTERSECT / EXCEPT branches and in subqueries). Where
// corrected mode differs, the quirk that decided is counted, and the counts by quirk are
// checked against testdata/etm_shapes/mode_diffs.txt.
func TestETMShapes(t *testing.T) {
	d := etmShapesDB(t)
	pairs := readShapePairs(t)
	ctx := context.Background()
	agree := 0
	byRule := map[string]int{}
	byFamily := map[string][2]int{} // family: pairs, agreeing
	for _, p := range pairs {
		off, _, diff := d.CompareModes(ctx, p.Pred, p.Gold)
		fam, _, _ := strings.Cut(p.Name, "/")
		c := byFamily[fam]
		c[0]++
		if b2i(off.Match) == *p.Script {
			agree++
			c[1]++
		} else {
			t.Errorf("%s: official %d, script %d (%s)\n  pred: %s\n  gold: %s", p.Name, b2i(off.Match), *p.Script, off.Reason, p.Pred, p.Gold)
		}
		byFamily[fam] = c
		if diff != nil {
			byRule[diff.Rule]++
		}
	}
	t.Logf("official mode agrees with the script on %d of %d generated pairs", agree, len(pairs))
	var b strings.Builder
	fmt.Fprintf(&b, "pairs %d, official agrees with the script on %d\n", len(pairs), agree)
	fams := make([]string, 0, len(byFamily))
	for f := range byFamily {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		fmt.Fprintf(&b, "shape %s: %d pairs, %d agree\n", f, byFamily[f][0], byFamily[f][1])
	}
	rules := make([]string, 0, len(byRule))
	for r := range byRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	fmt.Fprintln(&b, "corrected differs from official, by the quirk that decided:")
	for _, r := range rules {
		fmt.Fprintf(&b, "  %s: %d\n", r, byRule[r])
	}
	testutil.Golden(t, filepath.Join("etm_shapes", "mode_diffs.txt"), []byte(b.String()), *updateETMShapes)
}
