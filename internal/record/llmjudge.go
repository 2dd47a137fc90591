package record

// LLMJudge holds the LLM judge's verdict (eval --llm-judge, internal/llmjudge): a model
// shown the question, both queries, samples of their results and the run's own evidence
// (ETM, a counterexample, audit findings) says whether the prediction answers the
// question. Absent for records the judge was not asked about (--llm-judge-on disputed
// leaves out the undisputed ones). Fields are added here, never renamed.
//
// LLMJudgeVerdict is 1 when the judge said correct, 0 when it said incorrect; absent when
// it was not asked or its answer did not parse (LLMJudgeError then says why: a question
// the judge was asked about but gave no verdict for is "unjudged", never a 0).
type LLMJudge struct {
	LLMJudgeVerdict *int `json:"llm_judge,omitempty"`
	// LLMJudgeCategory is the error category the judge named (internal/llmjudge's
	// taxonomy, NL2SQL-BUGs' main categories), "none" for a correct verdict.
	LLMJudgeCategory  string `json:"llm_judge_category,omitempty"`
	LLMJudgeRationale string `json:"llm_judge_rationale,omitempty"`
	// LLMJudgeError says why an asked question has no verdict (the answer did not parse).
	LLMJudgeError string `json:"llm_judge_error,omitempty"`
	// LLMJudgeTokens and LLMJudgeCost are what the judge's call cost (the prompt and the
	// completion; dollars by the config's pricing, absent without one); a cached answer
	// records its original tokens with LLMJudgeCached set, and costs this run nothing.
	LLMJudgePromptTokens     int      `json:"llm_judge_prompt_tokens,omitempty"`
	LLMJudgeCompletionTokens int      `json:"llm_judge_completion_tokens,omitempty"`
	LLMJudgeCost             *float64 `json:"llm_judge_cost,omitempty"`
	LLMJudgeCached           bool     `json:"llm_judge_cached,omitempty"`
}
