package cli

// eval --engine postgres / mysql while the server goes down: the run must stop with a
// non-zero exit, write no verdict the fault caused, and --resume must then give the
// verdicts of an uninterrupted run. PostgreSQL is a private server (privatepg_test.go)
// that the test really stops; MariaDB is the shared one behind a loopback proxy that the
// test cuts. Neither disturbs other tests.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// serverLostData is mini-dev's directory and superhero's SQLite file, or skips.
func serverLostData(t *testing.T) (bird, src string) {
	t.Helper()
	if testing.Short() {
		t.Skip("stops and restarts database servers")
	}
	bird = testutil.Shared(t, "data/bird")
	src = filepath.Join(bird, "dev_databases", "superhero", "superhero.sqlite")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("skipping: %s not found", src)
	}
	return bird, src
}

// TestEvalServerLostPostgres and TestEvalServerLostMySQL are two top-level tests, not two
// parallel subtests of one: a parallel subtest queues for a slot only once its parent
// has had one, and this pair (25-30 s each) started last and ended cli's run 25 s after
// everything else (issue 44).
func TestEvalServerLostPostgres(t *testing.T) {
	bird, src := serverLostData(t)
	t.Parallel()
	pg := startPrivatePG(t)
	setenvOwn(t, "NL2SQLBENCH_TEST_FAULT_DSN_PG", pg.dsn())
	if code, out, stderr := run("load-db", "--engine", "postgres", "--dsn-env", "NL2SQLBENCH_TEST_FAULT_DSN_PG", src); code != exitOK {
		t.Fatalf("load-db: exit %d\n%s%s", code, out, stderr)
	}
	evalLosingServer(t, bird, lostServer{engine: "postgres", dsnEnv: "NL2SQLBENCH_TEST_FAULT_DSN_PG", questions: "mini_dev_postgresql.json", preds: "gpt-4_postgresql",
		sleep: "SELECT 1 AS slept FROM pg_sleep(3)", down: func() error { return pg.stop(t) }, up: func() error { return pg.start(t) }})
}

func TestEvalServerLostMySQL(t *testing.T) {
	bird, src := serverLostData(t)
	t.Parallel()
	tmpl := os.Getenv(defaultMySQLDSNEnv)
	hostPort := regexp.MustCompile(`tcp\(([^)]+)\)`).FindStringSubmatch(tmpl)
	if hostPort == nil {
		t.Skipf("%s not set, or without tcp(host:port): no MySQL server (bash .ci/servers.sh starts one)", defaultMySQLDSNEnv)
	}
	// Its own database (superhero_fault), through a proxy the test cuts.
	setenvOwn(t, "NL2SQLBENCH_TEST_FAULT_LOAD_DSN", tmpl)
	if code, out, stderr := run("load-db", "--engine", "mysql", "--dsn-env", "NL2SQLBENCH_TEST_FAULT_LOAD_DSN", "--db-id", "superhero_fault", src); code != exitOK {
		t.Fatalf("load-db: exit %d\n%s%s", code, out, stderr)
	}
	px := testutil.StartProxy(t, hostPort[1])
	proxied := strings.Replace(tmpl, hostPort[0], "tcp("+px.Addr()+")", 1)
	setenvOwn(t, "NL2SQLBENCH_TEST_FAULT_DSN_MY", strings.ReplaceAll(proxied, "{db}", "{db}_fault"))
	evalLosingServer(t, bird, lostServer{engine: "mysql", dsnEnv: "NL2SQLBENCH_TEST_FAULT_DSN_MY", questions: "mini_dev_mysql.json", preds: "gpt-4_mysql",
		sleep: "SELECT SLEEP(3) AS slept", down: func() error { px.Cut(true); return nil }, up: func() error { px.Cut(false); return nil }})
}

// lostServer is a server a run loses: the engine, the variable holding its DSN, mini-dev's question file and GPT-4's
// prediction stem for it, a statement that runs for 3 s, and how to take the server
// down and bring it back.
type lostServer struct {
	engine, dsnEnv, questions, preds, sleep string
	down, up                                func() error
}

// evalLosingServer judges mini-dev's superhero questions on the server of
// $ls.dsnEnv once without and once with the server going down, then
// resumes the interrupted run.
func evalLosingServer(t *testing.T, bird string, ls lostServer) {
	// The superhero questions (a dataset of their own: --resume wants records numbered
	// from 0) with GPT-4's predictions, except that the question the server goes down
	// at sleeps, so the test knows where the run is when it takes the server down.
	questions, preds := superheroSubset(t, filepath.Join(bird, ls.questions),
		filepath.Join(bird, "predictions", "mini_dev", "predict_mini_dev_"+ls.preds+".json"))
	const at = 10 // the server goes down while question 10 runs
	preds[strconv.Itoa(at)] = ls.sleep + "\t----- bird -----\tsuperhero"
	predFile := filepath.Join(t.TempDir(), "pred.json")
	writeJSON(t, predFile, preds)

	eval := func(out string, extra ...string) (int, string) {
		args := append([]string{"eval", "--dataset", "bird:" + questions,
			"--db-root", filepath.Join(bird, "dev_databases"), "--tables", filepath.Join(bird, "dev_tables.json"),
			"--engine", ls.engine, "--dsn-env", ls.dsnEnv,
			"--workers", "1", "--timeout", "20s", "--pred", "gpt4=" + predFile, "--out", out}, extra...)
		code, _, stderr := run(args...)
		return code, stderr
	}
	clean := t.TempDir()
	if code, stderr := eval(clean); code != exitOK {
		t.Fatalf("uninterrupted eval: exit %d\n%s", code, stderr)
	}
	want := readRecordsFile(t, filepath.Join(clean, "gpt4", "records.jsonl"))

	// evalWhile runs eval into out and, once the sleeping question is running, calls
	// action in the background.
	evalWhile := func(out string, action func() error) (int, string) {
		recPath := filepath.Join(out, "gpt4", "records.jsonl")
		acted := make(chan error, 1)
		go func() {
			deadline := time.Now().Add(2 * time.Minute)
			for countLines(recPath) < at && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(500 * time.Millisecond) // question `at`'s gold has run; its prediction sleeps
			acted <- action()
		}()
		code, stderr := eval(out)
		if err := <-acted; err != nil {
			t.Fatalf("take the server down: %v", err)
		}
		return code, stderr
	}

	// A blip: the server goes down and comes straight back; a retry finds it and the
	// run ends as if nothing happened.
	blip := t.TempDir()
	code, stderr := evalWhile(blip, func() error {
		if err := ls.down(); err != nil {
			return err
		}
		return ls.up()
	})
	t.Logf("eval with a blip: exit %d\n%s", code, stderr)
	switch {
	case code == exitOK:
		if !strings.Contains(stderr, "trying again") {
			t.Errorf("no retry warning on stderr")
		}
		sameVerdicts(t, "after a blip", readRecordsFile(t, filepath.Join(blip, "gpt4", "records.jsonl")), want)
	case strings.Contains(stderr, "nl2sqlbench eval --resume --out "):
		t.Logf("the server took longer to come back than the retries wait: stopped as for a lost server")
	default:
		t.Fatalf("eval with a blip: exit %d", code)
	}

	// Down for good: restart the server only after the run gave up, so the retries
	// (1 s, then 2 s) meet a server that is down.
	out := t.TempDir()
	recPath := filepath.Join(out, "gpt4", "records.jsonl")
	code, stderr = evalWhile(out, ls.down)
	t.Logf("interrupted eval: exit %d\n%s", code, stderr)
	if code == exitOK {
		t.Fatalf("eval exited 0 with the server down")
	}
	for _, w := range []string{"lost connection to " + ls.engine, "at question " + strconv.Itoa(at), "nl2sqlbench eval --resume --out "} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q", w)
		}
	}
	got := readRecordsFile(t, recPath)
	if len(got) != at {
		t.Errorf("%d records written before the fault, want %d", len(got), at)
	}
	wrong := 0
	for i, r := range got {
		if w := want[i]; r.Index != w.Index || r.Verdict != w.Verdict || r.ErrorMessage != w.ErrorMessage {
			wrong++
			t.Errorf("record %d: %d %s %q, uninterrupted %d %s %q", i, r.Index, r.Verdict, r.ErrorMessage, w.Index, w.Verdict, w.ErrorMessage)
		}
	}
	t.Logf("%d records kept before the fault, %d differ from the uninterrupted run", len(got), wrong)

	if err := ls.up(); err != nil {
		t.Fatalf("restart the server: %v", err)
	}
	if code, stderr := eval(out, "--resume"); code != exitOK {
		t.Fatalf("eval --resume: exit %d\n%s", code, stderr)
	}
	sameVerdicts(t, "after --resume", readRecordsFile(t, recPath), want)
}

// sameVerdicts checks a run's records against an uninterrupted run's.
func sameVerdicts(t *testing.T, what string, got, want []record.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
	}
	counts := map[record.Verdict]int{}
	for i, r := range got {
		counts[r.Verdict]++
		if w := want[i]; r.Index != w.Index || r.Verdict != w.Verdict || r.ErrorCategory != w.ErrorCategory || r.ExBird != w.ExBird || r.ExSpider != w.ExSpider {
			t.Errorf("%s: record %d: %d %s/%s, uninterrupted %d %s/%s", what, i, r.Index, r.Verdict, r.ErrorCategory, w.Index, w.Verdict, w.ErrorCategory)
		}
	}
	t.Logf("%s: %d records, verdicts %v, identical to the uninterrupted run", what, len(got), counts)
}

// faultQuestions is how many superhero questions the fault tests judge: ten before the
// fault and fourteen for --resume. All 52 took 15-20 s a run on MariaDB (2-3 questions a
// second), four runs a test, and this pair was cli's last test to end (issue 44).
const faultQuestions = 24

// superheroSubset writes the first faultQuestions superhero questions of a BIRD question
// file, and returns that file and their predictions keyed by their position in it.
func superheroSubset(t *testing.T, questions, predictions string) (string, map[string]string) {
	t.Helper()
	b, err := os.ReadFile(questions)
	if err != nil {
		t.Fatal(err)
	}
	var qs []json.RawMessage
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(predictions)
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{}
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var sub []json.RawMessage
	preds := map[string]string{}
	for i, q := range qs {
		var f struct {
			DBID string `json:"db_id"`
		}
		if err := json.Unmarshal(q, &f); err != nil {
			t.Fatal(err)
		}
		if f.DBID == "superhero" && len(sub) < faultQuestions {
			preds[strconv.Itoa(len(sub))] = all[strconv.Itoa(i)]
			sub = append(sub, q)
		}
	}
	if len(sub) < faultQuestions {
		t.Fatalf("%d superhero questions in %s", len(sub), questions)
	}
	path := filepath.Join(t.TempDir(), "superhero.json")
	writeJSON(t, path, sub)
	return path, preds
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// countLines is the number of complete lines in path (0 when it does not exist yet).
func countLines(path string) int {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || err != nil {
		return 0
	}
	return strings.Count(string(b), "\n")
}
