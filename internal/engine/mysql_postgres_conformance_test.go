package engine_test

// Conformance of the server engines with BIRD's official mini-dev evaluation: the
// superhero questions of mini_dev_{postgresql,mysql}.json, gold and the released
// predictions run on PostgreSQL / MariaDB (superhero loaded from its SQLite file), each
// verdict compared by judge.BirdEqual with the reference verdicts in
// bird/reference/mini_dev_<system>_<dialect>.tsv. A question listed in
// mini_dev_pg_mysql_plan_sensitive.tsv whose verdict changes with the query plan may
// take either value. testutil.MiniDevServerDeviations lists, with the reason, the
// verdicts that differ on purpose.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// miniDevServer is one server dialect of the BIRD mini-dev conformance tests.
type miniDevServer struct {
	name, envVar string
	dialect      export.Dialect
	questions    string
	stems        []string // prediction / reference stems
}

var miniDevServerCases = []miniDevServer{
	{"postgres", pgDSNVar, export.Postgres, "mini_dev_postgresql.json",
		[]string{"gpt-4_postgresql", "meta-llama-3-70b-instruct-2_postgresql"}},
	{"mysql", mysqlDSNVar, export.MySQL, "mini_dev_mysql.json",
		[]string{"gpt-4_mysql", "meta-llama-3-70b-instruct-2_mysqljson"}},
}

// openMiniDevServer loads superhero into the case's server (skipping when none is
// configured) and returns an engine on it.
func openMiniDevServer(tb testing.TB, tc miniDevServer, src string) engine.Engine {
	tb.Helper()
	dsn := serverDSN(tb, tc.envVar)
	loadInto(tb, tc.dialect, dsn, src, "superhero")
	if tc.dialect == export.MySQL {
		return engine.NewMySQL(dsn, 4)
	}
	return engine.NewPostgres(dsn, 4)
}

func TestMiniDevServerConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("loading superhero into both servers is slow for -short; go test ./... runs it")
	}
	bird := testutil.Shared(t, "data/bird")
	src := filepath.Join(bird, "dev_databases", "superhero", "superhero.sqlite")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("skipping: %s not found", src)
	}
	for _, tc := range miniDevServerCases {
		t.Run(tc.name, func(t *testing.T) {
			eng := openMiniDevServer(t, tc, src)
			defer eng.Close()
			gold := readMiniDevGold(t, filepath.Join(bird, tc.questions))
			sensitive := testutil.ReadPlanSensitive(t, filepath.Join(bird, "reference", "mini_dev_pg_mysql_plan_sensitive.tsv"))
			for _, stem := range tc.stems {
				preds := readBirdPredictions(t, filepath.Join(bird, "predictions", "mini_dev", "predict_mini_dev_"+stem+".json"))
				ref := testutil.ReadReferenceColumn(t, filepath.Join(bird, "reference", "mini_dev_"+stem+".tsv"), "bird_ex")
				agree, loose, known := 0, 0, 0
				for idx, want := range ref {
					g, ok := gold[idx]
					if !ok {
						t.Fatalf("%s: reference index %d is not a superhero question", stem, idx)
					}
					got := serverEX(eng, g, preds[idx])
					alt, planSensitive := sensitive[stem+"/"+strconv.Itoa(idx)]
					switch {
					case got == want:
						agree++
					case planSensitive && got == alt:
						loose++
					case testutil.MiniDevServerDeviations[stem+"/"+strconv.Itoa(idx)] != "":
						known++
						t.Logf("%s index %d: ex %d, reference %d (known: %s)", stem, idx, got, want, testutil.MiniDevServerDeviations[stem+"/"+strconv.Itoa(idx)])
					default:
						t.Errorf("%s index %d: ex %d, reference %d\n  pred: %s", stem, idx, got, want, preds[idx])
					}
				}
				t.Logf("%s: %d/%d verdicts equal the reference, %d more its alternative plan's, %d known deviations", stem, agree, len(ref), loose, known)
			}
			// The plan-sensitive list also gives verdicts for the other systems' files.
			checked := 0
			for _, r := range testutil.ReadTSV(t, filepath.Join(bird, "reference", "mini_dev_pg_mysql_plan_sensitive.tsv")) {
				stem := r["stem"]
				if !strings.HasSuffix(stem, "_"+tc.name+"ql") && !strings.HasSuffix(stem, "_"+tc.name) && !strings.HasSuffix(stem, "_"+tc.name+"json") {
					continue
				}
				idx := testutil.Atoi(t, r["index"])
				preds := readBirdPredictions(t, filepath.Join(bird, "predictions", "mini_dev", "predict_mini_dev_"+stem+".json"))
				got := serverEX(eng, gold[idx], preds[idx])
				if got != testutil.Atoi(t, r["bird_ex"]) && got != testutil.Atoi(t, r["alt_ex"]) && testutil.MiniDevServerDeviations[stem+"/"+r["index"]] == "" {
					t.Errorf("%s index %d: ex %d, plan-sensitive reference %s (alternative %s)", stem, idx, got, r["bird_ex"], r["alt_ex"])
				}
				checked++
			}
			t.Logf("%s: %d plan-sensitive reference verdicts checked", tc.name, checked)
		})
	}
}

// serverEX is BIRD's execution accuracy of one prediction: 1 when both run and their
// results are equal as sets, 0 otherwise (a gold error counts 0, as the official script).
func serverEX(eng engine.Engine, gold, pred string) int {
	ctx := context.Background()
	lim := engine.Limits{Timeout: 30 * time.Second, MaxRows: 1_000_000}
	g, err := eng.Query(ctx, "superhero", gold, lim)
	if err != nil {
		return 0
	}
	p, err := eng.Query(ctx, "superhero", pred, lim)
	if err != nil || !judge.BirdEqual(p, g) {
		return 0
	}
	return 1
}

func readMiniDevGold(tb testing.TB, path string) map[int]string {
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
	out := map[int]string{}
	for i, q := range qs {
		if q.DBID == "superhero" {
			out[i] = q.SQL
		}
	}
	return out
}

func readBirdPredictions(tb testing.TB, path string) map[int]string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	out := map[int]string{}
	for k, v := range m {
		i, err := strconv.Atoi(k)
		if err != nil {
			tb.Fatalf("%s: key %q: %v", path, k, err)
		}
		sql, _, _ := strings.Cut(v, "\t----- bird -----\t")
		out[i] = sql
	}
	return out
}
