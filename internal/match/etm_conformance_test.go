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

// knownETMDisagreements lists every question where ETM deliberately differs from the
// ETM authors' script, with the reason. Keyed by system, then dev index.
var knownETMDisagreements = map[string]map[int]string{
	"spider/C3": {
		313: quirkJoinsKey,
		595: quirkAliasRef, 596: quirkAliasRef, 605: quirkAliasRef, 606: quirkAliasRef,
		759: quirkCompositeUnique,
		793: quirkAliasRef, 798: quirkAliasRef,
	},
	"spider/DAIL": {
		533: quirkGroupByDrop,
		606: quirkAliasRef,
		770: quirkCorrelated,
	},
	"spider/DIN": {
		595: quirkAliasRef, 596: quirkAliasRef, 605: quirkAliasRef,
	},
}

// Reasons for the known disagreements: each is a behaviour of the ETM script that this
// implementation deliberately does not copy.
const (
	// The script replaces a result alias used in ORDER BY / HAVING by a column reference
	// wrapping the aliased expression, so "ORDER BY cnt" never equals "ORDER BY
	// COUNT(*)"; SQLite reads the alias as the expression, and so does P6 here.
	quirkAliasRef = "reference quirk: alias referenced in ORDER BY/HAVING never matches its expression there (P6 applied here)"
	// After rule 14 removes a join the script still sees an (empty) join list, so
	// rule 2 no longer drops DISTINCT inside COUNT on the remaining single table.
	quirkJoinsKey = "reference quirk: rule 2 not applied after rule 14 removed the join"
	// The script treats any column of a composite primary key as UNIQUE.
	quirkCompositeUnique = "reference quirk: a column of a composite primary key is taken as UNIQUE (rule 2); here it is not"
	// The script's rule 4 keeps only the first unique column, dropping GROUP BY columns of
	// other tables too, which changes the groups.
	quirkGroupByDrop = "reference quirk: rule 4 drops GROUP BY columns of other tables; here only columns of the unique column's table go"
	// A correlated column in an IN subquery (naming the outer table) is left unresolved
	// by the script; it is resolved here, as SQLite does, and rule 13 then applies.
	quirkCorrelated = "reference quirk: correlated column in the IN subquery not resolved to the outer table"
)

func TestETMConformance(t *testing.T) {
	type suite struct {
		name  string
		cases func(testing.TB) []etmCase
	}
	var suites []suite
	for _, s := range []string{"DAIL", "C3", "DIN"} {
		suites = append(suites, suite{"spider/" + s, func(tb testing.TB) []etmCase { return etmSpiderCases(tb, s) }})
	}
	for _, s := range []string{"TA-SQL", "C3"} {
		suites = append(suites, suite{"bird/" + s, func(tb testing.TB) []etmCase { return etmBirdCases(tb, s) }})
	}
	dump := os.Getenv("ETM_DUMP") // a directory: write every disagreement there, for study
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			cases := s.cases(t)
			dbs := etmDBs(t, cases)
			agree, listed := 0, 0
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
				if why, ok := knownETMDisagreements[s.name][c.index]; ok {
					listed++
					t.Logf("known disagreement #%d (etm %d, reference %d): %s", c.index, got, c.want, why)
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
			rate := float64(agree) / float64(len(cases))
			t.Logf("%s: %d/%d agree (%.2f%%), %d known disagreements", s.name, agree, len(cases), 100*rate, listed)
			if dump != "" {
				os.WriteFile(filepath.Join(dump, strings.ReplaceAll(s.name, "/", "_")+".txt"), []byte(report.String()), 0o644)
			}
			if rate < 0.99 {
				t.Errorf("%s: agreement %.2f%% is below the issue's 99%% floor; unexplained disagreements:\n%s", s.name, 100*rate, report.String())
			} else if report.Len() > 0 {
				t.Errorf("%s: unexplained disagreements:\n%s", s.name, report.String())
			}
		})
	}
}
