package collect

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExtractSQLFromAnswer(t *testing.T) {
	tests := []struct{ in, want string }{
		{"```sql\nSELECT 1;\n```", "SELECT 1"},
		{"Here it is:\n```\nSELECT a FROM t\n```\nok", "SELECT a FROM t"},
		{"The query is\nSELECT a\nFROM t; -- done", "SELECT a\nFROM t"},
		{"  WITH x AS (SELECT 1) SELECT * FROM x  ", "WITH x AS (SELECT 1) SELECT * FROM x"},
		{"no sql here", "no sql here"},
	}
	for _, tt := range tests {
		if got := extractSQL(tt.in); got != tt.want {
			t.Errorf("extractSQL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExtractSchemaJSON(t *testing.T) {
	s := shopSchema()
	got, ok := extractSchemaJSON("Reason...\n```json\n{\"customers\": [\"NAME\", \"ghost\"], \"nope\": [\"x\"], \"orders\": []}\n```", s)
	want := map[string][]string{"Customers": {"Name"}, "orders": {}}
	if !ok || !cmp.Equal(got, want) {
		t.Errorf("got %v %v, want %v", got, ok, want)
	}
	if _, ok := extractSchemaJSON("no json", s); ok {
		t.Error("no JSON read as JSON")
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct{ name, yaml, msg string }{
		{"no model", "llm: {}\n", "llm.model"},
		{"unknown key", "llm: {model: m, modle: x}\n", "modle"},
		{"bad strategy", "llm: {model: m}\npipeline: {schema_selection: {strategy: magic}}\n", "magic"},
		{"vote needs samples", "llm: {model: m}\npipeline: {query_revision: {strategy: self_consistency}}\n", "self_consistency"},
		{"zero_shot n", "llm: {model: m}\npipeline: {candidate_generation: {strategy: zero_shot, n: 3}}\n", "sampled"},
		{"bad duration", "llm: {model: m, timeout: soon}\n", "duration"},
		// A matrix dry run printed a cost of +Inf (and NaN) for these.
		{"price not a number", "llm: {model: m}\npricing: {input: .nan}\n", "not a number"},
		{"price infinite", "llm: {model: m}\npricing: {output: .inf}\n", "not a number"},
		{"price absurd", "llm: {model: m}\npricing: {input: 1e308}\n", "over"},
		{"cache share not a number", "llm: {model: m}\npricing: {input: 1, cache_hit_share: .nan}\n", "cache_hit_share"},
	}
	for _, tt := range tests {
		_, err := ParseConfig([]byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: err = %v, want it to name %q", tt.name, err, tt.msg)
		}
	}
	c, err := ParseConfig([]byte("llm: {model: m}\npipeline: {candidate_generation: {strategy: sampled}, query_revision: {strategy: self_consistency}}\n"))
	if err != nil || c.Pipeline.CandidateGeneration.N != defaultSamples || c.LLM.APIKeyEnv != DefaultAPIKeyEnv {
		t.Errorf("defaults: %+v %v", c, err)
	}
}

func TestExampleConfig(t *testing.T) {
	c, err := LoadConfig("../../docs/pipeline.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.LLM.Model != "gpt-4o-mini" || c.Pricing == nil || c.Pipeline.SchemaSelection.Strategy != SchemaFull {
		t.Errorf("%+v", c)
	}
	if _, err := loadPrompts(c); err != nil {
		t.Error(err)
	}
}
