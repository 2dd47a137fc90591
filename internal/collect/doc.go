// Package collect produces NL2SQLBench module records, the JSONL format `nl2sqlbench eval
// --pred` reads: one object per module output (schema_selection, candidate_generation,
// query_revision) per question. The format is predict.ModuleRecord (the package that reads
// it owns it); this package only writes it. Once a system's outputs are module records,
// every module metric applies to it. Records come from two places:
//
//   - adapters turn what an existing system leaves behind (cached LLM outputs, logs) into
//     records: the paper's "minimal wrapper code" (TASQL, the `adapt` subcommand);
//   - Run executes a pipeline itself (the `collect` subcommand): the strategies a Config
//     picks for each module, against any OpenAI-compatible chat-completions endpoint, with
//     a response cache, retries, rate limits and crash-safe resumable records
//     (DIR/modules.jsonl, which eval --pred reads; not eval's judged records.jsonl).
//
// To add an adapter: write <system>.go with a function that reads its outputs and returns
// []predict.ModuleRecord for the dataset's questions (see TASQL), and register it in the `adapt`
// subcommand (internal/cli/adapt.go). Unknown quantities stay unset (a token count the
// system did not log is unknown, not zero).
//
// Dialects: a pipeline writes SQLite SQL (prompts carry CREATE TABLE statements) or, with
// pipeline.dialect sqlpp, Couchbase SQL++ over the documents export-docs wrote (prompts
// carry document shapes sampled from them, docshape.go; default prompts are
// prompts/sqlpp_<name>.tmpl; Options.Engine and Options.Locate send the pipeline's
// queries to the SQL++ engine). Two-pass runs (the NL2SQL++ benchmark) are two Runs:
// Options.Pass, Options.Select and Options.Previous make the second one, MergePasses
// joins them (passes.go); judging between them is the run layer's job (benchrun.TwoPass).
//
// Tasks on a database copy (livesql:, evalbench:; Options.Tasks, tasks.go) are asked one
// prompt per turn (prompts/task.tmpl) and recorded as one candidate_generation record each;
// the run layer (benchrun.CollectTasks) judges the first turns before it asks follow-ups.
//
// To add a pipeline strategy: name it in config.go (a constant, accepted by normalise),
// implement it in modules.go (selectSchema or revise) or pipeline.go, give it a default
// prompt under prompts/ if it calls the LLM, and add it to the end-to-end test.
package collect

import "errors"

// Sentinel errors.
var (
	ErrBadTrace = errors.New("malformed trace")
	ErrMissing  = errors.New("question has no trace")
)
