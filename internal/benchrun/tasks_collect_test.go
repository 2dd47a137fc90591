package benchrun

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// quietPasses hears a task collect run in a test: nothing shown.
type quietPasses struct{ quiet }

func (quietPasses) CollectPass(int, bool) (func(collect.Progress), func(*collect.Summary)) {
	return func(collect.Progress) {}, func(*collect.Summary) {}
}

// taskCollectConfig is a pipeline config asking the fake endpoint url.
func taskCollectConfig(t *testing.T, url string) *collect.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipeline.yaml")
	text := "llm:\n  base_url: " + url + "\n  model: fake\n  api_key_env: TEST_TASK_KEY\n  concurrency: 2\n  retry_base: 1ms\n" +
		"pricing: {input: 1, output: 2}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := collect.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func taskKey(k string) string {
	if k == "TEST_TASK_KEY" {
		return "sk-test"
	}
	return ""
}

// knowledgeIDs are the ids of the knowledge entries a task prompt lists.
func knowledgeIDs(prompt string) []string {
	var ids []string
	for _, m := range regexp.MustCompile(`(?m)^- .* \(id (\d+)\): `).FindAllStringSubmatch(prompt, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// TestCollectTasksLiveSQL: collect on three bat-interact tasks with the fake LLM, judged
// on PostgreSQL. db_blog_0 is answered with its gold (its first turn passes, so its
// follow-up is asked, with the first turn's question and SQL, and judged), db_blog_3 with
// a wrong query (no follow-up asked), db_blog_M_2 (Management) with its gold, not judged
// without --task-code (no follow-up asked). Each prompt lists exactly the knowledge
// entries its turn names; the Management one asks for statements that change data. A
// second run sends no request and gives the same predictions.
func TestCollectTasksLiveSQL(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL task copies are slow for -short; go test ./... runs it")
	}
	t.Parallel() // waits on PostgreSQL's copies (issue 44); holds pgCopies while it makes them
	srv, _ := taskPG(t)
	t0, t3, m2 := realTask(t, "db_blog_0"), realTask(t, "db_blog_3"), realTask(t, "db_blog_M_2")
	dir := liveSQLDir(t, []map[string]any{t0, t3, m2})
	strs := func(v any) string {
		var out []string
		for _, s := range v.([]any) {
			out = append(out, s.(string))
		}
		return strings.Join(out, ";\n")
	}
	follow0 := t0["follow_up"].(map[string]any)
	replies := map[string]string{ // question -> answer
		t0["query"].(string): strs(t0["sol_sql"]),
		t3["query"].(string): "SELECT 1",
		m2["query"].(string): strs(m2["sol_sql"]),
	}
	server := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		p := r.Prompt()
		if strings.Contains(p, "The user now asks:") {
			return fakellm.Reply{Choices: []string{"```sql\n" + strs(follow0["sol_sql"]) + "\n```"}, Prompt: 100, Completion: 10}
		}
		for q, a := range replies {
			if strings.Contains(p, q) {
				return fakellm.Reply{Choices: []string{"Here:\n```sql\n" + a + "\n```"}, Prompt: 100, Completion: 10}
			}
		}
		return fakellm.Reply{Status: 400, Error: "unknown prompt"}
	}, 50)
	defer server.Close()
	cfg := taskCollectConfig(t, server.BaseURL)
	ctx := context.Background()
	run := func(out string) *TaskCollectReport {
		t.Helper()
		tc, err := OpenTaskCollect(ctx, cfg, "livesql:"+dir, "postgres", nil)
		if err != nil {
			t.Fatal(err)
		}
		tc.Base.Getenv = taskKey
		unlock := makingPGCopies()
		rep, err := CollectTasks(ctx, out, tc, Config{DatasetSpec: "livesql:" + dir, Engine: "postgres", Server: srv, Workers: 2}, "fake", quietPasses{})
		unlock()
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	out := t.TempDir()
	rep := run(out)
	reqs := server.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (three first turns, one follow-up)", len(reqs))
	}
	// Prompts: the knowledge entries named, and only those; Management asks for changes.
	var followPrompt string
	for _, r := range reqs {
		p := r.Prompt()
		var want []any
		switch {
		case strings.Contains(p, "The user now asks:"):
			followPrompt, want = p, follow0["external_knowledge"].([]any)
		case strings.Contains(p, t0["query"].(string)):
			want = t0["external_knowledge"].([]any)
		case strings.Contains(p, t3["query"].(string)):
			want = t3["external_knowledge"].([]any)
		case strings.Contains(p, m2["query"].(string)):
			want = m2["external_knowledge"].([]any)
			if !strings.Contains(p, "change its data or its structure") {
				t.Errorf("management prompt does not ask for statements that change data:\n%s", p)
			}
		}
		var wantIDs []string
		for _, id := range want {
			wantIDs = append(wantIDs, fmt.Sprint(int(id.(float64))))
		}
		if got := knowledgeIDs(p); !slices.Equal(got, wantIDs) {
			t.Errorf("prompt lists knowledge %v, want %v:\n%.300s", got, wantIDs, p)
		}
		if !strings.Contains(p, "CREATE TABLE tbl_users") {
			t.Errorf("prompt has no schema:\n%.300s", p)
		}
	}
	if followPrompt == "" || !strings.Contains(followPrompt, t0["query"].(string)) || !strings.Contains(followPrompt, strings.TrimSuffix(strings.TrimSpace(strs(t0["sol_sql"])), ";")) ||
		!strings.Contains(followPrompt, follow0["query"].(string)) {
		t.Errorf("follow-up prompt lacks the first turn's question and SQL, or its own question:\n%s", followPrompt)
	}
	// The predictions: a follow-up only for the task whose first turn passed.
	preds, err := predict.ReadTaskPreds(filepath.Join(out, TaskPredsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(preds) != 3 || preds["db_blog_0"].FollowUp == nil || preds["db_blog_3"].FollowUp != nil || preds["db_blog_M_2"].FollowUp != nil ||
		strings.Join(preds["db_blog_3"].SQL, "|") != "SELECT 1" {
		t.Errorf("predictions %+v", preds)
	}
	if rep.Tasks != 3 || rep.FirstJudged != 2 || rep.FirstCorrect != 1 || rep.FollowUpsAsked != 1 || rep.MeanReward == nil ||
		rep.Turn1.LLMCalls != 3 || rep.FollowUp.LLMCalls != 1 || rep.Turn1.PromptTokens != 300 {
		t.Errorf("report %+v", rep)
	}
	run2, err := rundir.ReadRecords(filepath.Join(out, EvalDir, "fake", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range run2 {
		switch r.QuestionID {
		case "db_blog_0":
			if r.Verdict != record.Correct || r.FollowUp == nil || r.FollowUp.Verdict == record.Skipped {
				t.Errorf("db_blog_0: %s, follow-up %+v", r.Verdict, r.FollowUp)
			}
		case "db_blog_3":
			if r.Verdict != record.Incorrect || r.FollowUp == nil || r.FollowUp.Verdict != record.Skipped {
				t.Errorf("db_blog_3: %s, follow-up %+v", r.Verdict, r.FollowUp)
			}
		case "db_blog_M_2":
			if r.Verdict != record.Skipped || r.TaskNotJudged != record.NotJudgedTaskCode {
				t.Errorf("db_blog_M_2: %s (%q)", r.Verdict, r.TaskNotJudged)
			}
		}
	}
	// Resumed: no request, the same predictions.
	before, _ := os.ReadFile(filepath.Join(out, TaskPredsFile))
	rep2 := run(out)
	if n := len(server.Requests()); n != 4 {
		t.Errorf("the second run sent %d new request(s)", n-4)
	}
	after, _ := os.ReadFile(filepath.Join(out, TaskPredsFile))
	if string(before) != string(after) || rep2.FirstCorrect != rep.FirstCorrect || rep2.FollowUpsAsked != rep.FollowUpsAsked {
		t.Errorf("resumed run differs:\n%s\n%s\n%+v", before, after, rep2)
	}
}

// TestCollectTasksEvalBenchSQLite: collect on three EvalBench bat tasks on SQLite (no
// server): a dql answered with its gold (correct), a dql answered wrong, a dml answered
// with its gold, whose prompt asks for statements that change the database. No
// follow-up, no reward; a second run sends no request.
func TestCollectTasksEvalBenchSQLite(t *testing.T) {
	dir, answers := batSubset(t, "5")
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
	cfg := taskCollectConfig(t, server.BaseURL)
	ctx := context.Background()
	taskDBs := t.TempDir()
	out := t.TempDir()
	run := func() *TaskCollectReport {
		t.Helper()
		tc, err := OpenTaskCollect(ctx, cfg, "evalbench:"+dir, "sqlite", nil)
		if err != nil {
			t.Fatal(err)
		}
		tc.Base.Getenv = taskKey
		rep, err := CollectTasks(ctx, out, tc, Config{DatasetSpec: "evalbench:" + dir, Engine: "sqlite", TaskDBDir: taskDBs}, "fake", quietPasses{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := run()
	reqs := server.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for _, r := range reqs {
		p := r.Prompt()
		changes := strings.Contains(p, "change its data or its structure")
		if dml := strings.Contains(p, "Update the post content"); dml != changes {
			t.Errorf("dml %v but asks for changes %v:\n%.400s", dml, changes, p)
		}
		if !strings.Contains(p, "SQLite") || !strings.Contains(p, "CREATE TABLE") || len(knowledgeIDs(p)) != 0 {
			t.Errorf("prompt:\n%.400s", p)
		}
	}
	if rep.Tasks != 3 || rep.FirstJudged != 3 || rep.FirstCorrect != 2 || rep.FollowUpsAsked != 0 || rep.MeanReward != nil {
		t.Errorf("report %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(out, Turn1Dir, EvalDir)); err == nil {
		t.Errorf("evalbench: the first turns were judged apart (no follow-up waits for them)")
	}
	rep2 := run()
	if n := len(server.Requests()); n != 3 || rep2.FirstCorrect != 2 {
		t.Errorf("second run: %d requests in all, report %+v", n, rep2)
	}
}

// batSubset writes an evalbench:DIR of bat's tasks 3, 5 and 184 (a dql, a dql, a dml)
// and returns it with each task's answer by its prompt: the SQLite gold, but "SELECT 1"
// for the ids in wrong.
func batSubset(t *testing.T, wrong ...string) (string, map[string]string) {
	t.Helper()
	src := testutil.Shared(t, "data/evalbench/bat")
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "setup"), os.DirFS(filepath.Join(src, "setup"))); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(src, "prompts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all []map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var keep []map[string]any
	answers := map[string]string{}
	for _, task := range all {
		id := fmt.Sprint(task["id"])
		if id != "3" && id != "5" && id != "184" {
			continue
		}
		keep = append(keep, task)
		gold := task["golden_sql"].(map[string]any)["sqlite"].([]any)[0].(string)
		if slices.Contains(wrong, id) {
			gold = "SELECT 1"
		}
		answers[task["nl_prompt"].(string)] = gold
	}
	j, _ := json.Marshal(keep)
	if err := os.WriteFile(filepath.Join(dir, "prompts.json"), j, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, answers
}
