package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// encodeLine writes one record as collect does (HTML characters as they are).
func encodeLine(tb testing.TB, r ModuleRecord) string {
	tb.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&r); err != nil {
		tb.Fatal(err)
	}
	return buf.String()
}

// The field names are a contract with other tools and old runs: these lines are what
// collect and the TA-SQL adapter wrote before the format had one Go type.
func TestModuleRecordEncoding(t *testing.T) {
	tests := []struct {
		name string
		rec  ModuleRecord
		want string
	}{
		{"collect revision node, every field",
			ModuleRecord{
				ModuleOutput: ModuleOutput{NodeType: NodeQueryRevision, QuestionID: "7", DBID: "shop", Question: "a < b?",
					SQL: OneSQL("SELECT a FROM t WHERE a < 'b&c'"), PromptTokens: CountOf(10), CompletionTokens: CountOf(5),
					TotalTokens: CountOf(15), TokenCost: CountOf(15), LLMCalls: CountOf(2), CallLLMTimes: CountOf(2), LatencyMS: CountOf(340)},
				ModuleDetails: ModuleDetails{Strategy: "execution_guided", CachedCalls: 1, RevisionRounds: 2,
					Feedback: []string{"it returned no rows."}, Votes: []int{2, 0}, Pass: 2},
			},
			`{"node_type":"query_revision","question_id":"7","db_id":"shop","question":"a < b?","SQL":"SELECT a FROM t WHERE a < 'b&c'",` +
				`"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"token_cost":15,"llm_calls":2,"call_llm_times":2,"latency_ms":340,` +
				`"strategy":"execution_guided","cached_calls":1,"revision_rounds":2,"feedback":["it returned no rows."],"votes":[2,0],"pass":2}` + "\n"},
		{"collect schema selection: zero usage is known, so written",
			ModuleRecord{
				ModuleOutput: ModuleOutput{NodeType: NodeSchemaSelection, QuestionID: "7", DBID: "shop", Question: "q",
					ExtractedSchema: map[string][]string{"t": {"a"}}, PromptTokens: CountOf(0), CompletionTokens: CountOf(0),
					TotalTokens: CountOf(0), TokenCost: CountOf(0), LLMCalls: CountOf(0), CallLLMTimes: CountOf(0), LatencyMS: CountOf(0)},
				ModuleDetails: ModuleDetails{Strategy: "full", SchemaSource: "fallback_full"},
			},
			`{"node_type":"schema_selection","question_id":"7","db_id":"shop","question":"q","extracted_schema":{"t":["a"]},` +
				`"prompt_tokens":0,"completion_tokens":0,"total_tokens":0,"token_cost":0,"llm_calls":0,"call_llm_times":0,"latency_ms":0,` +
				`"strategy":"full","schema_source":"fallback_full"}` + "\n"},
		{"candidates as a list, a missing database's empty SQL as a string",
			ModuleRecord{ModuleOutput: ModuleOutput{NodeType: NodeCandidateGeneration, QuestionID: "1", DBID: "d", Question: "q", SQL: SQLList([]string{"A"})}},
			`{"node_type":"candidate_generation","question_id":"1","db_id":"d","question":"q","SQL":["A"]}` + "\n"},
		{"empty SQL is written",
			ModuleRecord{ModuleOutput: ModuleOutput{NodeType: NodeCandidateGeneration, QuestionID: "1", DBID: "d", Question: "q", SQL: OneSQL("")}},
			`{"node_type":"candidate_generation","question_id":"1","db_id":"d","question":"q","SQL":""}` + "\n"},
		{"adapter node: unknown token count left out",
			ModuleRecord{
				ModuleOutput:  ModuleOutput{NodeType: NodeCandidateGeneration, QuestionID: "8", DBID: "d", Question: "q", SQL: OneSQL("SELECT 1"), LLMCalls: CountOf(2)},
				ModuleDetails: ModuleDetails{Source: "1_d_8_tmp_sql_00.json"},
			},
			`{"node_type":"candidate_generation","question_id":"8","db_id":"d","question":"q","SQL":"SELECT 1","llm_calls":2,"source":"1_d_8_tmp_sql_00.json"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encodeLine(t, tt.rec)
			if got != tt.want {
				t.Errorf("encoded\n got %s\nwant %s", got, tt.want)
			}
			var back ModuleRecord
			if err := json.Unmarshal([]byte(got), &back); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.rec, back); d != "" {
				t.Errorf("decoded (-want +got):\n%s", d)
			}
		})
	}
}

func TestModuleOutputDecoding(t *testing.T) {
	tests := []struct {
		name, in string
		want     ModuleOutput
		err      string // substring of fieldError's message; "" for success
	}{
		{"numeric id, integral float counts", `{"question_id": 12.0, "token_cost": 3e2, "llm_calls": 1}`,
			ModuleOutput{QuestionID: "12", TokenCost: CountOf(300), LLMCalls: CountOf(1)}, ""},
		{"string id trimmed, nulls unknown", `{"question_id": " q7 ", "total_tokens": null, "SQL": null, "node_type": null}`,
			ModuleOutput{QuestionID: "q7"}, ""},
		{"string, one-element list and empty list stay apart", `{"SQL": ["A"], "PREDICTED_SQL": []}`,
			ModuleOutput{SQL: SQLValue{Queries: []string{"A"}, List: true}, PredictedSQL: SQLValue{Queries: []string{}, List: true}}, ""},
		{"details ignored when reading outputs", `{"SQL": "A", "pass": "first", "votes": {"a": 1}, "strategy": 3}`,
			ModuleOutput{SQL: OneSQL("A")}, ""},
		{"negative count", `{"latency_ms": -5}`, ModuleOutput{}, "latency_ms: want an integer from 0 to 2^53 (9007199254740992), got -5"},
		{"fractional count", `{"prompt_tokens": 1.5}`, ModuleOutput{}, "prompt_tokens: want an integer from 0 to 2^53 (9007199254740992), got 1.5"},
		// Issue 45, failure 11: int64's max was refused as "want a non-negative integer".
		{"count at int64 max", `{"total_tokens": 9223372036854775807}`, ModuleOutput{}, "total_tokens: want an integer from 0 to 2^53 (9007199254740992), got 9223372036854775807"},
		{"count as a string", `{"llm_calls": "2"}`, ModuleOutput{}, `llm_calls: want an integer from 0 to 2^53 (9007199254740992), got "2"`},
		{"SQL object", `{"SQL": {"a": 1}}`, ModuleOutput{}, `SQL: want a string or an array of strings, got {"a": 1}`},
		{"SQL list of numbers", `{"PREDICTED_SQL": [1]}`, ModuleOutput{}, "PREDICTED_SQL: want a string or an array of strings, got [1]"},
		{"boolean id", `{"question_id": true}`, ModuleOutput{}, "question_id: want a string or a number, got true"},
		{"numeric db_id", `{"db_id": 5}`, ModuleOutput{}, "db_id: want a string, got a number"},
		{"schema with a bare column", `{"extracted_schema": {"t": "a"}}`, ModuleOutput{}, "extracted_schema: want an object of {table: [columns]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got ModuleOutput
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.err != "" {
				if err == nil || !strings.Contains(fieldError(err), tt.err) {
					t.Errorf("error %v (message %q), want one saying %q", err, fieldErrorOf(err), tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func fieldErrorOf(err error) string {
	if err == nil {
		return ""
	}
	return fieldError(err)
}

func TestModuleOutputUsageAndModule(t *testing.T) {
	tests := []struct {
		name   string
		in     ModuleOutput
		usage  record.Usage
		module string
		known  bool
	}{
		{"total_tokens wins over token_cost; llm_calls over call_llm_times",
			ModuleOutput{NodeType: NodeCandidateGeneration, TotalTokens: CountOf(9), TokenCost: CountOf(100), PromptTokens: CountOf(2),
				LLMCalls: CountOf(0), CallLLMTimes: CountOf(4), LatencyMS: CountOf(7)},
			record.Usage{PromptTokens: 2, TotalTokens: 9, LatencyMS: 7}, NodeCandidateGeneration, true},
		{"token_cost, then call_llm_times", ModuleOutput{NodeType: NodeSchemaExtraction, TokenCost: CountOf(100), CallLLMTimes: CountOf(4)},
			record.Usage{TotalTokens: 100, LLMCalls: 4}, NodeSchemaSelection, true},
		{"prompt + completion when no total", ModuleOutput{NodeType: NodeRevision, PromptTokens: CountOf(3), CompletionTokens: CountOf(4)},
			record.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}, NodeQueryRevision, true},
		{"flat record", ModuleOutput{}, record.Usage{}, "", true},
		{"unknown node type", ModuleOutput{NodeType: "ranking"}, record.Usage{}, "ranking", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.Usage(); got != tt.usage {
				t.Errorf("Usage = %+v, want %+v", got, tt.usage)
			}
			if m, ok := tt.in.Module(); m != tt.module || ok != tt.known {
				t.Errorf("Module = %q, %v; want %q, %v", m, ok, tt.module, tt.known)
			}
		})
	}
}

func TestSQLValueMarshalRejectsSeveralQueriesNotAList(t *testing.T) {
	_, err := json.Marshal(ModuleOutput{SQL: SQLValue{Queries: []string{"A", "B"}}})
	var me *json.MarshalerError
	if !errors.As(err, &me) {
		t.Errorf("err = %v, want a marshaler error", err)
	}
}
