package benchrun

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskcode"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// pgServer is the Server of a task run in tests: the DSN of $NL2SQLBENCH_PG_DSN.
type pgServer struct{ dsn string }

func (s pgServer) TaskDSN() (string, error) { return s.dsn, nil }

func (pgServer) Open(int, engine.Engine) (engine.Engine, judge.Locator, *judge.Target, error) {
	return nil, nil, nil, errors.New("a task run opens no engine")
}

func (pgServer) Ping(context.Context, engine.Engine, *dataset.Dataset) error { return nil }

// taskPG is the test server where task databases are made, or a skip saying why not.
func taskPG(t *testing.T) (pgServer, *taskdb.Postgres) {
	t.Helper()
	dsn := os.Getenv("NL2SQLBENCH_PG_DSN")
	if dsn == "" {
		t.Skip("skipping: NL2SQLBENCH_PG_DSN not set (eval \"$(bash .ci/servers.sh)\" starts a server)")
	}
	pg, err := taskdb.OpenPostgres(context.Background(), dsn)
	if err != nil {
		t.Skip("skipping: ", err)
	}
	t.Cleanup(func() { pg.Close() })
	return pgServer{dsn}, pg
}

// pgCopies lets the tests that make PostgreSQL task copies run in parallel (they mostly
// wait on the server creating and dropping databases) while a test that checks this
// process left no copy (pg.Mine) looks when no other run has copies in flight: a run
// holds it shared (makingPGCopies), the check exclusively. Tests that make no copies run
// beside both.
var pgCopies sync.RWMutex

// makingPGCopies holds pgCopies shared for a run that makes PostgreSQL copies; call the
// function it returns when the run is over.
func makingPGCopies() (unlock func()) {
	pgCopies.RLock()
	return pgCopies.RUnlock
}

// liveSQLDir writes a livesql:DIR with bat-interact's setup and the given task objects.
func liveSQLDir(t *testing.T, tasks []map[string]any) string {
	t.Helper()
	src := testutil.Shared(t, "data/evalbench/bat-interact")
	dir := t.TempDir()
	for _, sub := range []string{"setup", "db_blog"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join(src, sub))); err != nil {
			t.Fatal(err)
		}
	}
	writeLines(t, filepath.Join(dir, "prompts.jsonl"), tasks)
	return dir
}

func writeLines(t *testing.T, path string, lines []map[string]any) {
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

// realTask is bat-interact's task id as its JSON object.
func realTask(t *testing.T, id string) map[string]any {
	t.Helper()
	src := testutil.Shared(t, "data/evalbench/bat-interact")
	b, err := os.ReadFile(filepath.Join(src, "prompts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	for dec.More() {
		var o map[string]any
		if err := dec.Decode(&o); err != nil {
			t.Fatal(err)
		}
		if o["instance_id"] == id {
			return o
		}
	}
	t.Fatalf("no task %s in bat-interact", id)
	return nil
}

// TestTaskCodeHostile: with --task-code python, hostile test cases (a socket to the
// database server, /etc/passwd, a fork bomb, an endless loop, 4 GB at once) each end as
// a test error of their own task and the run goes on: the tasks after them, judged by
// their real test code, pass with a gold (db_blog_M_11) and fail with a wrong prediction; the template
// is unchanged and no copy is left.
func TestTaskCodeHostile(t *testing.T) {
	t.Parallel() // mostly waits on the server and on sandboxes killed at their limits
	if testing.Short() {
		t.Skip("skipping in -short: seven database copies and five sandboxes killed at their limits")
	}
	srv, pg := taskPG(t)
	py, err := taskcode.Find(context.Background())
	if errors.Is(err, taskcode.ErrNoPython) {
		t.Skip("skipping: ", err)
	} else if err != nil {
		t.Fatal(err)
	}
	lim := *py
	lim.Limits.Wall, lim.Limits.CPU = 8*time.Second, 2*time.Second

	m1 := realTask(t, "db_blog_M_1")
	hostile := map[string]string{
		"socket": "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    import socket\n    s = socket.create_connection(('127.0.0.1', 5432), timeout=2)\n    s.close()\n",
		"passwd": "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    data = open('/etc/passwd').read()\n    assert 'root' not in data, 'read /etc/passwd'\n",
		"fork":   "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    import os\n    while True:\n        os.fork()\n",
		"loop":   "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    while True:\n        pass\n",
		"alloc":  "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    x = bytearray(4 << 30)\n    assert len(x) == 0\n",
	}
	names := []string{"socket", "passwd", "fork", "loop", "alloc"}
	var tasks, preds []map[string]any
	for _, n := range names {
		task := map[string]any{}
		for k, v := range m1 {
			task[k] = v
		}
		task["instance_id"] = "hostile_" + n
		task["test_cases"] = []string{hostile[n]}
		task["follow_up"] = nil
		tasks = append(tasks, task)
		preds = append(preds, map[string]any{"instance_id": task["instance_id"], "pred_sqls": m1["sol_sql"]})
	}
	wrong := map[string]any{}
	for k, v := range m1 {
		wrong[k] = v
	}
	wrong["instance_id"] = "db_blog_M_1_wrong"
	m11 := realTask(t, "db_blog_M_11") // its gold passes its test cases (as in the official evaluator)
	m11["follow_up"] = nil
	tasks = append(tasks, m11, wrong)
	preds = append(preds, map[string]any{"instance_id": "db_blog_M_11", "pred_sqls": m11["sol_sql"]},
		// Archives every user, not the dormant ones: the test case counts one of three.
		map[string]any{"instance_id": "db_blog_M_1_wrong", "pred_sqls": []string{"INSERT INTO tbl_archived_users (user_id, username, last_login_archived) SELECT user_id, username, last_login FROM tbl_users"}})
	dir := liveSQLDir(t, tasks)
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	writeLines(t, predFile, preds)

	cfg := Config{DatasetSpec: "livesql:" + dir, Preds: []string{"sys=" + predFile}, Engine: "postgres", Server: srv,
		Timeout: 30 * time.Second, MaxRows: 10_000, Workers: 2, TaskCode: TaskCodePython, TestRunner: taskcode.Runner{P: &lim}}
	ctx := context.Background()
	obs := &notes{}
	p, err := Prepare(ctx, cfg, obs)
	if err != nil {
		t.Fatal(err)
	}
	if p.Manifest.Settings.TaskCode != "python" {
		t.Errorf("manifest task_code %q, want python", p.Manifest.Settings.TaskCode)
	}
	setup, err := taskset.LiveSQLSetup(ctx, dir, "db_blog")
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := pg.Template(ctx, setup)
	if err != nil {
		t.Fatal(err)
	}
	before := templateSums(t, tmpl)
	unlock := makingPGCopies()
	res, err := Eval(ctx, p, nil, newMemSink(1), obs)
	unlock()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]record.Record{}
	for _, r := range res.Systems[0].Records {
		got[r.QuestionID] = r
	}
	for _, n := range names {
		r := got["hostile_"+n]
		if n == "passwd" && lim.Isolation == taskcode.Basic {
			t.Logf("basic sandbox (not root): /etc/passwd is readable, as docs/taskcode.md says")
		} else if r.Verdict != record.Incorrect || r.TaskFailure != record.FailTestError {
			t.Errorf("hostile %s: %s %q %q; want incorrect, a test error", n, r.Verdict, r.TaskFailure, r.ErrorMessage)
		}
		t.Logf("hostile %s: %s %s: %s", n, r.Verdict, r.TaskFailure, r.ErrorMessage)
	}
	if r := got["db_blog_M_11"]; r.Verdict != record.Correct {
		t.Errorf("db_blog_M_11 with its gold, after the hostile ones: %s %q", r.Verdict, r.ErrorMessage)
	}
	if r := got["db_blog_M_1_wrong"]; r.Verdict != record.Incorrect || r.TaskFailure != record.FailAssertion || !strings.Contains(r.ErrorMessage, "Expected 1 test user") {
		t.Errorf("db_blog_M_1, every user archived: %s %q %q; want the test case's assertion", r.Verdict, r.TaskFailure, r.ErrorMessage)
	}
	if diff := diffSums(before, templateSums(t, tmpl)); diff != "" {
		t.Errorf("template changed: %s", diff)
	}
	// Every other test's run in this process is over (their copies dropped) while Mine looks.
	pgCopies.Lock()
	left, err := pg.Mine(ctx)
	pgCopies.Unlock()
	if err != nil || len(left) > 0 {
		t.Errorf("task databases left after the run: %v %v", left, err)
	}
}

// TestTaskCodeNoPython: --task-code python on a machine without python3 says so once,
// records it in the manifest, and leaves the turns that need test code not judged with
// that reason; a Query task is judged as usual.
func TestTaskCodeNoPython(t *testing.T) {
	srv, _ := taskPG(t)
	m1, q0 := realTask(t, "db_blog_M_1"), realTask(t, "db_blog_0")
	dir := liveSQLDir(t, []map[string]any{m1, q0})
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	writeLines(t, predFile, []map[string]any{{"instance_id": "db_blog_M_1", "pred_sqls": m1["sol_sql"]}, {"instance_id": "db_blog_0", "pred_sqls": q0["sol_sql"]}})
	t.Setenv("PATH", t.TempDir())
	cfg := Config{DatasetSpec: "livesql:" + dir, Preds: []string{"sys=" + predFile}, Engine: "postgres", Server: srv,
		Timeout: 30 * time.Second, MaxRows: 10_000, Workers: 2, TaskCode: TaskCodePython}
	ctx := context.Background()
	obs := &notes{}
	p, err := Prepare(ctx, cfg, obs)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.warnings) != 1 || !strings.Contains(obs.warnings[0], "python3 not found") {
		t.Errorf("warnings %q; want one saying python3 is not found", obs.warnings)
	}
	if got := p.Manifest.Settings.TaskCode; got != "python (python3 not found)" {
		t.Errorf("manifest task_code %q", got)
	}
	res, err := Eval(ctx, p, nil, newMemSink(1), obs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Systems[0].Records {
		switch r.QuestionID {
		case "db_blog_M_1":
			if r.Verdict != record.Skipped || r.TaskNotJudged != record.NotJudgedNoPython {
				t.Errorf("%s: %s %q; want skipped, %q", r.QuestionID, r.Verdict, r.TaskNotJudged, record.NotJudgedNoPython)
			}
		case "db_blog_0":
			if r.Verdict != record.Correct {
				t.Errorf("%s: %s %q", r.QuestionID, r.Verdict, r.ErrorMessage)
			}
		}
	}
	// A killed run's copies on the shared server (another package's kill/resume test, run
	// beside this one by go test ./...) are dropped with a warning of their own.
	if own := slices.DeleteFunc(slices.Clone(obs.warnings), func(w string) bool {
		return strings.Contains(w, "a killed run left")
	}); len(own) != 1 {
		t.Errorf("warnings after the run %q; want the one", obs.warnings)
	}
}

// TestTaskCodeRefused: --task-code takes python only, and only for datasets of tasks.
func TestTaskCodeRefused(t *testing.T) {
	cfg := demoConfig(t)
	cfg.TaskCode = TaskCodePython
	if _, err := Prepare(context.Background(), cfg, &notes{}); err == nil || !strings.Contains(err.Error(), "--task-code") {
		t.Errorf("--task-code on a jsonl dataset: %v", err)
	}
}

func templateSums(t *testing.T, tmpl *taskdb.PGTemplate) map[string]string {
	t.Helper()
	ctx := context.Background()
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

func diffSums(a, b map[string]string) string {
	var d []string
	for k, v := range a {
		if b[k] != v {
			d = append(d, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, k)
		}
	}
	return strings.Join(d, ", ")
}
