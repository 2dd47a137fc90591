package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// taskSubset writes a livesql:DIR holding the tasks ids of src (in src's order), its
// setup and knowledge base copied, and returns it with the tasks as read.
func taskSubset(t *testing.T, src string, ids ...string) (string, map[string]taskset.Task) {
	t.Helper()
	ctx := context.Background()
	all, err := taskset.LoadLiveSQL(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, sub := range []string{"setup", "db_blog"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join(src, sub))); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	// The task file's own lines, so the subset is read exactly as the original.
	var b strings.Builder
	dec := json.NewDecoder(strings.NewReader(readFileT(t, all.File)))
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		var head struct {
			ID string `json:"instance_id"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			t.Fatal(err)
		}
		if want[head.ID] {
			b.Write(raw)
			b.WriteByte('\n')
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "prompts.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks := map[string]taskset.Task{}
	for _, task := range all.Tasks {
		if want[task.ID] {
			tasks[task.ID] = task
		}
	}
	return dir, tasks
}

func readFileT(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeJSONL(t *testing.T, path string, lines []map[string]any) {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func taskRecords(t *testing.T, path string) map[string]record.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]record.Record{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r record.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out[r.QuestionID] = r
	}
	return out
}

// officialVerdicts reads livesql's testdata/official_verdicts.tsv: instance_id, pass or
// fail, the official failure kind.
func officialVerdicts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, l := range strings.Split(readFileT(t, filepath.Join(testutil.RepoRoot(t), "internal", "livesql", "testdata", "official_verdicts.tsv")), "\n") {
		if f := strings.Split(l, "\t"); len(f) == 3 {
			out[f[0]] = f[1]
		}
	}
	return out
}

// taskServerMu lets the tests that copy task databases on the PostgreSQL server run side
// by side (10-35 s each of a loaded machine's wall time, mostly the server creating and
// dropping databases, under 2 CPU-s of this process: taking turns, they were a chain of
// 60-80 s in this package) while each check that this process left no copy (pg.Mine)
// looks when no other test's run has copies in flight: a run holds it shared
// (shareTaskServer), a check exclusively (noTaskCopies). They are skipped under -short
// (skipLongInShort).
var taskServerMu sync.RWMutex

// shareTaskServer holds taskServerMu shared until the returned function (or the test's
// end) releases it; a test must release it before noTaskCopies.
func shareTaskServer(tb testing.TB) (release func()) {
	taskServerMu.RLock()
	var once sync.Once
	release = func() { once.Do(taskServerMu.RUnlock) }
	tb.Cleanup(release)
	return release
}

// noTaskCopies fails the test if this process has task databases on the server, once
// no other test's run has copies in flight.
func noTaskCopies(tb testing.TB, pg *taskdb.Postgres, when string) {
	tb.Helper()
	taskServerMu.Lock()
	left, err := pg.Mine(context.Background())
	taskServerMu.Unlock()
	if err != nil || len(left) > 0 {
		tb.Errorf("task databases left %s: %v %v", when, left, err)
	}
}

// TestTaskLiveSQLEndToEnd runs eval on five bat-interact tasks on PostgreSQL, the gold
// as the prediction but for one hand-written wrong one: a task the official evaluator
// passes (with its follow-up judged on what the first turn's prediction left), one whose
// gold returns no rows and one whose gold uses DISTINCT ON (both failed by the official
// evaluator), a Management task (not judged without --task-code python) and a wrong
// WHERE. Verdicts equal the official ones, the template's every table is unchanged and
// no task copy is left.
func TestTaskLiveSQLEndToEnd(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	release := shareTaskServer(t)
	src := testutil.Shared(t, "data/evalbench/bat-interact")
	dsn := os.Getenv("NL2SQLBENCH_PG_DSN")
	if dsn == "" {
		t.Skip("skipping: NL2SQLBENCH_PG_DSN not set (eval \"$(bash .ci/servers.sh)\" starts a server)")
	}
	ctx := context.Background()
	pg, err := taskdb.OpenPostgres(ctx, dsn)
	if err != nil {
		t.Skip("skipping: ", err)
	}
	defer pg.Close()
	const (
		pass     = "db_blog_0"   // official: pass; its follow-up is a Query
		empty    = "db_blog_15"  // official: fail (the gold returns no rows)
		distinct = "db_blog_19"  // official: fail (DISTINCT stripped from DISTINCT ON)
		mgmt     = "db_blog_M_1" // Management: test cases
		wrong    = "db_blog_4"   // official: pass with the gold; here a wrong WHERE
	)
	dir, tasks := taskSubset(t, src, pass, empty, distinct, mgmt, wrong)
	var preds []map[string]any
	for id, task := range tasks {
		p := map[string]any{"instance_id": id, "pred_sqls": task.SolSQL}
		if task.FollowUp != nil {
			p["follow_up_pred_sqls"] = task.FollowUp.SolSQL
		}
		if id == wrong {
			p["pred_sqls"] = "SELECT T1.title FROM tbl_posts AS T1 WHERE T1.user_id > 3"
		}
		preds = append(preds, p)
	}
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	writeJSONL(t, predFile, preds)

	setup, err := taskset.LiveSQLSetup(ctx, dir, "db_blog")
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := pg.Template(ctx, setup)
	if err != nil {
		t.Fatal(err)
	}
	sums := func() map[string]string {
		c, err := tmpl.Copy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Drop(ctx)
		s, err := c.Checksum(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := sums()

	out := filepath.Join(t.TempDir(), "run")
	stdout, _ := runCLI(t, "eval", "--dataset", "livesql:"+dir, "--pred", "sys="+predFile, "--engine", "postgres",
		"--dsn-env", "NL2SQLBENCH_PG_DSN", "--out", out, "--workers", "2")
	for _, want := range []string{"sys: tasks by phase", "Management", "mean reward", "(4 of 5; 1 not judged: needs --task-code python)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("terminal lacks %q:\n%s", want, stdout)
		}
	}
	recs := taskRecords(t, filepath.Join(out, "sys", "records.jsonl"))
	official := officialVerdicts(t)
	for _, id := range []string{pass, empty, distinct} {
		got := "fail"
		if recs[id].Verdict == record.Correct {
			got = "pass"
		}
		if got != official[id] {
			t.Errorf("%s: %s (%s), official %s", id, got, recs[id].ErrorMessage, official[id])
		}
	}
	if r := recs[pass]; r.FollowUp == nil || r.FollowUp.Verdict != record.Correct || r.TaskReward == nil || *r.TaskReward != 1 {
		t.Errorf("%s: follow-up %+v, reward %v; want correct and 1", pass, r.FollowUp, r.TaskReward)
	}
	if r := recs[empty]; r.TaskFailure != record.FailMismatch || r.FollowUp.Verdict != record.Skipped || *r.TaskReward != 0 {
		t.Errorf("%s: %+v; want a mismatch, the follow-up not reached, reward 0", empty, r.Task)
	}
	if r := recs[mgmt]; r.Verdict != record.Skipped || r.TaskNotJudged != record.NotJudgedTaskCode || r.TaskReward != nil {
		t.Errorf("%s: %s %q; want skipped, %q, no reward", mgmt, r.Verdict, r.TaskNotJudged, record.NotJudgedTaskCode)
	}
	if r := recs[wrong]; r.Verdict != record.Incorrect || r.TaskFailure != record.FailMismatch || len(r.TaskRan) == 0 {
		t.Errorf("%s: %s %q, ran %d; want incorrect, mismatch, what ran", wrong, r.Verdict, r.TaskFailure, len(r.TaskRan))
	}

	if diff := cmp.Diff(before, sums()); diff != "" {
		t.Errorf("template changed (-before +after):\n%s", diff)
	}
	release()
	noTaskCopies(t, pg, "after the run")
	runCLI(t, "verify", out)
	// The Markdown and HTML reports say why the Management task was not judged, as the
	// terminal does (summary.json's skips section).
	md, html := filepath.Join(t.TempDir(), "r.md"), filepath.Join(t.TempDir(), "r.html")
	runCLI(t, "report", out, "--md", md, "--html", html, "--no-exec")
	for _, f := range []string{md, html} {
		if got := strings.ReplaceAll(readFileT(t, f), `\-`, "-"); !strings.Contains(got, "4 of 5; 1 not judged: needs --task-code python") || strings.Contains(got, "database missing") {
			t.Errorf("%s does not say why a task was not judged", f)
		}
	}
}

// TestTaskEvalBenchSQLite judges EvalBench's bat dql tasks on SQLite copies: the golden
// SQL as the prediction is correct on every task, a wrong one incorrect.
func TestTaskEvalBenchSQLite(t *testing.T) {
	dir := testutil.Shared(t, "data/evalbench/bat")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // templates and copies
	ds, err := taskset.LoadEvalBench(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var preds []map[string]any
	wrong := ""
	for _, task := range ds.Tasks {
		p := map[string]any{"instance_id": task.ID, "pred_sqls": task.Golden["sqlite"]}
		if wrong == "" && task.QueryType == "dql" {
			wrong = task.ID
			p["pred_sqls"] = "SELECT -1" // task 3 counts 1 blogger: SELECT 1 would be right
		}
		preds = append(preds, p)
	}
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	writeJSONL(t, predFile, preds)
	out := filepath.Join(t.TempDir(), "run")
	runCLI(t, "eval", "--dataset", "evalbench:"+dir, "--pred", "sys="+predFile, "--engine", "sqlite", "--out", out)
	recs := taskRecords(t, filepath.Join(out, "sys", "records.jsonl"))
	dql := 0
	for _, task := range ds.Tasks {
		r := recs[task.ID]
		switch {
		case task.ID == wrong:
			if r.Verdict != record.Incorrect || r.TaskFailure != record.FailMismatch {
				t.Errorf("task %s, a wrong prediction: %s %q", task.ID, r.Verdict, r.ErrorMessage)
			}
		case task.QueryType == "dql":
			dql++
			if r.Verdict != record.Correct {
				t.Errorf("task %s, golden vs golden: %s %q", task.ID, r.Verdict, r.ErrorMessage)
			}
		}
	}
	if dql != 15 {
		t.Errorf("%d dql tasks judged golden against golden, want 15", dql)
	}
	runCLI(t, "verify", out)
}

// TestTaskPredErrors: a bad prediction line is refused naming file:line and key; an
// unknown --livesql-mode is refused.
func TestTaskPredErrors(t *testing.T) {
	dir := testutil.Shared(t, "data/evalbench/bat")
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"instance_id\": \"3\", \"pred_sqls\": [\"SELECT 1\"]}\n{\"instance_id\": \"5\", \"pred_sqls\": 7}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	code, _, stderr := run("eval", "--dataset", "evalbench:"+dir, "--pred", "sys="+bad, "--out", filepath.Join(t.TempDir(), "r"))
	if code == 0 || !strings.Contains(stderr, bad+":2") || !strings.Contains(stderr, `"pred_sqls"`) {
		t.Errorf("exit %d, stderr %q; want an error naming %s:2 and pred_sqls", code, stderr, bad)
	}
	code, _, stderr = run("eval", "--dataset", "evalbench:"+dir, "--pred", "sys="+bad, "--livesql-mode", "bogus", "--out", filepath.Join(t.TempDir(), "r"))
	if code == 0 || !strings.Contains(stderr, "official or corrected") {
		t.Errorf("--livesql-mode bogus: exit %d, stderr %q; want refused naming the two modes", code, stderr)
	}
}

// TestTaskResumeAfterCancel: a livesql run cancelled after its first record (in process,
// as a SIGINT does) leaves no task database behind, and --resume gives the records of a
// clean run (timings aside).
func TestTaskResumeAfterCancel(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	release := shareTaskServer(t)
	src := testutil.Shared(t, "data/evalbench/bat-interact")
	if os.Getenv("NL2SQLBENCH_PG_DSN") == "" {
		t.Skip("skipping: NL2SQLBENCH_PG_DSN not set (eval \"$(bash .ci/servers.sh)\" starts a server)")
	}
	bg := context.Background()
	pg, err := taskdb.OpenPostgres(bg, os.Getenv("NL2SQLBENCH_PG_DSN"))
	if err != nil {
		t.Skip("skipping: ", err)
	}
	defer pg.Close()
	dir, tasks := taskSubset(t, src, "db_blog_0", "db_blog_M_1", "db_blog_4", "db_blog_15")
	var preds []map[string]any
	for id, task := range tasks {
		p := map[string]any{"instance_id": id, "pred_sqls": task.SolSQL}
		if task.FollowUp != nil {
			p["follow_up_pred_sqls"] = task.FollowUp.SolSQL
		}
		preds = append(preds, p)
	}
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	writeJSONL(t, predFile, preds)
	args := func(out string) []string {
		return []string{"eval", "--dataset", "livesql:" + dir, "--pred", "sys=" + predFile, "--engine", "postgres",
			"--dsn-env", "NL2SQLBENCH_PG_DSN", "--out", out, "--workers", "1"}
	}
	clean := filepath.Join(t.TempDir(), "clean")
	runCLI(t, args(clean)...)
	want := readFileT(t, filepath.Join(clean, "sys", "records.jsonl"))

	// Cancelled once the first record is written (one worker: the next task is on its copy).
	out := filepath.Join(t.TempDir(), "cut")
	recs := filepath.Join(out, "sys", "records.jsonl")
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if b, err := os.ReadFile(recs); err == nil && bytes.Count(b, []byte("\n")) >= 1 {
				cancel()
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var o, e strings.Builder
	if code := Run(ctx, cmdline(args(out)...), strings.NewReader(""), &o, &e); code == 0 {
		t.Fatalf("the cancelled run exited 0:\n%s", o.String())
	}
	if n := strings.Count(readFileT(t, recs), "\n"); n >= len(tasks) {
		t.Fatalf("the cancelled run wrote %d records of %d: nothing left to resume", n, len(tasks))
	} else {
		t.Logf("cancelled after %d records: %s", n, e.String())
	}
	release()
	noTaskCopies(t, pg, "by the cancelled run")

	release = shareTaskServer(t)
	var o2, e2 strings.Builder
	if code := Run(bg, cmdline("eval", "--resume", "--out", out, "--engine", "postgres", "--dsn-env", "NL2SQLBENCH_PG_DSN"), strings.NewReader(""), &o2, &e2); code != 0 {
		t.Fatalf("--resume: exit %d\n%s", code, e2.String())
	}
	if got := readFileT(t, recs); stripTimes([]byte(got)) != stripTimes([]byte(want)) {
		t.Errorf("resumed records differ from a clean run's:\n%s\nwant\n%s", got, want)
	}
	release()
	noTaskCopies(t, pg, "after --resume")
	// Alone: another test's run would sweep the killed child's copies (their owner is
	// gone) before --resume could show it drops them.
	taskServerMu.Lock()
	defer taskServerMu.Unlock()
	taskResumeAfterKill(t, pg, args, want, len(tasks))
}

// taskResumeAfterKill: the command (this test binary as nl2sqlbench) killed with
// SIGKILL once its first record is written leaves its copies behind, as no cleanup
// runs; --resume drops them (their owner is gone), judges the rest, and the records
// equal a clean run's.
func taskResumeAfterKill(t *testing.T, pg *taskdb.Postgres, args func(string) []string, want string, tasks int) {
	bg := context.Background()
	out := filepath.Join(t.TempDir(), "killed")
	recs := filepath.Join(out, "sys", "records.jsonl")
	// The child has the users' defaults: it states the limits this package's runs have.
	cmd := exec.Command(testBinary(t), append(args(out), "--timeout", testTimeout.String(), "--max-rows", strconv.Itoa(testMaxRows))...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if b, err := os.ReadFile(recs); err == nil && bytes.Count(b, []byte("\n")) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("no record within 2 minutes:\n%s", stderr.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	n := strings.Count(readFileT(t, recs), "\n")
	if n >= tasks {
		t.Fatalf("the killed run wrote all %d records: nothing left to resume", n)
	}
	left, err := pg.OwnedBy(bg, cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("killed after %d records, leaving %d task databases: %v", n, len(left), left)
	var o, e strings.Builder
	if code := Run(bg, cmdline("eval", "--resume", "--out", out, "--engine", "postgres", "--dsn-env", "NL2SQLBENCH_PG_DSN"), strings.NewReader(""), &o, &e); code != 0 {
		t.Fatalf("--resume after kill -9: exit %d\n%s", code, e.String())
	}
	if got := readFileT(t, recs); stripTimes([]byte(got)) != stripTimes([]byte(want)) {
		t.Errorf("records resumed after kill -9 differ from a clean run's:\n%s\nwant\n%s", got, want)
	}
	if still, err := pg.OwnedBy(bg, cmd.Process.Pid); err != nil || len(still) > 0 {
		t.Errorf("task databases of the killed run left after --resume: %v %v", still, err)
	}
}

// TestTaskAudit: audit on bat-interact tasks known to be broken reports each as a gold
// problem in audit.jsonl: golds that return no rows (db_blog_15, 20, 21: the official
// ex_base fails them whatever the prediction), a DISTINCT ON the official stripping
// breaks (db_blog_19), NOW() on fixed data (db_blog_4), and a preprocess that fails (a
// copy of db_blog_0 given one); db_blog_0 itself has no finding.
func TestTaskAudit(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	shareTaskServer(t)
	src := testutil.Shared(t, "data/evalbench/bat-interact")
	if os.Getenv("NL2SQLBENCH_PG_DSN") == "" {
		t.Skip("skipping: NL2SQLBENCH_PG_DSN not set (eval \"$(bash .ci/servers.sh)\" starts a server)")
	}
	dir, tasks := taskSubset(t, src, "db_blog_0", "db_blog_4", "db_blog_15", "db_blog_19", "db_blog_20", "db_blog_21")
	broken := map[string]any{"instance_id": "db_blog_0_pre", "selected_database": "db_blog", "query": tasks["db_blog_0"].Query,
		"category": "Query", "sol_sql": tasks["db_blog_0"].SolSQL, "preprocess_sql": []string{"UPDATE no_such_table SET x = 1"}}
	line, err := json.Marshal(broken)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "prompts.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(line, '\n'))
	f.Close()

	out := t.TempDir()
	stdout, _ := runCLI(t, "audit", "--dataset", "livesql:"+dir, "--dsn-env", "NL2SQLBENCH_PG_DSN", "--out", out)
	got := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(readFileT(t, filepath.Join(out, "audit.jsonl"))), "\n") {
		var fd audit.Finding
		if err := json.Unmarshal([]byte(l), &fd); err != nil {
			t.Fatalf("audit.jsonl line %q: %v", l, err)
		}
		if fd.Target != "gold" || fd.Evidence == "" {
			t.Errorf("finding %s: target %q, evidence %q; want a gold finding with evidence", l, fd.Target, fd.Evidence)
		}
		got[fd.QuestionID] = append(got[fd.QuestionID], fd.Check)
	}
	want := map[string][]string{
		"db_blog_4":     {"now_on_fixed_data"},
		"db_blog_15":    {"gold_empty"},
		"db_blog_19":    {"distinct_on_stripped"},
		"db_blog_20":    {"gold_empty"},
		"db_blog_21":    {"now_on_fixed_data", "gold_empty"}, // empty because of the date
		"db_blog_0_pre": {"preprocess_error"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings by task (-want +got):\n%s\n%s", diff, stdout)
	}
}
