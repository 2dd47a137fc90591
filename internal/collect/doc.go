// Package collect produces NL2SQLBench module records, the JSONL format `nl2sqlbench eval
// --pred` reads: one object per module output (schema_selection, candidate_generation,
// query_revision) per question. Once a system's outputs are module records, every module
// metric applies to it. Records come from two places:
//
//   - adapters turn what an existing system leaves behind (cached LLM outputs, logs) into
//     records: the paper's "minimal wrapper code" (TASQL, the `adapt` subcommand);
//   - Run executes a pipeline itself (the `collect` subcommand): the strategies a Config
//     picks for each module, against any OpenAI-compatible chat-completions endpoint, with
//     a response cache, retries, rate limits and crash-safe resumable records.
//
// To add an adapter: write <system>.go with a function that reads its outputs and returns
// []Node for the dataset's questions (see TASQL), and register it in the `adapt`
// subcommand (internal/cli/adapt.go). Unknown quantities stay unset (a token count the
// system did not log is unknown, not zero).
//
// Dialects: a pipeline writes SQLite SQL (prompts carry CREATE TABLE statements) or, with
// pipeline.dialect sqlpp, Couchbase SQL++ over the documents export-docs wrote (prompts
// carry document shapes sampled from them, docshape.go; default prompts are
// prompts/sqlpp_<name>.tmpl; Options.Engine and Options.Locate send the pipeline's
// queries to the SQL++ engine). Two-pass runs (the NL2SQL++ benchmark) are two Runs:
// Options.Pass, Options.Select and Options.Previous make the second one, MergePasses
// joins them (passes.go); judging between them is the run layer's job (run.TwoPass).
//
// To add a pipeline strategy: name it in config.go (a constant, accepted by normalise),
// implement it in modules.go (selectSchema or revise) or pipeline.go, give it a default
// prompt under prompts/ if it calls the LLM, and add it to the end-to-end test.
package collect

import (
	"encoding/json"
	"errors"
	"io"
)

// Sentinel errors.
var (
	ErrBadTrace = errors.New("malformed trace")
	ErrMissing  = errors.New("question has no trace")
)

// Node is one module output: one line of an NL2SQLBench records file.
type Node struct {
	QuestionID string              `json:"question_id"`
	DBID       string              `json:"db_id"`
	NodeType   string              `json:"node_type"`
	Question   string              `json:"question,omitempty"`
	Schema     map[string][]string `json:"extracted_schema,omitempty"`
	SQL        string              `json:"SQL,omitempty"`
	TokenCost  *int                `json:"token_cost,omitempty"` // nil: unknown
	LLMCalls   *int                `json:"llm_calls,omitempty"`  // nil: unknown
	// SchemaSource says how Schema was derived (adapter-specific, e.g. "dummy_sql"
	// or "dummy_sql_lexical"); readers ignore it.
	SchemaSource string `json:"schema_source,omitempty"`
	// Source names the trace file the node came from.
	Source string `json:"source,omitempty"`
}

// Node types.
const (
	NodeSchemaSelection = "schema_selection"
	NodeCandidate       = "candidate_generation"
	NodeRevision        = "query_revision"
)

// WriteJSONL writes nodes, one JSON object per line.
func WriteJSONL(w io.Writer, nodes []Node) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range nodes {
		if err := enc.Encode(&nodes[i]); err != nil {
			return err
		}
	}
	return nil
}
