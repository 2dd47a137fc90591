package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestCollectTasksCommand: `collect --dataset evalbench:DIR --engine sqlite --limit 2`
// asks two tasks, writes the task prediction file and judges it (the logic is
// benchrun's, tested there; this is the command's wiring). Quick: two SQLite copies.
func TestCollectTasksCommand(t *testing.T) {
	dir := testutil.Shared(t, "data/evalbench/bat")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // templates and copies
	srv := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		return fakellm.Reply{Choices: []string{"```sql\nSELECT -1\n```"}, Prompt: 10, Completion: 2}
	}, 10)
	defer srv.Close()
	work := t.TempDir()
	cfg := filepath.Join(work, "p.yaml")
	if err := os.WriteFile(cfg, []byte("llm: {base_url: "+srv.BaseURL+", model: fake, api_key_env: CLI_TEST_KEY}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(work, "run")
	stdout, _ := runCLI(t, "collect", "--config", cfg, "--dataset", "evalbench:"+dir, "--engine", "sqlite", "--limit", "2", "--out", out)
	if !strings.Contains(stdout, "first turns:\nquestions 2: 2 collected now") || !strings.Contains(stdout, "2 tasks: first turn 0 correct of 2 judged") || strings.Contains(stdout, "reward") {
		t.Errorf("collect output:\n%s", stdout)
	}
	preds, err := predict.ReadTaskPreds(filepath.Join(out, "preds.jsonl"))
	if err != nil || len(preds) != 2 || len(srv.Requests()) != 2 {
		t.Errorf("%d predictions (%v), %d requests", len(preds), err, len(srv.Requests()))
	}
}
