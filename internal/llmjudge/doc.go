// Package llmjudge is the LLM judge of eval --llm-judge: for each chosen record, a model
// reached through collect's OpenAI-compatible client is shown the question, its evidence,
// the tables both queries use with a few rows, the gold and predicted SQL, samples of
// both results and the run's own evidence (the EX verdict, ETM's verdict and rule, a
// counterexample and what it assumes, the gold's audit findings), and answers with a
// verdict, an error category from Taxonomy and a short rationale (docs/llm-judge.md).
//
// It is the last judge annotator. --llm-judge-on chooses the records: disputed (an
// execution error, EX and ETM disagreeing, ts_ex refuting EX, or a finding of the gold's
// audit, which it runs per question with audit.Gold) or all. The prompt is a
// text/template (prompts/judge.tmpl by default, or the user's) with every untrusted value
// a JSON literal inside one <data> block; the answer is parsed strictly (answer.go: one
// JSON object, else no verdict and llm_judge_error). Answers that parsed are cached in the
// run directory by the request's hash. Its setting (model, endpoint, prompt sha256, on) is
// in the manifest; the cli builds it (cli/llmjudge.go) and never takes its config from
// args.json.
//
// It is a judge annotator (layer 3, beside judge and match): it imports collect for the
// client, cache and pricing, and audit for the gold's findings, sideways; neither imports
// it. An answer that does not parse gives no verdict (the record says why); an endpoint
// that keeps failing or a spend past the cost cap stops the run, which the run layer
// reports as an interruption (run.StoppedError), so it resumes and no infrastructure
// fault ever becomes a verdict.
package llmjudge
