package cli

// eval against real PostgreSQL and MariaDB servers, through the command line: load-db
// copies BIRD's superhero database into the server, eval --engine judges the BIRD
// mini-dev PostgreSQL / MySQL gold and released predictions on it, and every ex_bird
// must equal the official reference verdict (or its alternative query plan's, or a
// deviation listed with its reason in testutil.MiniDevServerDeviations). The servers
// come from .ci/servers.sh; without its environment variables the test skips.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

func TestEvalOnServers(t *testing.T) {
	bird := testutil.Shared(t, "data/bird")
	src := filepath.Join(bird, "dev_databases", "superhero", "superhero.sqlite")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("skipping: %s not found", src)
	}
	cases := []struct {
		engine, envVar, questions string
		stems                     []string
	}{
		{"postgres", defaultPGDSNEnv, "mini_dev_postgresql.json", []string{"gpt-4_postgresql", "meta-llama-3-70b-instruct-2_postgresql"}},
		{"mysql", defaultMySQLDSNEnv, "mini_dev_mysql.json", []string{"gpt-4_mysql", "meta-llama-3-70b-instruct-2_mysqljson"}},
	}
	sensitive := testutil.ReadPlanSensitive(t, filepath.Join(bird, "reference", "mini_dev_pg_mysql_plan_sensitive.tsv"))
	for _, tc := range cases {
		t.Run(tc.engine, func(t *testing.T) {
			if os.Getenv(tc.envVar) == "" {
				t.Skipf("%s not set: no %s server (bash .ci/servers.sh starts one; see the README)", tc.envVar, tc.engine)
			}
			// Its own schema / database (superhero_cli): the engine package's tests load
			// superhero into the same server, maybe at the same time.
			tmpl := os.Getenv(tc.envVar)
			t.Setenv("NL2SQLBENCH_TEST_CLI_DSN", strings.ReplaceAll(tmpl, "{db}", "{db}_cli"))
			if code, out, stderr := run("load-db", "--engine", tc.engine, "--db-id", "superhero_cli", src); code != exitOK || !strings.Contains(out, "superhero_cli: 10 tables") {
				t.Fatalf("load-db: exit %d\n%s%s", code, out, stderr)
			}
			out := t.TempDir()
			args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:" + filepath.Join(bird, tc.questions),
				"--db-root", filepath.Join(bird, "dev_databases"), "--tables", filepath.Join(bird, "dev_tables.json"),
				"--engine", tc.engine, "--dsn-env", "NL2SQLBENCH_TEST_CLI_DSN", "--db-id", "superhero", "--flex", "--out", out}
			for _, stem := range tc.stems {
				args = append(args, "--pred", stem+"="+filepath.Join(bird, "predictions", "mini_dev", "predict_mini_dev_"+stem+".json"))
			}
			if code, _, stderr := run(args...); code != exitOK {
				t.Fatalf("eval: exit %d\n%s", code, stderr)
			}
			for _, stem := range tc.stems {
				ref := testutil.ReadReferenceColumn(t, filepath.Join(bird, "reference", "mini_dev_"+stem+".tsv"), "bird_ex")
				recs := readRecordsFile(t, filepath.Join(out, stem, "records.jsonl"))
				if len(recs) != len(ref) {
					t.Fatalf("%s: %d records, reference has %d superhero rows", stem, len(recs), len(ref))
				}
				agree, known := 0, 0
				for _, r := range recs {
					key := stem + "/" + strconv.Itoa(r.Index)
					want, ok := ref[r.Index]
					if !ok {
						t.Fatalf("%s: record index %d is not in the reference", stem, r.Index)
					}
					if r.FlexVerdict == "" {
						t.Errorf("%s index %d: no flex verdict with --flex", stem, r.Index)
					}
					alt, planSensitive := sensitive[key]
					switch {
					case r.ExBird == want:
						agree++
					case planSensitive && r.ExBird == alt:
						agree++
					case testutil.MiniDevServerDeviations[key] != "":
						known++
					default:
						t.Errorf("%s index %d: ex_bird %d, reference %d (%s: %s)\n  pred: %s", stem, r.Index, r.ExBird, want, r.Verdict, r.ErrorMessage, r.PredSQL)
					}
				}
				t.Logf("%s via eval --engine %s: %d/%d ex_bird equal the reference, %d known deviations", stem, tc.engine, agree, len(recs), known)
			}
			// A database of that name that is another database (the demo's first) is
			// refused before anything is judged, naming what it lacks.
			f := demoFiles(t)
			ents, _ := os.ReadDir(f.DBRoot)
			other := filepath.Join(f.DBRoot, ents[0].Name(), ents[0].Name()+".sqlite")
			if code, out, stderr := run("load-db", "--engine", tc.engine, "--db-id", "superhero_bad_cli", other); code != exitOK {
				t.Fatalf("load-db of another database: exit %d\n%s%s", code, out, stderr)
			}
			t.Setenv("NL2SQLBENCH_TEST_CLI_BAD_DSN", strings.ReplaceAll(tmpl, "{db}", "{db}_bad_cli"))
			bad := append([]string{}, args...)
			for i := range bad {
				if bad[i] == "NL2SQLBENCH_TEST_CLI_DSN" {
					bad[i] = "NL2SQLBENCH_TEST_CLI_BAD_DSN"
				}
				if bad[i] == out {
					bad[i] = filepath.Join(t.TempDir(), "bad")
				}
			}
			if code, _, stderr := run(bad...); code == exitOK || !strings.Contains(stderr, "database superhero at $NL2SQLBENCH_TEST_CLI_BAD_DSN is not the superhero") || !strings.Contains(stderr, "no table") {
				t.Errorf("eval on another database of the same name: exit %d\n%s", code, stderr)
			}
			sum := readSummary(t, out)
			if s := sum.Settings; s.Engine != tc.engine || s.GoldEngine != tc.engine || len(s.DBIDs) != 1 || sum.Dataset.Questions != 52 || len(sum.Flex) != 2 {
				t.Errorf("summary settings %+v, %d questions, %d flex summaries; want engine %s, db_ids [superhero], 52 questions, 2", s, sum.Dataset.Questions, len(sum.Flex), tc.engine)
			}
		})
	}
}

// TestEngineFlagErrors: engine flags that cannot work are refused before anything runs,
// and a missing DSN names its variable.
func TestEngineFlagErrors(t *testing.T) {
	f := demoFiles(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown engine", []string{"--engine", "oracle"}, exitUsage, `unknown engine "oracle"`},
		{"sqlpp without endpoint", []string{"--engine", "sqlpp"}, exitUsage, "needs --sqlpp-endpoint"},
		{"sqlpp gold same", []string{"--engine", "sqlpp", "--sqlpp-endpoint", "http://127.0.0.1:1", "--gold-engine", "same"}, exitUsage, "use --gold-engine sqlite"},
		{"bad gold engine", []string{"--gold-engine", "mysql"}, exitUsage, "--gold-engine"},
		{"ves on server", []string{"--engine", "postgres", "--ves"}, exitUsage, "--ves times queries on the SQLite files"},
		{"no dsn", []string{"--engine", "postgres", "--dsn-env", "NL2SQLBENCH_TEST_UNSET_DSN"}, exitError, "NL2SQLBENCH_TEST_UNSET_DSN"},
		{"unknown db-id", []string{"--db-id", "atlantis"}, exitUsage, `--db-id "atlantis"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "jsonl:" + f.Questions, "--pred", f.Systems[f.SystemOrder[0]], "--out", t.TempDir()}, tt.args...)
			code, _, stderr := run(args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
	// An unreachable server stops the run before judging, and the password stays out.
	t.Setenv("NL2SQLBENCH_TEST_DEAD_DSN", "postgres://u:s3cret@127.0.0.1:1/x?search_path={db}")
	code, _, stderr := run("eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "jsonl:"+f.Questions, "--pred", f.Systems[f.SystemOrder[0]], "--out", t.TempDir(),
		"--engine", "postgres", "--dsn-env", "NL2SQLBENCH_TEST_DEAD_DSN")
	if code != exitError || !strings.Contains(stderr, "cannot run a query on database") || strings.Contains(stderr, "s3cret") {
		t.Errorf("unreachable server: exit %d, %q", code, stderr)
	}
	if code, _, stderr := run("load-db", "--engine", "sqlite", "x.sqlite"); code != exitUsage || !strings.Contains(stderr, "postgres or mysql") {
		t.Errorf("load-db --engine sqlite: exit %d, %q", code, stderr)
	}
}
