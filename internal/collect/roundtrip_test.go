package collect

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// rec builds a module record as the pipeline does (every usage count known, latency
// 10 ms per token).
func rec(nt, qid string, sql predict.SQLValue, prompt, completion, calls int) predict.ModuleRecord {
	r := predict.ModuleRecord{
		ModuleOutput:  predict.ModuleOutput{NodeType: nt, QuestionID: predict.QuestionID(qid), DBID: "d", Question: "question " + qid, SQL: sql},
		ModuleDetails: predict.ModuleDetails{Strategy: "s"},
	}
	u := usageAcc{prompt: prompt, completion: completion, total: prompt + completion, calls: calls}
	u.record(&r, int64(10*(prompt+completion)))
	return r
}

// What collect writes, predict reads: the judged SQL, the candidates, the selected schema
// and the usage, per question and per module; and collect reads its own file back whole.
func TestModuleRecordsRoundTrip(t *testing.T) {
	ss := rec(predict.NodeSchemaSelection, "1", predict.SQLValue{}, 90, 10, 1)
	ss.ExtractedSchema = map[string][]string{"t": {"a", "b"}}
	recs := []predict.ModuleRecord{
		ss,
		rec(predict.NodeCandidateGeneration, "1", predict.SQLList([]string{"SELECT a FROM t WHERE a < 'x&y'", "SELECT b FROM t"}), 40, 10, 1),
		rec(predict.NodeQueryRevision, "1", predict.OneSQL("SELECT b FROM t"), 0, 0, 0), // self-consistency: no call
		rec(predict.NodeSchemaSelection, "2", predict.SQLValue{}, 0, 0, 0),
		rec(predict.NodeCandidateGeneration, "2", predict.OneSQL(""), 0, 0, 0), // a missing database: no SQL
		rec(predict.NodeQueryRevision, "2", predict.OneSQL(""), 0, 0, 0),
	}
	path := filepath.Join(t.TempDir(), ModulesFile)
	if err := WriteRecordsFile(path, recs); err != nil {
		t.Fatal(err)
	}

	back, err := ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(recs, back); d != "" {
		t.Errorf("collect reads back (-wrote +read):\n%s", d)
	}

	set, err := predict.ReadFor(path, 2) // questions "1" and "2"
	if err != nil {
		t.Fatal(err)
	}
	want := []predict.Prediction{
		{Key: "1", Line: 1, DBID: "d", Question: "question 1", SQL: "SELECT b FROM t", Revised: true,
			Candidates:     []string{"SELECT a FROM t WHERE a < 'x&y'", "SELECT b FROM t"},
			SelectedSchema: map[string][]string{"t": {"a", "b"}},
			Usage:          record.Usage{PromptTokens: 130, CompletionTokens: 20, TotalTokens: 150, LLMCalls: 2, LatencyMS: 1500}},
		{Key: "2", Line: 4, DBID: "d", Question: "question 2", Revised: true, Candidates: []string{""}},
	}
	if set.Format != predict.FormatRecords {
		t.Errorf("format %q", set.Format)
	}
	if d := cmp.Diff(want, set.Items); d != "" {
		t.Errorf("predict reads (-want +got):\n%s", d)
	}

	usage, ok, err := predict.ModuleUsage(path)
	if err != nil || !ok {
		t.Fatalf("ModuleUsage: %v, %v", ok, err)
	}
	wantUsage := map[string]map[string]record.Usage{
		"1": {
			predict.NodeSchemaSelection:     {PromptTokens: 90, CompletionTokens: 10, TotalTokens: 100, LLMCalls: 1, LatencyMS: 1000},
			predict.NodeCandidateGeneration: {PromptTokens: 40, CompletionTokens: 10, TotalTokens: 50, LLMCalls: 1, LatencyMS: 500},
			predict.NodeQueryRevision:       {},
		},
		"2": {predict.NodeSchemaSelection: {}, predict.NodeCandidateGeneration: {}, predict.NodeQueryRevision: {}},
	}
	if d := cmp.Diff(wantUsage, usage); d != "" {
		t.Errorf("ModuleUsage (-want +got):\n%s", d)
	}
}

func findRecord(recs []predict.ModuleRecord, qid, module string) *predict.ModuleRecord {
	for i := range recs {
		if string(recs[i].QuestionID) == qid && recs[i].NodeType == module {
			return &recs[i]
		}
	}
	return nil
}

// A real run's modules.jsonl, read by predict: per question the judged SQL is the
// revision's, the candidates are the sampled ones in order, and the usage predict and
// ModuleUsage add up is the usage the run's summary reports.
func TestCollectedModulesReadByPredict(t *testing.T) {
	ds := demoDataset(t)
	srv := fakellm.New(goldScript(ds, 0), 1000)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, srv.BaseURL, "pipeline:\n  schema_selection: {strategy: llm}\n"+
		"  candidate_generation: {strategy: sampled, n: 3}\n  query_revision: {strategy: self_consistency}\n")
	sum, err := Run(context.Background(), Options{Config: cfg, Dataset: ds, OutDir: filepath.Join(dir, "out"), Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(sum.Records) != ModulesFile {
		t.Errorf("records written to %s, want %s", sum.Records, ModulesFile)
	}
	recs, err := ReadRecords(sum.Records)
	if err != nil {
		t.Fatal(err)
	}
	set, err := predict.ReadFor(sum.Records, len(ds.Questions))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Items) != len(ds.Questions) {
		t.Fatalf("predict reads %d questions of %d", len(set.Items), len(ds.Questions))
	}
	var total record.Usage
	for _, p := range set.Items {
		gen := findRecord(recs, p.Key, predict.NodeCandidateGeneration)
		rev := findRecord(recs, p.Key, predict.NodeQueryRevision)
		if gen == nil || rev == nil {
			t.Fatalf("question %s: no candidate or revision record", p.Key)
		}
		if d := cmp.Diff(gen.SQL.Queries, p.Candidates); d != "" || p.SQL != rev.SQL.Queries[0] || !p.Revised {
			t.Errorf("question %s: SQL %q (revision %q), candidates (-wrote +read):\n%s", p.Key, p.SQL, rev.SQL.Queries[0], d)
		}
		addTo(&total, p.Usage)
	}
	if total.PromptTokens != sum.PromptTokens || total.CompletionTokens != sum.CompletionTokens || total.TotalTokens != sum.TotalTokens {
		t.Errorf("predict's usage %+v, the run's %d + %d = %d", total, sum.PromptTokens, sum.CompletionTokens, sum.TotalTokens)
	}
	usage, ok, err := predict.ModuleUsage(sum.Records)
	if err != nil || !ok {
		t.Fatalf("ModuleUsage: %v, %v", ok, err)
	}
	byModule := map[string]record.Usage{}
	for _, mods := range usage {
		for m, u := range mods {
			x := byModule[m]
			addTo(&x, u)
			byModule[m] = x
		}
	}
	for m, want := range sum.Modules {
		got := byModule[m]
		if got.TotalTokens != want.TotalTokens || got.LLMCalls != want.LLMCalls || got.LatencyMS != want.LatencyMS {
			t.Errorf("module %s: ModuleUsage %+v, the run's %+v", m, got, *want)
		}
	}
}

func addTo(dst *record.Usage, u record.Usage) {
	dst.PromptTokens += u.PromptTokens
	dst.CompletionTokens += u.CompletionTokens
	dst.TotalTokens += u.TotalTokens
	dst.LLMCalls += u.LLMCalls
	dst.LatencyMS += u.LatencyMS
}
