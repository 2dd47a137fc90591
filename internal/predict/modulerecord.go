package predict

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// The NL2SQLBench module-record format: JSON objects, one per line (or a JSON array of
// them), each either a module node (the paper's Appendix A.1: one module's output for one
// question) or a flat record (the released NL2SQLBench tool's: one question's final
// answer). This file is the format's one Go model: collect writes it (modules.jsonl and the
// adapters' output), this package reads it (eval --pred, per-module usage). Field names are
// a contract with other tools and with old runs: add fields, never rename one.
//
// The field types (QuestionID, SQLValue, Count) carry the reading rules: ids may be
// numbers, SQL may be a string or a list, and a count may be unknown, which is not zero.
// Their decoding errors are *json.UnmarshalTypeError values naming the field, which
// fieldError turns into a message (modulerecord_json.go).

// Node types: the modules of the paper's pipeline.
const (
	NodeSchemaSelection     = "schema_selection"
	NodeCandidateGeneration = "candidate_generation"
	NodeQueryRevision       = "query_revision"
)

// Other spellings of node types that readers take for the module they name.
const (
	NodeSchemaExtraction = "schema_extraction" // read as schema_selection
	NodeRevision         = "revision"          // read as query_revision
)

// ModuleRecord is one object of a module-records file as a writer produces it: what
// readers interpret (ModuleOutput) and what the writer notes about how it got there
// (ModuleDetails). Both are embedded, so their fields are the object's fields.
type ModuleRecord struct {
	ModuleOutput
	ModuleDetails
}

// ModuleOutput is what a record says about a question's answer and its cost: the fields
// eval reads. A module node sets NodeType; a flat record leaves it empty and carries the
// final SQL in PredictedSQL (or SQL).
type ModuleOutput struct {
	// NodeType is the module that produced the record (NodeSchemaSelection,
	// NodeCandidateGeneration, NodeQueryRevision, or an older spelling); empty (absent,
	// null or "") for a flat record.
	NodeType string `json:"node_type,omitempty"`
	// QuestionID is the dataset's id of the question. Records are grouped by it, or by
	// Question when a file carries no question_id at all.
	QuestionID QuestionID `json:"question_id"`
	// DBID is the question's database; empty when the writer does not say.
	DBID string `json:"db_id"`
	// Question is the question's text.
	Question string `json:"question"`
	// ExtractedSchema is the schema a schema-selection module kept: table -> columns.
	ExtractedSchema map[string][]string `json:"extracted_schema,omitempty"`
	// SQL is the module's SQL: a candidate-generation node's candidate (or list of
	// candidates, in order), a query-revision node's revised query.
	SQL SQLValue `json:"SQL,omitzero"`
	// PredictedSQL is the SQL to judge, in a flat record (a list: the candidates, the first
	// judged); in a node it overrides the first candidate when there is no revision.
	PredictedSQL SQLValue `json:"PREDICTED_SQL,omitzero"`
	// PromptTokens is the tokens of the module's prompts.
	PromptTokens Count `json:"prompt_tokens,omitzero"`
	// CompletionTokens is the tokens of the model's answers.
	CompletionTokens Count `json:"completion_tokens,omitzero"`
	// TotalTokens is PromptTokens + CompletionTokens, as the model's API reported it.
	TotalTokens Count `json:"total_tokens,omitzero"`
	// TokenCost is the paper's name for TotalTokens; a writer that knows both writes the
	// same number in each, and readers never add them together.
	TokenCost Count `json:"token_cost,omitzero"`
	// LLMCalls is how many LLM requests the module made.
	LLMCalls Count `json:"llm_calls,omitzero"`
	// CallLLMTimes is the released tool's name for LLMCalls (read when LLMCalls is unknown).
	CallLLMTimes Count `json:"call_llm_times,omitzero"`
	// LatencyMS is the module's wall time in milliseconds, LLM calls included.
	LatencyMS Count `json:"latency_ms,omitzero"`
}

// ModuleDetails is what a writer notes about how it produced a module output. Prediction
// readers ignore it, so a file from another tool that uses these names differently still
// reads.
type ModuleDetails struct {
	// Strategy is the pipeline strategy that ran the module (collect's config names, e.g.
	// "preliminary_sql", "sampled", "execution_guided").
	Strategy string `json:"strategy,omitempty"`
	// CachedCalls is how many of LLMCalls were answered from collect's response cache.
	CachedCalls int `json:"cached_calls,omitempty"`
	// SchemaSource says how ExtractedSchema was obtained when that is worth saying: an
	// adapter's method ("dummy_sql", "dummy_sql_lexical"), or collect's fallbacks
	// ("fallback_full" when the model's answer could not be read, "database_missing").
	SchemaSource string `json:"schema_source,omitempty"`
	// RevisionRounds is how many revision rounds called the LLM.
	RevisionRounds int `json:"revision_rounds,omitempty"`
	// Feedback is what each revision round told the model about the query it revised.
	Feedback []string `json:"feedback,omitempty"`
	// Votes is, per candidate, how many candidates shared its result (self-consistency).
	Votes []int `json:"votes,omitempty"`
	// Pass is the pass of a two-pass run that wrote the record (1 or 2); 0 otherwise.
	Pass int `json:"pass,omitempty"`
	// Source names the file an adapter read the output from (e.g. a trace file).
	Source string `json:"source,omitempty"`
}

// Module is the module the record belongs to: NodeType with the older spellings mapped
// to the pipeline's names; "" for a flat record. ok is false for a node type no reader
// knows.
func (o *ModuleOutput) Module() (module string, ok bool) {
	switch o.NodeType {
	case "":
		return "", true
	case NodeSchemaSelection, NodeSchemaExtraction:
		return NodeSchemaSelection, true
	case NodeCandidateGeneration:
		return NodeCandidateGeneration, true
	case NodeQueryRevision, NodeRevision:
		return NodeQueryRevision, true
	}
	return o.NodeType, false
}

// Usage is the record's usage by the rules every reader applies: tokens are total_tokens,
// else token_cost (the same quantity, so never added together), else prompt_tokens +
// completion_tokens; calls are llm_calls, else call_llm_times. Unknown counts add 0.
func (o *ModuleOutput) Usage() record.Usage {
	u := record.Usage{
		PromptTokens:     o.PromptTokens.N,
		CompletionTokens: o.CompletionTokens.N,
		LLMCalls:         o.LLMCalls.N,
		LatencyMS:        int64(o.LatencyMS.N),
	}
	switch {
	case o.TotalTokens.Known:
		u.TotalTokens = o.TotalTokens.N
	case o.TokenCost.Known:
		u.TotalTokens = o.TokenCost.N
	default:
		u.TotalTokens = o.PromptTokens.N + o.CompletionTokens.N
	}
	if !o.LLMCalls.Known {
		u.LLMCalls = o.CallLLMTimes.N
	}
	return u
}

// addUsage adds u to dst.
func addUsage(dst *record.Usage, u record.Usage) {
	dst.PromptTokens = record.AddCount(dst.PromptTokens, u.PromptTokens)
	dst.CompletionTokens = record.AddCount(dst.CompletionTokens, u.CompletionTokens)
	dst.TotalTokens = record.AddCount(dst.TotalTokens, u.TotalTokens)
	dst.LLMCalls = record.AddCount(dst.LLMCalls, u.LLMCalls)
	dst.LatencyMS += u.LatencyMS
}

// QuestionID is a question's id. It is written as a JSON string, and read from a string
// (trimmed) or a number, which is written without decimals (12, 12.0 and 1.2e1 all read
// as "12") so it compares equal to the dataset's id. Absent or null reads as "".
type QuestionID string

// SQLValue is the SQL of a record: one query (a JSON string) or a list of them (a JSON
// array of strings). A one-element list is not a string: a flat record's PREDICTED_SQL
// list makes its queries candidates. The zero value is absent: omitted when written (with
// omitzero), and what absent or null reads as.
type SQLValue struct {
	// Queries are the queries in order: one for a string, any number for a list.
	Queries []string
	// List says the value is a JSON array.
	List bool
}

// OneSQL is a single query.
func OneSQL(q string) SQLValue { return SQLValue{Queries: []string{q}} }

// SQLList is a list of queries (an empty list when qs is empty).
func SQLList(qs []string) SQLValue {
	if qs == nil {
		qs = []string{}
	}
	return SQLValue{Queries: qs, List: true}
}

// IsZero says the value is absent.
func (v SQLValue) IsZero() bool { return v.Queries == nil && !v.List }

// Count is a usage count (tokens, calls, milliseconds) that may be unknown: a count a
// system did not report is unknown, not zero. Unknown counts are omitted when written
// (with omitzero); absent or null reads as unknown. Read, a count must be a non-negative
// integer (12.0 is 12).
type Count struct {
	// N is the count; 0 when unknown.
	N int
	// Known says the record gives the count.
	Known bool
}

// CountOf is a known count.
func CountOf(n int) Count { return Count{N: n, Known: true} }

// IsZero says the count is unknown.
func (c Count) IsZero() bool { return !c.Known }
