package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine/sqlppfake"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
)

// demoDocs materializes the embedded demo and exports its databases as documents
// (export-docs' layout, DIR/<db_id>/<table>.jsonl).
func demoDocs(tb testing.TB) (*demo.Files, *dataset.Dataset, string) {
	tb.Helper()
	ctx := context.Background()
	files, err := demo.Materialize(ctx, filepath.Join(os.TempDir(), "nl2sqlbench-cli-twopass-demo"))
	if err != nil {
		tb.Fatal(err)
	}
	ds, err := dataset.Load(ctx, "jsonl:"+files.Questions, dataset.Options{DBRoot: files.DBRoot})
	if err != nil {
		tb.Fatal(err)
	}
	docs := filepath.Join(tb.TempDir(), "docs")
	ents, err := os.ReadDir(files.DBRoot)
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range ents {
		db := filepath.Join(files.DBRoot, e.Name(), e.Name()+".sqlite")
		if _, err := os.Stat(db); err != nil {
			continue
		}
		d, err := export.OpenDir(filepath.Join(docs, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		_, err = export.WriteDocsTo(ctx, db, d)
		d.Close()
		if err != nil {
			tb.Fatal(err)
		}
	}
	return files, ds, docs
}

// wrongSQL runs everywhere and matches no demo question's answer.
const wrongSQL = "SELECT 'not it' AS answer"

// twoPassScript answers first-pass generation prompts with the gold SQL for questions
// whose index is a multiple of 3, a wrong-result query for index%3 == 1 and a failing
// query for index%3 == 2; the second-pass prompt (recognised by its heading) always
// gets the gold SQL. Every prompt is kept, by question text.
type twoPassScript struct {
	ds      *dataset.Dataset
	mu      sync.Mutex
	prompts map[string][]string // question text -> prompts, in order
}

func (s *twoPassScript) reply(r fakellm.Request) fakellm.Reply {
	p := r.Prompt()
	i := strings.LastIndex(p, "\nQuestion: ")
	text := p[i+len("\nQuestion: "):]
	text = text[:strings.IndexByte(text, '\n')]
	var q dataset.Question
	for _, x := range s.ds.Questions {
		if x.Text == text {
			q = x
		}
	}
	s.mu.Lock()
	s.prompts[text] = append(s.prompts[text], p)
	s.mu.Unlock()
	sql := q.Gold[0]
	if !strings.Contains(p, ", second pass\n") {
		switch q.Index % 3 {
		case 1:
			sql = wrongSQL
		case 2:
			sql = brokenSQL
		}
	}
	return fakellm.Reply{Choices: []string{"```sql\n" + sql + "\n```"}, Prompt: fakellm.Words(p), Completion: 10}
}

type twoPassJSON struct {
	Compare       string  `json:"compare"`
	Questions     int     `json:"questions"`
	FirstCorrect  int     `json:"first_pass_correct"`
	FirstExact    int     `json:"first_pass_exact"`
	FirstAccuracy float64 `json:"first_pass_accuracy_pct"`
	Retried       int     `json:"retried"`
	Recovered     int     `json:"second_pass_recovered"`
	Gain          float64 `json:"gain_points"`
	FinalCorrect  int     `json:"final_correct"`
	FinalAccuracy float64 `json:"final_accuracy_pct"`
	Pass1         struct {
		Questions   int `json:"questions"`
		TotalTokens int `json:"total_tokens"`
		LLMCalls    int `json:"llm_calls"`
	} `json:"pass1_tokens"`
	Pass2 struct {
		Questions   int `json:"questions"`
		TotalTokens int `json:"total_tokens"`
		LLMCalls    int `json:"llm_calls"`
	} `json:"pass2_tokens"`
	RetriedIDs []string `json:"retried_ids"`
}

func TestCollectTwoPass(t *testing.T) {
	ctx := context.Background()
	files, ds, docs := demoDocs(t)
	cb := sqlppfake.New(files.DBRoot)
	defer cb.Close()
	t.Setenv("CLI_TEST_KEY", collectKey)
	tests := []struct {
		name, pipeline string
		engine         []string
		compare        string
		firstHeading   string
	}{
		{"sqlpp on the fake query service, flex", "dialect: sqlpp, documents: " + docs, []string{"--engine", "sqlpp", "--sqlpp-endpoint", cb.URL(), "--sqlpp-bucket", "bench"},
			"flex", "### Task: text to SQL++\n"},
		{"sqlite, ex", "schema_selection: {strategy: full}", nil, "ex", "### Task: text to SQL\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := &twoPassScript{ds: ds, prompts: map[string][]string{}}
			srv := fakellm.New(script.reply, 2000)
			defer srv.Close()
			dir := t.TempDir()
			cfg := filepath.Join(dir, "p.yaml")
			os.WriteFile(cfg, []byte("llm: {base_url: "+srv.BaseURL+", model: fake, api_key_env: CLI_TEST_KEY, concurrency: 2}\n"+
				"pipeline: {"+tt.pipeline+"}\nsecond_pass: {enabled: true, compare: "+tt.compare+"}\n"), 0o644)
			out := filepath.Join(dir, "run")
			args := append([]string{"collect", "--config", cfg, "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot, "--out", out}, tt.engine...)
			before := cb.Requests()
			var stdout, stderr strings.Builder
			if code := Run(ctx, cmdline(args...), nil, &stdout, &stderr); code != 0 {
				t.Fatalf("collect exit %d: %s %s", code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), "two-pass run (compare "+tt.compare+")") {
				t.Errorf("no two-pass table:\n%s", stdout.String())
			}
			if tt.engine != nil && cb.Requests() == before {
				t.Errorf("nothing ran on the SQL++ service")
			}

			// Which questions were judged, and what pass 1 should have made of them.
			ev1 := readEvalRecords(t, filepath.Join(out, "pass1", "eval", "pass1", "records.jsonl"))
			judged, wantFirst := 0, 0
			idxOf := map[string]int{}
			for _, q := range ds.Questions {
				idxOf[q.ID] = q.Index
			}
			for _, r := range ev1 {
				if r.Verdict == "correct" || r.Verdict == "incorrect" || r.Verdict == "error" {
					judged++
					if r.Index%3 == 0 {
						wantFirst++
					}
				}
			}
			var rep twoPassJSON
			b, err := os.ReadFile(filepath.Join(out, "two_pass.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			t.Logf("collect output:\n%s\ntwo_pass.json:\n%s", stdout.String(), b)
			if rep.Compare != tt.compare || rep.Questions != judged || judged < 40 || rep.FirstCorrect != wantFirst ||
				rep.Retried != judged-wantFirst || rep.Recovered != rep.Retried || rep.FinalCorrect != judged ||
				rep.FinalAccuracy != 100 || rep.FirstAccuracy != pctOf(wantFirst, judged) || rep.Gain != pctOf(judged, judged)-pctOf(wantFirst, judged) {
				t.Errorf("two_pass.json %+v; judged %d, want %d correct in pass 1", rep, judged, wantFirst)
			}
			if tt.compare == "flex" && rep.FirstExact != wantFirst {
				t.Errorf("first-pass exact %d, want %d", rep.FirstExact, wantFirst)
			}
			if rep.Pass1.TotalTokens == 0 || rep.Pass2.TotalTokens == 0 || rep.Pass2.Questions != rep.Retried || rep.Pass2.LLMCalls != rep.Retried {
				t.Errorf("tokens %+v %+v", rep.Pass1, rep.Pass2)
			}
			retried := map[string]bool{}
			for _, id := range rep.RetriedIDs {
				retried[id] = true
				if idxOf[id]%3 == 0 {
					t.Errorf("question %s was right in pass 1 but retried", id)
				}
			}

			// Prompts: pass 1 once per question; pass 2 only for the retried ones, with a
			// different prompt that shows the first attempt and never the gold SQL.
			for _, q := range ds.Questions {
				ps := script.prompts[q.Text]
				if len(ps) == 0 {
					continue // database missing: never asked
				}
				if !strings.HasPrefix(ps[0], tt.firstHeading) {
					t.Errorf("question %s: first prompt %.60q", q.ID, ps[0])
				}
				if tt.engine != nil && (strings.Contains(ps[0], "CREATE TABLE") || !strings.Contains(ps[0], "collection ")) {
					t.Errorf("question %s: sqlpp prompt without document shapes:\n%s", q.ID, ps[0])
				}
				if !retried[q.ID] {
					if len(ps) != 1 {
						t.Errorf("question %s (correct in pass 1) asked %d times", q.ID, len(ps))
					}
					continue
				}
				if len(ps) != 2 {
					t.Fatalf("question %s (retried) asked %d times", q.ID, len(ps))
				}
				second := ps[1]
				if second == ps[0] || !strings.Contains(second, ", second pass\n") || !strings.Contains(second, "Outcome: ") {
					t.Errorf("question %s: second prompt:\n%s", q.ID, second)
				}
				first := wrongSQL
				if q.Index%3 == 2 {
					first = brokenSQL
				}
				if !strings.Contains(second, first) {
					t.Errorf("question %s: second prompt lacks the first attempt %q", q.ID, first)
				}
				for _, g := range q.Gold {
					if strings.Contains(second, g) {
						t.Errorf("question %s: second prompt carries the gold SQL", q.ID)
					}
				}
			}

			// Merged records: pass 2's for the retried questions.
			for _, d := range []string{"", "pass1", "pass2"} {
				if _, err := os.Stat(filepath.Join(out, d, "records.jsonl")); !os.IsNotExist(err) {
					t.Errorf("%s: module records named records.jsonl (%v), want modules.jsonl", filepath.Join(out, d), err)
				}
			}
			merged, err := collect.ReadRecords(filepath.Join(out, "modules.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, r := range merged {
				seen[string(r.QuestionID)] = true
				want := 1
				if retried[string(r.QuestionID)] {
					want = 2
				}
				if r.Pass != want {
					t.Errorf("merged record %s/%s: pass %d, want %d", r.QuestionID, r.NodeType, r.Pass, want)
				}
			}
			if len(seen) != len(ds.Questions) {
				t.Errorf("merged records cover %d questions of %d", len(seen), len(ds.Questions))
			}
			final := readEvalRecords(t, filepath.Join(out, "eval", "final", "records.jsonl"))
			for _, r := range final {
				if r.Verdict == "incorrect" || r.Verdict == "error" {
					t.Errorf("final question %d: %s", r.Index, r.Verdict)
				}
			}

			// A rerun asks nothing and writes the same files (judged records carry execution
			// times, so only their verdicts are compared); so does a rerun of the directory as
			// an older version left it, which renames its module records.
			snap := func() map[string]string {
				m := map[string]string{}
				var verdicts []string
				for _, r := range readEvalRecords(t, filepath.Join(out, "eval", "final", "records.jsonl")) {
					verdicts = append(verdicts, r.Verdict)
				}
				m["final verdicts"] = strings.Join(verdicts, " ")
				for _, f := range []string{"modules.jsonl", "two_pass.json", "pass1/modules.jsonl", "pass2/modules.jsonl"} {
					b, err := os.ReadFile(filepath.Join(out, f))
					if err != nil {
						t.Fatal(err)
					}
					m[f] = string(b)
				}
				return m
			}
			was, n := snap(), len(srv.Requests())
			stdout.Reset()
			stderr.Reset()
			if code := Run(ctx, cmdline(args...), nil, &stdout, &stderr); code != 0 {
				t.Fatalf("rerun exit %d: %s %s", code, stdout.String(), stderr.String())
			}
			if len(srv.Requests()) != n {
				t.Errorf("rerun sent %d LLM requests", len(srv.Requests())-n)
			}
			for f, b := range snap() {
				if b != was[f] {
					t.Errorf("rerun changed %s", f)
				}
			}
		})
	}
}

func TestCollectSQLPPUsageErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files, _, docs := demoDocs(t)
	dir := t.TempDir()
	sqlpp := filepath.Join(dir, "sqlpp.yaml")
	os.WriteFile(sqlpp, []byte("llm: {model: fake}\npipeline: {dialect: sqlpp, documents: "+docs+"}\n"), 0o644)
	plain := filepath.Join(dir, "plain.yaml")
	os.WriteFile(plain, []byte("llm: {model: fake}\n"), 0o644)
	base := []string{"collect", "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot, "--out", filepath.Join(dir, "out")}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"sqlpp config without --engine sqlpp", []string{"--config", sqlpp}, "pipeline.dialect is sqlpp: run it with --engine sqlpp"},
		{"--engine sqlpp with a sqlite config", []string{"--config", plain, "--engine", "sqlpp", "--sqlpp-endpoint", "http://127.0.0.1:1", "--sqlpp-bucket", "b"}, "writes SQLite SQL"},
		{"no bucket", []string{"--config", sqlpp, "--engine", "sqlpp", "--sqlpp-endpoint", "http://127.0.0.1:1"}, "needs --sqlpp-bucket"},
		{"postgres", []string{"--config", plain, "--engine", "postgres"}, "collect runs its queries on sqlite or sqlpp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := Run(ctx, cmdline(append(append([]string(nil), base...), tt.args...)...), nil, &stdout, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want usage error %q", code, stderr.String(), tt.want)
			}
		})
	}
}
