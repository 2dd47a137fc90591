package collect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
)

// TestNULReplyDoesNotCrash: an LLM reply holding a NUL byte ("```sql\n\x00SELECT 1```")
// crashed execution-guided revision in go-sqlite3, and, being cached before it was
// handled, crashed every rerun. Now its execution fails with a message the revision
// prompt passes on, and the question is recorded.
func TestNULReplyDoesNotCrash(t *testing.T) {
	ds := demoDataset(t)
	srv := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		return fakellm.Reply{Choices: []string{"```sql\n\x00SELECT 1```"}, Prompt: fakellm.Words(r.Prompt()), Completion: 3}
	}, 1000)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, srv.BaseURL, "pipeline:\n  query_revision: {strategy: execution_guided}\n")
	out := filepath.Join(dir, "out")
	sum, err := Run(context.Background(), Options{Config: cfg, Dataset: ds, OutDir: out, Getenv: getenv, Limit: 2})
	if err != nil || sum.Collected != 2 || sum.Failed != 0 {
		t.Fatalf("run %+v, %v", sum, err)
	}
	b, err := os.ReadFile(filepath.Join(out, ModulesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "query contains a NUL byte") {
		t.Errorf("no revision feedback names the NUL byte:\n%s", b)
	}
}

// TestFailedQuestionIsNotCached: the answers a question got are cached only once its
// records are written. A question whose second call fails for good leaves nothing in the
// cache, so a rerun asks both calls again rather than replaying the first.
func TestFailedQuestionIsNotCached(t *testing.T) {
	ds := demoDataset(t)
	var broken atomic.Bool
	broken.Store(true)
	gs := goldScript(ds, 0)
	srv := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		p := r.Prompt()
		if broken.Load() && strings.Contains(p, ds.Questions[0].Text) && strings.HasPrefix(p, "### Task: text to SQL") {
			return fakellm.Reply{Status: 400, Error: "context too long"}
		}
		return gs(r)
	}, 1000)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, srv.BaseURL, "pipeline:\n  schema_selection: {strategy: preliminary_sql}\n")
	sum, err := Run(context.Background(), Options{Config: cfg, Dataset: ds, OutDir: dir, Getenv: getenv, Limit: 1})
	if err != nil || sum.Failed != 1 || sum.Requests != 2 {
		t.Fatalf("first run %+v, %v; want 1 failed question after 2 requests", sum, err)
	}
	c, err := OpenCache(filepath.Join(dir, CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := c.Len(); n != 0 {
		t.Errorf("cache holds %d answers of a failed question, want 0", n)
	}
	c.Close()
	broken.Store(false)
	sum, err = Run(context.Background(), Options{Config: cfg, Dataset: ds, OutDir: dir, Getenv: getenv, Limit: 1})
	if err != nil || sum.Collected != 1 || sum.Requests != 2 || sum.CacheHits != 0 {
		t.Errorf("rerun %+v, %v; want the question collected with 2 requests, no cache hit", sum, err)
	}
}
