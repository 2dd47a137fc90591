package metrics

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// llmJudgeMetrics are the LLM judge's (eval --llm-judge, internal/llmjudge): its verdict,
// a 0/1 rate over the records it gave one (under --llm-judge-on disputed, a chosen
// subset, so no minimum coverage), and what its calls cost per record it was asked about.
func llmJudgeMetrics() []Metric {
	asked := func(r *record.Record) bool { return r.LLMJudgeVerdict != nil || r.LLMJudgeError != "" }
	return []Metric{
		{ID: "llm_judge", Label: "LLM judge (asked)", Group: "headline", Fields: []string{"llm_judge", "llm_judge_category", "llm_judge_rationale"},
			Unit: Percent, HigherIsBetter: true, Binary: true, Verdict: true, Over: JudgedWithValue,
			Applies: "eval --llm-judge: the records the judge gave a verdict (--llm-judge-on disputed: only the disputed ones); an answer that did not parse gives none",
			Value: func(_ string, r *record.Record) (float64, bool) {
				if r.LLMJudgeVerdict == nil {
					return 0, false
				}
				return float64(*r.LLMJudgeVerdict), true
			},
			// ETM's verdict is part of the judge's evidence and of what makes a record disputed.
			Needs:   NeedLLMJudge | NeedETM,
			Display: Display{Legend: "LLM judge (asked) = an LLM's verdict on the records it was asked about (eval --llm-judge)", VerdictLine: true}},
		{ID: "llm_judge_tokens", Label: "judge tokens", Group: "usage", Fields: []string{"llm_judge_prompt_tokens", "llm_judge_completion_tokens"},
			Unit: Tokens, Over: JudgedWithValue, Applies: "eval --llm-judge: prompt + completion tokens per record the judge was asked about (a cached answer counts its original tokens)",
			Value: func(_ string, r *record.Record) (float64, bool) {
				return float64(r.LLMJudgePromptTokens + r.LLMJudgeCompletionTokens), asked(r)
			},
			Needs:   NeedLLMJudge,
			Display: Display{Legend: "judge tokens = the LLM judge's prompt + completion tokens per record it was asked about"}},
		{ID: "llm_judge_cost", Label: "judge cost $", Group: "usage", Fields: []string{"llm_judge_cost"},
			Unit: Dollars, Over: JudgedWithValue, Applies: "eval --llm-judge with pricing in the judge's config: dollars per record the judge was asked about",
			Value: func(_ string, r *record.Record) (float64, bool) {
				if r.LLMJudgeCost == nil {
					return 0, false
				}
				return *r.LLMJudgeCost, true
			},
			Needs:   NeedLLMJudge,
			Display: Display{Legend: "judge cost $ = the LLM judge's US dollars per record it was asked about"}},
	}
}
