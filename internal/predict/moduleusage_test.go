package predict

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestModuleUsage(t *testing.T) {
	nodes := `{"question_id": 1, "node_type": "schema_selection", "token_cost": 100, "llm_calls": 1}
{"question_id": 1.0, "node_type": "candidate_generation", "prompt_tokens": 300, "completion_tokens": 50, "latency_ms": 700}
{"question_id": "1", "node_type": "candidate_generation", "total_tokens": 500, "call_llm_times": 2, "latency_ms": 20}
{"question_id": 2, "node_type": "schema_extraction", "token_cost": 5}
`
	tests := []struct {
		name, content string
		want          map[string]map[string]record.Usage
		ok            bool
	}{
		{"nodes by question_id; two candidate nodes add up; older spellings map", nodes,
			map[string]map[string]record.Usage{
				"1": {
					NodeSchemaSelection: {TotalTokens: 100, LLMCalls: 1},
					// 300+50 (prompt+completion) and 500; calls 0 + 2; latency 700 + 20 ms.
					NodeCandidateGeneration: {PromptTokens: 300, CompletionTokens: 50, TotalTokens: 850, LLMCalls: 2, LatencyMS: 720},
				},
				"2": {NodeSchemaSelection: {TotalTokens: 5}},
			}, true},
		{"keyed by question text without question_id, as a JSON array",
			`[{"question": " q two ", "node_type": "revision", "token_cost": 40, "llm_calls": 1}]`,
			map[string]map[string]record.Usage{"q two": {NodeQueryRevision: {TotalTokens: 40, LLMCalls: 1}}}, true},
		{"flat records have no modules", `{"question_id": 1, "PREDICTED_SQL": "SELECT 1", "total_tokens": 9}`, nil, false},
		{"BIRD file", `{"0": "SELECT 1\t----- bird -----\tdb"}`, nil, false},
		{"Spider text", "SELECT 1\n", nil, false},
		{"malformed: the prediction reader reports it", `{"question_id": 1, "node_type": "schema_selection", "token_cost": -1}`, nil, false},
		{"unknown node type", `{"question_id": 1, "node_type": "ranking", "token_cost": 1}`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := ModuleUsage(writeFile(t, "sys.jsonl", tt.content))
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v", ok, tt.ok)
			}
			if !tt.ok {
				return
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	if _, _, err := ModuleUsage(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("absent file: no error")
	}
}
