package benchrun

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// quietMatrix hears a matrix run in a test: nothing shown.
type quietMatrix struct{}

func (quietMatrix) Note(string)                     {}
func (quietMatrix) Cells() Progress                 { return quiet{} }
func (quietMatrix) CellObserver(io.Writer) Observer { return quiet{} }

// TestMatrixTasksEvalBench: a plan whose dataset is evalbench: (bat's tasks 3, 5, 184 on
// SQLite, no server) runs its model cell as the task collect (one prompt per task, the
// task prediction file judged) and its system cell from a task prediction file; the
// summary shows each cell's first-turn score and no follow-up or reward (EvalBench has
// no follow-ups). A rerun finds both cells done and sends no request. A pipeline that is
// not one prompt per turn is refused on a task dataset.
func TestMatrixTasksEvalBench(t *testing.T) {
	dir, answers := batSubset(t, "5")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // SQLite templates and copies
	t.Setenv("TEST_MATRIX_TASK_KEY", "sk-test")
	server := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		p := r.Prompt()
		for q, a := range answers {
			if strings.Contains(p, q) {
				return fakellm.Reply{Choices: []string{"```sql\n" + a + "\n```"}, Prompt: 50, Completion: 5}
			}
		}
		return fakellm.Reply{Status: 400, Error: "unknown prompt"}
	}, 20)
	defer server.Close()
	work := t.TempDir()
	// The system cell: every task answered with its gold.
	predFile := filepath.Join(work, "gold.jsonl")
	var lines strings.Builder
	for _, id := range []string{"3", "5", "184"} {
		b, _ := os.ReadFile(filepath.Join(dir, "prompts.json"))
		var all []map[string]any
		if err := json.Unmarshal(b, &all); err != nil {
			t.Fatal(err)
		}
		for _, task := range all {
			if jsonID(task["id"]) == id {
				j, _ := json.Marshal(map[string]any{"instance_id": id, "pred_sqls": task["golden_sql"].(map[string]any)["sqlite"]})
				lines.Write(append(j, '\n'))
			}
		}
	}
	if err := os.WriteFile(predFile, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := "datasets:\n  bat: {dataset: \"evalbench:" + dir + "\", engine: sqlite}\n" +
		"models:\n  fake: {base_url: " + server.BaseURL + ", model: fake, api_key_env: TEST_MATRIX_TASK_KEY}\n" +
		"pipelines:\n  one: {}\n" +
		"systems:\n  gold: {bat: " + predFile + "}\n"
	p, err := ParseMatrixPlan([]byte(plan), work)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	out := filepath.Join(work, "matrix")
	run := func() *rundir.Matrix {
		t.Helper()
		m, err := OpenMatrix(ctx, p, MatrixOptions{Out: out, Workers: 1, EvalWorkers: 1, Alpha: 0.05, Getenv: os.Getenv})
		if err != nil {
			t.Fatal(err)
		}
		st, err := m.Run(ctx, quietMatrix{})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := run()
	if n := len(server.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (one per task)", n)
	}
	for _, c := range st.Summary.Cells {
		if c.Tasks == nil {
			t.Fatalf("cell %s has no task scores: %+v", c.Name, c)
		}
		if c.Tasks.FollowUps || c.Tasks.Reward != nil {
			t.Errorf("cell %s: follow-ups or a reward on evalbench: %+v", c.Name, *c.Tasks)
		}
	}
	var b strings.Builder
	report.WriteMatrix(&b, st, out)
	for _, want := range []string{"bat/fake+one                             tasks: first turn 2/3 (66.67)\n",
		"bat/gold                                 tasks: first turn 3/3 (100.00)\n", "fake             66.67"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the matrix's output lacks %q:\n%s", want, b.String())
		}
	}
	if h, err := os.ReadFile(filepath.Join(out, rundir.MatrixHTMLFile)); err != nil || !strings.Contains(string(h), ": tasks: first turn 2/3 (66.67)</p>") {
		t.Errorf("matrix.html lacks the task line (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(CellDir(out, p.Cells[0]), TaskPredsFile)); err != nil {
		t.Errorf("the model cell has no task prediction file: %v", err)
	}
	st2 := run()
	if n := len(server.Requests()); n != 3 {
		t.Errorf("the rerun sent %d request(s)", n-3)
	}
	for _, c := range st2.Cells {
		if c.Status != rundir.CellDone {
			t.Errorf("rerun: cell %s %s", c.Name, c.Status)
		}
	}
	bad := strings.Replace(plan, "one: {}", "one: {query_revision: {strategy: execution_guided}}", 1)
	if _, err := ParseMatrixPlan([]byte(bad), work); err == nil || !strings.Contains(err.Error(), "query_revision") {
		t.Errorf("a revising pipeline on a task dataset: %v", err)
	}
}

func jsonID(v any) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), "\"")
}

// TestMatrixTasksLiveSQL: a livesql: dataset on PostgreSQL in a plan (engine postgres,
// dsn_env): the model cell asks two bat-interact tasks' first turns (db_blog_0 right,
// db_blog_3 wrong) and only db_blog_0's follow-up; the summary shows the first turns, the
// follow-up and BIRD-Interact's mean reward.
func TestMatrixTasksLiveSQL(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL task copies are slow for -short; go test ./... runs it")
	}
	t.Parallel() // waits on PostgreSQL's copies (issue 44); holds pgCopies while it makes them
	taskPG(t)
	t0, t3 := realTask(t, "db_blog_0"), realTask(t, "db_blog_3")
	dir := liveSQLDir(t, []map[string]any{t0, t3})
	join := func(v any) string {
		var out []string
		for _, s := range v.([]any) {
			out = append(out, s.(string))
		}
		return strings.Join(out, ";\n")
	}
	server := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		p, a := r.Prompt(), "SELECT 1"
		switch {
		case strings.Contains(p, "The user now asks:"):
			a = join(t0["follow_up"].(map[string]any)["sol_sql"])
		case strings.Contains(p, t0["query"].(string)):
			a = join(t0["sol_sql"])
		}
		return fakellm.Reply{Choices: []string{"```sql\n" + a + "\n```"}, Prompt: 50, Completion: 5}
	}, 20)
	defer server.Close()
	work := t.TempDir()
	plan := "datasets:\n  bi: {dataset: \"livesql:" + dir + "\", engine: postgres, dsn_env: NL2SQLBENCH_PG_DSN}\n" +
		"models:\n  fake: {base_url: " + server.BaseURL + ", model: fake, api_key_env: TEST_MATRIX_TASK_KEY}\n" +
		"pipelines:\n  one: {}\n"
	p, err := ParseMatrixPlan([]byte(plan), work)
	if err != nil {
		t.Fatal(err)
	}
	m, err := OpenMatrix(context.Background(), p, MatrixOptions{Out: filepath.Join(work, "matrix"), Workers: 1, EvalWorkers: 2, Alpha: 0.05, Getenv: matrixKey})
	if err != nil {
		t.Fatal(err)
	}
	unlock := makingPGCopies()
	st, err := m.Run(context.Background(), quietMatrix{})
	unlock()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(server.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (two first turns, one follow-up)", n)
	}
	if len(st.Summary.Cells) != 1 || st.Summary.Cells[0].Tasks == nil {
		t.Fatalf("summary cells %+v", st.Summary.Cells)
	}
	c := st.Summary.Cells[0].Tasks
	if c.FirstCorrect != 1 || c.FirstJudged != 2 || !c.FollowUps || c.FollowUpJudged != 1 || c.Reward == nil {
		t.Errorf("task scores %+v", *c)
	}
	var b strings.Builder
	report.WriteMatrix(&b, st, "")
	if !strings.Contains(b.String(), "tasks: first turn 1/2 (50.00), follow-up ") || !strings.Contains(b.String(), "mean reward") {
		t.Errorf("the matrix's output:\n%s", b.String())
	}
}

func matrixKey(k string) string {
	if k == "TEST_MATRIX_TASK_KEY" {
		return "sk-test"
	}
	return os.Getenv(k)
}
