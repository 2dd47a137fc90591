package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
)

const collectKey = "sk-cli-test-SECRET-42"

const brokenSQL = "SELECT nope FROM no_such_table"

// demoScript answers the default prompts on the demo: schema selection names the tables
// the gold SQL mentions, generation answers the gold SQL for even-numbered questions and
// a query that fails for odd ones (sampled: broken, gold, gold), and every revision or
// second attempt answers the gold SQL.
func demoScript(ds *dataset.Dataset) func(fakellm.Request) fakellm.Reply {
	type q struct {
		gold string
		idx  int
	}
	byText := map[string]q{}
	for _, x := range ds.Questions {
		byText[x.Text] = q{x.Gold[0], x.Index}
	}
	return func(r fakellm.Request) fakellm.Reply {
		p := r.Prompt()
		i := strings.LastIndex(p, "\nQuestion: ")
		text := p[i+len("\nQuestion: "):]
		text = text[:strings.IndexByte(text, '\n')]
		x := byText[text]
		fence := func(s string) string { return "```sql\n" + s + "\n```" }
		rep := fakellm.Reply{Prompt: fakellm.Words(p), Completion: 10}
		switch {
		case strings.HasPrefix(p, "### Task: schema selection"):
			tables := map[string][]string{}
			for _, w := range strings.Fields(strings.NewReplacer(",", " ", "(", " ", ")", " ").Replace(x.gold)) {
				if strings.Contains(p, "CREATE TABLE "+w+" (") {
					tables[w] = []string{}
				}
			}
			b, _ := json.Marshal(tables)
			rep.Choices = []string{"The question needs these.\n```json\n" + string(b) + "\n```"}
		case strings.HasPrefix(p, "### Task: text to SQL\n"):
			n := max(r.N, 1)
			if n > 1 {
				rep.Choices = []string{fence(brokenSQL)}
				for len(rep.Choices) < n {
					rep.Choices = append(rep.Choices, fence(x.gold))
				}
			} else if x.idx%2 == 0 {
				rep.Choices = []string{fence(x.gold)}
			} else {
				rep.Choices = []string{fence(brokenSQL)}
			}
		default: // preliminary SQL, fix SQL, second attempt
			rep.Choices = []string{fence(x.gold)}
		}
		return rep
	}
}

type evalRec struct {
	Index       int            `json:"index"`
	Verdict     string         `json:"verdict"`
	PreRevision string         `json:"pre_revision_verdict"`
	PassAt      map[string]int `json:"pass_at"`
	Tokens      int            `json:"total_tokens"`
	LLMCalls    int            `json:"llm_calls"`
	SchemaTabR  *float64       `json:"schema_table_r"`
}

// demoLLM materialises the demo and serves a scripted LLM for it (at most maxRequests
// requests) whose key is in CLI_TEST_KEY (set by TestMain).
func demoLLM(t *testing.T, maxRequests int) (*demo.Files, *dataset.Dataset, *fakellm.Server) {
	t.Helper()
	files, err := demo.Materialize(context.Background(), filepath.Join(os.TempDir(), "nl2sqlbench-cli-collect-demo"))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(context.Background(), "jsonl:"+files.Questions, dataset.Options{DBRoot: files.DBRoot})
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.New(demoScript(ds), maxRequests)
	t.Cleanup(srv.Close)
	return files, ds, srv
}

func TestCollectThenEval(t *testing.T) {
	skipLongInShort(t)
	t.Parallel()
	ctx := context.Background()
	files, ds, srv := demoLLM(t, 5000)
	tests := []struct {
		name, pipeline string
		correct        func(i int) bool // which judged questions the scripted answers make correct
		revised        bool
	}{
		{"full zero_shot none", "{schema_selection: {strategy: full}}", func(i int) bool { return i%2 == 0 }, false},
		{"llm execution_guided", "{schema_selection: {strategy: llm}, query_revision: {strategy: execution_guided}}", func(int) bool { return true }, true},
		{"preliminary_sql sampled self_consistency", "{schema_selection: {strategy: preliminary_sql}, candidate_generation: {strategy: sampled, n: 3}, query_revision: {strategy: self_consistency}}", func(int) bool { return true }, true},
		{"retry_failed", "{query_revision: {strategy: retry_failed}}", func(int) bool { return true }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "p.yaml")
			os.WriteFile(cfg, []byte("llm: {base_url: "+srv.BaseURL+", model: fake, api_key_env: CLI_TEST_KEY, concurrency: 2}\n"+
				"pricing: {input: 1, output: 2}\npipeline: "+tt.pipeline+"\n"), 0o644)
			out := filepath.Join(dir, "run")
			var stdout, stderr strings.Builder
			code := Run(ctx, cmdline("collect", "--config", cfg, "--dataset", "jsonl:"+files.Questions, "--db-root", files.DBRoot, "--out", out), nil, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("collect exit %d: %s %s", code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), "estimated cost $") || strings.Contains(stdout.String()+stderr.String(), collectKey) {
				t.Errorf("collect output:\n%s\n%s", stdout.String(), stderr.String())
			}
			evalOut := filepath.Join(dir, "eval")
			stdout.Reset()
			stderr.Reset()
			code = Run(ctx, cmdline("eval", "--dataset", "jsonl:"+files.Questions, "--db-root", files.DBRoot, "--pred", "sys="+filepath.Join(out, "modules.jsonl"), "--out", evalOut), nil, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("eval exit %d: %s", code, stderr.String())
			}
			recs := readEvalRecords(t, filepath.Join(evalOut, "sys", "records.jsonl"))
			if len(recs) != len(ds.Questions) {
				t.Fatalf("%d records for %d questions", len(recs), len(ds.Questions))
			}
			judged, correct := 0, 0
			for _, r := range recs {
				if r.Verdict != "correct" && r.Verdict != "incorrect" && r.Verdict != "error" {
					continue // gold_error / skipped: not the pipeline's doing
				}
				judged++
				want := tt.correct(r.Index)
				if (r.Verdict == "correct") != want {
					t.Errorf("question %d: verdict %s, want correct=%v", r.Index, r.Verdict, want)
				}
				if r.Verdict == "correct" {
					correct++
				}
				if r.Tokens <= 0 || r.LLMCalls <= 0 {
					t.Errorf("question %d: tokens %d calls %d", r.Index, r.Tokens, r.LLMCalls)
				}
				// full selects every table; llm is scripted to name the gold's tables.
				if !strings.Contains(tt.name, "preliminary") && r.SchemaTabR != nil && *r.SchemaTabR != 1 {
					t.Errorf("question %d: schema table recall %v, want 1", r.Index, *r.SchemaTabR)
				}
				if tt.revised && r.PreRevision == "" {
					t.Errorf("question %d: no pre-revision verdict", r.Index)
				}
				if strings.Contains(tt.name, "self_consistency") && r.PassAt["1"] != 0 {
					t.Errorf("question %d: pass@1 = %d, but the first sample is broken", r.Index, r.PassAt["1"])
				}
				if strings.Contains(tt.name, "execution_guided") && r.Index%2 == 1 && r.PreRevision != "error" {
					t.Errorf("question %d: pre-revision %s, want error", r.Index, r.PreRevision)
				}
			}
			if judged < len(ds.Questions)/2 {
				t.Errorf("only %d judged", judged)
			}
			t.Logf("%d/%d correct", correct, judged)
		})
	}
	if srv.Overflowed() {
		t.Error("fake server request limit exceeded")
	}
	for _, r := range srv.Requests() {
		if r.Authorization != "Bearer "+collectKey {
			t.Fatalf("authorization %q", r.Authorization)
		}
	}
}

func readEvalRecords(tb testing.TB, path string) []evalRec {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []evalRec
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for sc.Scan() {
		var r evalRec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}
