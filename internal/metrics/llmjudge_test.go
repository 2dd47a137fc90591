package metrics

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestLLMJudgeMetrics: the judge's rate is over the records it gave a verdict (an
// unjudged record is no 0), its usage over the records it was asked about.
func TestLLMJudgeMetrics(t *testing.T) {
	one, zero, cost := 1, 0, 0.25
	recs := []record.Record{
		{Verdict: record.Correct, LLMJudge: record.LLMJudge{LLMJudgeVerdict: &one, LLMJudgePromptTokens: 100, LLMJudgeCompletionTokens: 20, LLMJudgeCost: &cost}},
		{Verdict: record.Correct, LLMJudge: record.LLMJudge{LLMJudgeVerdict: &zero, LLMJudgePromptTokens: 200, LLMJudgeCompletionTokens: 20, LLMJudgeCost: &cost}},
		{Verdict: record.Error, LLMJudge: record.LLMJudge{LLMJudgeError: "judge answer does not parse", LLMJudgePromptTokens: 60, LLMJudgeCost: &cost}},
		{Verdict: record.Correct}, // not disputed: not asked
		{Verdict: record.Skipped},
	}
	sec := Aggregate(llmJudgeMetrics(), []SystemRecords{{Name: "s", Records: recs}})
	want := map[string]struct {
		v      float64
		n, den int
	}{
		"llm_judge":        {0.5, 2, 2},
		"llm_judge_tokens": {400.0 / 3, 3, 3},
		"llm_judge_cost":   {0.25, 3, 3},
	}
	if len(sec.Definitions) != len(want) {
		t.Fatalf("%d definitions, want %d", len(sec.Definitions), len(want))
	}
	for _, v := range sec.Systems[0].Values {
		w := want[v.ID]
		if v.Value == nil || *v.Value != w.v || v.N != w.n || v.Denominator != w.den || !v.Applicable {
			t.Errorf("%s: value %v n %d denominator %d applicable %v; want %v, %d, %d", v.ID, v.Value, v.N, v.Denominator, v.Applicable, w.v, w.n, w.den)
		}
	}
	if none := Aggregate(llmJudgeMetrics(), []SystemRecords{{Name: "s", Records: recs[3:]}}); len(none.Definitions) != 0 {
		t.Errorf("a run without the judge carries %d judge metrics", len(none.Definitions))
	}
}
