package record

// Verdict is the outcome of judging one prediction against its question's gold SQL.
type Verdict string

// Verdicts. Rates are computed over correct+incorrect+error; skipped and gold_error are
// reported apart and excluded from rates.
const (
	Correct   Verdict = "correct"    // results match under the run's primary semantics
	Incorrect Verdict = "incorrect"  // prediction ran, results differ
	Error     Verdict = "error"      // prediction could not run (see ErrorCategory)
	Skipped   Verdict = "skipped"    // question could not be judged (database missing)
	GoldError Verdict = "gold_error" // the gold SQL itself failed or timed out
)

// ErrorCategory classifies why a prediction with verdict "error" failed. The first five
// are the NL2SQLBench paper's categories (with table and column kept apart).
type ErrorCategory string

// Error categories.
const (
	NoError        ErrorCategory = ""
	NoSuchTable    ErrorCategory = "no_such_table"
	NoSuchColumn   ErrorCategory = "no_such_column"
	NoSuchFunction ErrorCategory = "no_such_function"
	SyntaxError    ErrorCategory = "syntax_error"
	Timeout        ErrorCategory = "timeout"
	RowLimit       ErrorCategory = "row_limit"
	Other          ErrorCategory = "other"
)

// Categories lists every error category in report order.
var Categories = []ErrorCategory{NoSuchTable, NoSuchColumn, NoSuchFunction, SyntaxError, Timeout, RowLimit, Other}

// Usage is the LLM usage a system reported for one question (all modules summed).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
	TotalTokens      int `json:"total_tokens,omitempty"`
	LLMCalls         int `json:"llm_calls,omitempty"`
	// LatencyMS is the wall time the system reported for the question (all modules),
	// in milliseconds; 0 when it reported none.
	LatencyMS int64 `json:"latency_ms,omitempty"`
}

// Candidate is one judged candidate SQL from a system's candidate-generation module.
type Candidate struct {
	SQL           string        `json:"sql"`
	Verdict       Verdict       `json:"verdict"`
	ErrorCategory ErrorCategory `json:"error_category,omitempty"`
}

// Record is one judged question for one system: a line of DIR/<system>/records.jsonl.
type Record struct {
	Index         int           `json:"index"` // 0-based position in the dataset
	QuestionID    string        `json:"question_id"`
	DBID          string        `json:"db_id"`
	Difficulty    string        `json:"difficulty"`
	Question      string        `json:"question,omitempty"`
	GoldSQL       string        `json:"gold_sql"`
	PredSQL       string        `json:"pred_sql"`
	Verdict       Verdict       `json:"verdict"`
	ErrorCategory ErrorCategory `json:"error_category"`
	ErrorMessage  string        `json:"error_message"`
	ExBird        int           `json:"ex_bird"`   // BIRD evaluation_ex semantics (0/1)
	ExSpider      int           `json:"ex_spider"` // Spider test-suite execution semantics (0/1)
	PredRows      int           `json:"pred_rows"`
	GoldRows      int           `json:"gold_rows"`
	ExecMillis    float64       `json:"exec_ms"` // wall time of the prediction's execution(s)

	Usage
	// SelectedSchema is the schema-selection module's output, when the system reported one.
	SelectedSchema map[string][]string `json:"selected_schema,omitempty"`
	// Candidates are the candidate-generation module's SQL, judged, when reported.
	Candidates []Candidate `json:"candidates,omitempty"`
	// RevisionApplied is true when the system reported a query-revision module output.
	RevisionApplied bool `json:"revision_applied,omitempty"`

	// Sections added by later metrics, each defined in its own file. Their fields are
	// flattened into the record's JSON object.
	Efficiency    // efficiency.go: VES, R-VES, Soft-F1
	SchemaLinking // schema.go: gold and predicted schema, selection precision / recall / F1
	Modules       // modules.go: Pass@k, pre/post revision verdicts
	Structural    // structural.go: exact set match, ETM
	FlexMatch     // flex.go: the NL2SQL++ flexible result comparison
	Spider2Match  // spider2.go: Spider 2.0 result tables, official and strict
	TestSuite     // testsuite.go: counterexample databases (ts_ex)
	SpiderRewrite // spider_rewrite.go: where Spider's official rewrite changed a query
	LLMJudge      // llmjudge.go: the LLM judge's verdict, category and rationale
	ResultDiff    // resultdiff.go: how an incorrect result differs from the gold's
	Task          // task.go: tasks on a database copy of their own (LiveSQLBench, EvalBench), their follow-up
}

// Judged reports whether the record counts towards rates (correct, incorrect or error).
func (r *Record) Judged() bool {
	return r.Verdict == Correct || r.Verdict == Incorrect || r.Verdict == Error
}
