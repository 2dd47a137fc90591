package match

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// etmCase is one reference row for ETM: a question, one system's prediction, the
// database file and the ETM authors' verdict.
type etmCase struct {
	index      int
	dbPath     string
	gold, pred string
	want       int
}

func etmSpiderCases(tb testing.TB, system string) []etmCase {
	tb.Helper()
	dev := testutil.SpiderDev(tb)
	preds := testutil.SpiderPredictions(tb, system)
	var out []etmCase
	for i, row := range testutil.ReadTSV(tb, testutil.Shared(tb, "data/spider/reference/"+system+".tsv")) {
		idx, err1 := strconv.Atoi(row["index"])
		want, err2 := strconv.Atoi(row["etm"])
		if err1 != nil || err2 != nil || idx < 0 || idx >= len(dev) || idx >= len(preds) {
			tb.Fatalf("%s.tsv row %d: bad index or etm", system, i+1)
		}
		out = append(out, etmCase{index: idx, dbPath: testutil.SpiderDB(tb, dev[idx].DBID), gold: dev[idx].Query, pred: preds[idx], want: want})
	}
	return out
}

func etmBirdCases(tb testing.TB, system string) []etmCase {
	tb.Helper()
	var dev []struct {
		DBID string `json:"db_id"`
		SQL  string `json:"SQL"`
	}
	b, err := os.ReadFile(testutil.Shared(tb, "data/bird/dev.json"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, &dev); err != nil {
		tb.Fatal(err)
	}
	preds := map[int]string{}
	switch system {
	case "TA-SQL":
		var m map[string]string
		pb, err := os.ReadFile(testutil.Shared(tb, "data/bird/predictions/dev/TA-SQL_predict_dev.json"))
		if err != nil {
			tb.Fatal(err)
		}
		if err := json.Unmarshal(pb, &m); err != nil {
			tb.Fatal(err)
		}
		for k, v := range m {
			i, _ := strconv.Atoi(k)
			sql, _, _ := strings.Cut(v, "\t----- bird -----")
			preds[i] = sql
		}
	default:
		pb, err := os.ReadFile(testutil.Shared(tb, "data/bird/predictions/dev/"+system+".txt"))
		if err != nil {
			tb.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(pb), "\n"), "\n") {
			sql, _, _ := strings.Cut(line, "\t")
			preds[i] = sql
		}
	}
	db := testutil.Shared(tb, "data/bird/dev_databases/superhero/superhero.sqlite")
	var out []etmCase
	for i, row := range testutil.ReadTSV(tb, testutil.Shared(tb, "data/bird/reference/dev_"+system+".tsv")) {
		idx, err1 := strconv.Atoi(row["index"])
		want, err2 := strconv.Atoi(row["etm"])
		if err1 != nil || err2 != nil || idx < 0 || idx >= len(dev) {
			tb.Fatalf("dev_%s.tsv row %d: bad index or etm", system, i+1)
		}
		out = append(out, etmCase{index: idx, dbPath: db, gold: dev[idx].SQL, pred: strings.TrimSpace(preds[idx]), want: want})
	}
	return out
}

// etmDBs opens (once) every database the cases use.
func etmDBs(tb testing.TB, cases []etmCase) map[string]*ETMDB {
	tb.Helper()
	dbs := map[string]*ETMDB{}
	for _, c := range cases {
		if _, ok := dbs[c.dbPath]; ok {
			continue
		}
		d, err := OpenETMDB(context.Background(), c.dbPath)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { d.Close() })
		dbs[c.dbPath] = d
	}
	return dbs
}

// TestETMConformance: official mode agrees with the ETM authors' script on every row of
// the visible reference files.
func TestETMConformance(t *testing.T) {
	dump := os.Getenv("ETM_DUMP") // a directory: write every disagreement there, for study
	for _, s := range etmSuites() {
		t.Run(s.name, func(t *testing.T) {
			cases := s.cases(t)
			dbs := etmDBs(t, cases)
			agree := 0
			var report strings.Builder
			for _, c := range cases {
				v := dbs[c.dbPath].Compare(context.Background(), c.pred, c.gold)
				got := 0
				if v.Match {
					got = 1
				}
				if got == c.want {
					agree++
					continue
				}
				fmt.Fprintf(&report, "#%d etm %d ref %d %s\n  pred: %s\n  gold: %s\n", c.index, got, c.want, v.Reason, c.pred, c.gold)
				if dump != "" {
					p, _ := dbs[c.dbPath].Normalize(context.Background(), c.pred)
					g, _ := dbs[c.dbPath].Normalize(context.Background(), c.gold)
					if p != nil && g != nil {
						fmt.Fprintf(&report, "  pk: %s\n  gk: %s\n", p.Key, g.Key)
					}
				}
			}
			t.Logf("%s: official mode agrees on %d/%d", s.name, agree, len(cases))
			if dump != "" {
				os.WriteFile(filepath.Join(dump, strings.ReplaceAll(s.name, "/", "_")+".txt"), []byte(report.String()), 0o644)
			}
			// Official mode reproduces the script: every visible row agrees.
			if agree != len(cases) {
				t.Errorf("%s: official mode disagrees with the ETM script on %d of %d rows:\n%s", s.name, len(cases)-agree, len(cases), report.String())
			}
		})
	}
}

type etmSuite struct {
	name  string
	cases func(testing.TB) []etmCase
}

// etmSuites are the visible reference files: Spider dev (DAIL, C3, DIN) and BIRD dev
// superhero (TA-SQL, C3).
func etmSuites() []etmSuite {
	var suites []etmSuite
	for _, s := range []string{"DAIL", "C3", "DIN"} {
		suites = append(suites, etmSuite{"spider/" + s, func(tb testing.TB) []etmCase { return etmSpiderCases(tb, s) }})
	}
	for _, s := range []string{"TA-SQL", "C3"} {
		suites = append(suites, etmSuite{"bird/" + s, func(tb testing.TB) []etmCase { return etmBirdCases(tb, s) }})
	}
	return suites
}
