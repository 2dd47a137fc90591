// Package llmjudge is the LLM judge of eval --llm-judge: for each chosen record, a model
// reached through collect's OpenAI-compatible client is shown the question, its evidence,
// the tables both queries use with a few rows, the gold and predicted SQL, samples of
// both results and the run's own evidence (the EX verdict, ETM's verdict and rule, a
// counterexample and what it assumes, the gold's audit findings), and answers with a
// verdict, an error category from Taxonomy and a short rationale (docs/llm-judge.md).
//
// It is a judge annotator (layer 3, beside judge and match): it imports collect for the
// client, cache and pricing, and audit for the gold's findings, sideways; neither imports
// it. An answer that does not parse gives no verdict (the record says why), an endpoint
// that keeps failing or a spend past the cost cap stops the run, so no infrastructure
// fault ever becomes a verdict.
package llmjudge
