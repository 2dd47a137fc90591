package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func moduleRecords() []metrics.SystemRecords {
	f := func(x float64) *float64 { return &x }
	c := func(vs ...record.Verdict) []record.Candidate {
		out := make([]record.Candidate, len(vs))
		for i, v := range vs {
			out[i] = record.Candidate{Verdict: v}
		}
		return out
	}
	sl := func(tr, cr float64) record.SchemaLinking {
		return record.SchemaLinking{GoldSchema: map[string][]string{"t": {"a"}}, PredSchema: map[string][]string{"t": {"a"}}, PredSchemaSource: "reported",
			SchemaTableP: f(1), SchemaTableR: f(tr), SchemaTableF1: f(tr), SchemaColumnP: f(1), SchemaColumnR: f(cr), SchemaColumnF1: f(cr)}
	}
	a := []record.Record{
		{QuestionID: "1", Difficulty: "simple", Verdict: record.Correct, Candidates: c(record.Incorrect, record.Correct), RevisionApplied: true,
			Usage: record.Usage{PromptTokens: 900, CompletionTokens: 100, LLMCalls: 3}, SchemaLinking: sl(1, 1)},
		{QuestionID: "2", Difficulty: "moderate", Verdict: record.Error, ErrorCategory: record.NoSuchColumn, Candidates: c(record.Error), RevisionApplied: true,
			Usage: record.Usage{PromptTokens: 1800, CompletionTokens: 200, LLMCalls: 2}, SchemaLinking: sl(1, 0.5)},
	}
	b := []record.Record{
		{QuestionID: "1", Difficulty: "simple", Verdict: record.Correct, Usage: record.Usage{TotalTokens: 400, LLMCalls: 1}},
		{QuestionID: "2", Difficulty: "moderate", Verdict: record.Incorrect},
	}
	for i := range a {
		metrics.FillRevision(&a[i])
	}
	return []metrics.SystemRecords{{Name: "alpha", Records: a}, {Name: "beta", Records: b}}
}

func TestWriteModulesTable(t *testing.T) {
	p, err := metrics.ParsePricing([]byte("default_model: m\nmodels: {m: {input: 1, cached_input: 0.5, output: 4}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	usage := []map[string]map[string]record.Usage{{
		"1": {"schema_selection": {TotalTokens: 300, LLMCalls: 1}, "candidate_generation": {TotalTokens: 700, LLMCalls: 2}},
		"2": {"candidate_generation": {TotalTokens: 2000, LLMCalls: 2}},
	}, nil}
	m := metrics.BuildModules(moduleRecords(), usage, p, "pricing.yaml", []int{1, 2})
	s := &rundir.Summary{Modules: m, Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{PassK: []int{1, 2}}), moduleRecords())}
	var buf bytes.Buffer
	if err := WriteModulesTable(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "table/modules.txt", buf.Bytes())

	// Revision: pre I, E; post C, E. CR_pre = 0: CI is n/a; I2C = 100%.
	rv := m.Systems[0].Revision
	if rv == nil || rv.CI.Defined() || rv.I2C.Percent() != "100.00" {
		t.Errorf("revision: %+v", rv)
	}
	// Cost of alpha: q1 = (900*0.75*1 ... ) at share 0.5: 900*(0.5*1+0.5*0.5)/1e6 + 100*4/1e6 = 0.000675+0.0004;
	// q2 = 1800*0.75/1e6 + 200*4/1e6 = 0.00135+0.0008. Mean = 0.0016125.
	if u := m.Systems[0].Usage; u == nil || u.Cost == nil || u.Cost.AllQuestions < 0.0016124 || u.Cost.AllQuestions > 0.0016126 {
		t.Errorf("alpha cost: %+v", u)
	}
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if strings.Contains(string(js), bad) {
			t.Errorf("summary JSON holds %s: %s", bad, js)
		}
	}
	if !strings.Contains(string(js), `"ci":"n/a"`) {
		t.Errorf("summary JSON lacks ci n/a: %s", js)
	}
	// Nothing to say: no output.
	buf.Reset()
	if err := WriteModulesTable(&buf, &rundir.Summary{}); err != nil || buf.Len() != 0 {
		t.Errorf("no modules: %q, %v", buf.String(), err)
	}
}
