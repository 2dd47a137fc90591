package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// judgeScript answers the judge's default prompt: correct when the execution verdict
// was, incorrect ("other") otherwise, and prose (which does not parse) for prompts
// holding malformed.
func judgeScript(malformed string) func(fakellm.Request) fakellm.Reply {
	return func(r fakellm.Request) fakellm.Reply {
		p := r.Prompt()
		rep := fakellm.Reply{Prompt: fakellm.Words(p), Completion: 20}
		switch {
		case malformed != "" && strings.Contains(p, malformed):
			rep.Choices = []string{"The prediction looks correct to me."}
		case strings.Contains(p, "\nexecution_verdict: \"correct\"\n"):
			rep.Choices = []string{`{"verdict": "correct", "category": "none", "rationale": "Same answer."}`}
		default:
			rep.Choices = []string{`{"verdict": "incorrect", "category": "other", "rationale": "Does not answer it."}`}
		}
		return rep
	}
}

// judgeDemo materialises the demo and a judge config on a fake endpoint.
func judgeDemo(t testing.TB, malformed string) (files *demo.Files, pred, cfg string, srv *fakellm.Server) {
	t.Helper()
	files, err := demo.Materialize(context.Background(), filepath.Join(os.TempDir(), "nl2sqlbench-cli-judge-demo"))
	if err != nil {
		t.Fatal(err)
	}
	srv = fakellm.New(judgeScript(malformed), 2000)
	t.Cleanup(srv.Close)
	cfg = filepath.Join(t.TempDir(), "judge.yaml")
	os.WriteFile(cfg, []byte("llm: {base_url: "+srv.BaseURL+", model: judge-fake, api_key_env: CLI_JUDGE_KEY, temperature: 0, max_retries: 0}\n"+
		"pricing: {input: 1000, output: 1000, cache_hit_share: 0}\n"), 0o644)
	name := files.SystemOrder[0]
	return files, name + "=" + files.Systems[name], cfg, srv
}

func judgeRecords(t testing.TB, dir string) []record.Record {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if p := filepath.Join(dir, e.Name(), "records.jsonl"); e.IsDir() {
			if _, err := os.Stat(p); err == nil {
				return readRecords(t, p)
			}
		}
	}
	t.Fatalf("no records in %s", dir)
	return nil
}

// TestEvalLLMJudge runs eval --llm-judge on the demo against the fake endpoint: every
// judged record is asked about (--llm-judge-on all), one answer does not parse and
// leaves its record unjudged, the metric and the judge's usage are in summary.json, the
// judge is named in the manifest, and nothing holds the API key.
func TestEvalLLMJudge(t *testing.T) {
	t.Parallel()
	files, pred, cfg, srv := judgeDemo(t, "List the titles of the books published before 1950.")
	out := filepath.Join(t.TempDir(), "run")
	_, stderr := runCLI(t, "eval", "--dataset", "jsonl:"+files.Questions, "--db-root", files.DBRoot, "--pred", pred,
		"--out", out, "--llm-judge", cfg, "--llm-judge-on", "all", "--json", "--timeout", testTimeout.String()) // the demo has a query that runs for ever
	recs := judgeRecords(t, out)
	judged, verdicts, unjudged := 0, 0, 0
	for _, r := range recs {
		if !r.Judged() {
			if r.LLMJudgeVerdict != nil || r.LLMJudgeError != "" {
				t.Errorf("question %d (%s) was not judged by EX but the judge was asked", r.Index, r.Verdict)
			}
			continue
		}
		judged++
		switch {
		case r.LLMJudgeVerdict != nil:
			verdicts++
			if want := r.Verdict == record.Correct; (*r.LLMJudgeVerdict == 1) != want {
				t.Errorf("question %d: llm_judge %d for EX verdict %s", r.Index, *r.LLMJudgeVerdict, r.Verdict)
			}
			if r.LLMJudgeRationale == "" || r.LLMJudgeCost == nil || r.LLMJudgePromptTokens == 0 {
				t.Errorf("question %d: %+v", r.Index, r.LLMJudge)
			}
		case r.LLMJudgeError != "":
			unjudged++
			if r.QuestionID != "lib-002" { // the question the script answers with prose
				t.Errorf("question %s unjudged: %s", r.QuestionID, r.LLMJudgeError)
			}
		default:
			t.Errorf("question %d judged by EX, not asked under --llm-judge-on all", r.Index)
		}
	}
	if unjudged != 1 || verdicts != judged-1 || len(srv.Requests()) != judged {
		t.Errorf("%d judged by EX, %d verdicts, %d unjudged, %d requests", judged, verdicts, unjudged, len(srv.Requests()))
	}
	if !strings.Contains(stderr, "llm judge: asked about") || !strings.Contains(stderr, "1 unjudged") {
		t.Errorf("stderr lacks the judge's counts:\n%s", stderr)
	}
	run, err := rundir.Load(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, d := range run.Summary.Metrics.Definitions {
		ids[d.ID] = true
	}
	for _, id := range []string{"llm_judge", "llm_judge_tokens", "llm_judge_cost"} {
		if !ids[id] {
			t.Errorf("summary.json's metrics lack %s", id)
		}
	}
	m := readManifest(t, out)
	if s := m.Settings.LLMJudge; !strings.Contains(s, "model=judge-fake") || !strings.Contains(s, "prompt=sha256:") || !strings.Contains(s, "on=all") {
		t.Errorf("manifest llm_judge setting %q", s)
	}
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), collectKey) {
				t.Errorf("%s holds the API key", p)
			}
		}
		return nil
	})
}

// TestEvalLLMJudgeCapResume: the cost cap stops the run cleanly with the command that
// continues it; resume takes the judge's config from the command line only, refuses
// another prompt, and finishes without paying again for an answer it has.
func TestEvalLLMJudgeCapResume(t *testing.T) {
	t.Parallel()
	files, pred, cfg, srv := judgeDemo(t, "")
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot, "--pred", pred, "--out", out,
		"--workers", "1", "--llm-judge", cfg, "--llm-judge-on", "all", "--llm-judge-max-cost", "1.5", "--json", "--timeout", testTimeout.String()}
	var stdout, stderr strings.Builder
	code := Run(context.Background(), cmdline(args...), strings.NewReader(""), &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "cost cap reached") || !strings.Contains(stderr.String(), "--resume --out "+out+" --llm-judge "+cfg) {
		t.Fatalf("capped run: exit %d\n%s", code, stderr.String())
	}
	first := len(srv.Requests())
	partial := judgeRecords(t, out)
	if first == 0 || len(partial) == 0 || partial[len(partial)-1].LLMJudgeVerdict == nil {
		t.Fatalf("%d requests, %d records before the cap", first, len(partial))
	}

	// args.json is not trusted with the judge's config.
	stderr.Reset()
	if code := Run(context.Background(), cmdline("eval", "--resume", "--out", out), strings.NewReader(""), &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "llm-judge") {
		t.Fatalf("resume without --llm-judge: exit %d\n%s", code, stderr.String())
	}
	// Another prompt is another judge.
	tmpl := filepath.Join(t.TempDir(), "p.tmpl")
	os.WriteFile(tmpl, []byte("Judge {{.PredSQL}} against {{.GoldSQL}}.\n"), 0o644)
	stderr.Reset()
	if code := Run(context.Background(), cmdline("eval", "--resume", "--out", out, "--llm-judge", cfg, "--llm-judge-prompt", tmpl), strings.NewReader(""), &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "setting llm_judge changed") {
		t.Fatalf("resume with another prompt: exit %d\n%s", code, stderr.String())
	}
	if len(srv.Requests()) != first {
		t.Fatalf("refused resumes sent %d requests", len(srv.Requests())-first)
	}

	runCLI(t, "eval", "--resume", "--out", out, "--llm-judge", cfg, "--llm-judge-max-cost", "0")
	recs := judgeRecords(t, out)
	asked := 0
	for _, r := range recs {
		if r.Judged() {
			asked++
			if r.LLMJudgeVerdict == nil {
				t.Errorf("question %d has no judge verdict after the resume", r.Index)
			}
		}
	}
	// Every prompt was sent once: the answers before the cap were cached or kept.
	seen := map[string]bool{}
	for _, r := range srv.Requests() {
		if seen[r.Body] {
			t.Errorf("a prompt was sent twice")
		}
		seen[r.Body] = true
	}
	if len(srv.Requests()) != asked {
		t.Errorf("%d requests for %d judged records", len(srv.Requests()), asked)
	}
}

func readManifest(t testing.TB, dir string) *rundir.Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rundir.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m rundir.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// TestEvalLLMJudgeUsage: judge flags that cannot work are refused before anything runs.
func TestEvalLLMJudgeUsage(t *testing.T) {
	t.Parallel()
	files, pred, cfg, srv := judgeDemo(t, "")
	noPrice := filepath.Join(t.TempDir(), "noprice.yaml")
	os.WriteFile(noPrice, []byte("llm: {base_url: "+srv.BaseURL+", model: m, api_key_env: CLI_JUDGE_KEY}\n"), 0o644)
	badTmpl := filepath.Join(t.TempDir(), "bad.tmpl")
	os.WriteFile(badTmpl, []byte("{{.Nope}}"), 0o644)
	base := []string{"eval", "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot, "--pred", pred}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"on without judge", []string{"--llm-judge-on", "all"}, "--llm-judge-on needs --llm-judge CONFIG"},
		{"cap without judge", []string{"--llm-judge-max-cost", "1"}, "--llm-judge-max-cost needs --llm-judge CONFIG"},
		{"bad on", []string{"--llm-judge", cfg, "--llm-judge-on", "some"}, "want disputed or all"},
		{"NaN cap", []string{"--llm-judge", cfg, "--llm-judge-max-cost", "NaN"}, "must be a dollar amount"},
		{"missing config", []string{"--llm-judge", filepath.Join(t.TempDir(), "none.yaml")}, "read config"},
		{"cap without prices", []string{"--llm-judge", noPrice, "--llm-judge-max-cost", "1"}, "needs prices"},
		{"bad template", []string{"--llm-judge", cfg, "--llm-judge-prompt", badTmpl}, "bad judge prompt template"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			var stdout, stderr strings.Builder
			code := Run(context.Background(), cmdline(append(append(append([]string{}, base...), "--out", out), tt.args...)...), strings.NewReader(""), &stdout, &stderr)
			if code == 0 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want an error containing %q", code, stderr.String(), tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a refused run left %s", out)
			}
		})
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("refused runs sent %d requests", len(srv.Requests()))
	}
}
