package collect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ModuleUsage reads an NL2SQLBench module-records file (JSONL or a JSON array) and returns
// each question's usage per module: question key (question_id, else the question text)
// -> module -> usage. Per node the token count is total_tokens, else token_cost, else
// prompt_tokens + completion_tokens, and the call count llm_calls, else call_llm_times
// (the rules the prediction reader uses for the end-to-end totals). schema_extraction
// counts as schema_selection and revision as query_revision. ok is false when the file
// holds no module nodes (another prediction format, or flat records): there is no
// per-module usage to report.
func ModuleUsage(path string) (usage map[string]map[string]record.Usage, ok bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("module usage: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return nil, false, nil
	}
	if trimmed[0] == '[' {
		if _, err := dec.Token(); err != nil {
			return nil, false, nil
		}
	}
	usage = map[string]map[string]record.Usage{}
	for dec.More() {
		var o map[string]any
		if err := dec.Decode(&o); err != nil {
			return nil, false, nil // not records: the prediction reader already said so
		}
		nt, _ := o["node_type"].(string)
		if nt == "" {
			continue
		}
		switch nt {
		case "schema_extraction":
			nt = NodeSchemaSelection
		case "revision":
			nt = NodeRevision
		}
		key := idText(o["question_id"])
		if key == "" {
			key, _ = o["question"].(string)
			key = strings.TrimSpace(key)
		}
		if key == "" {
			continue
		}
		u := nodeUsage(o)
		m := usage[key]
		if m == nil {
			m = map[string]record.Usage{}
			usage[key] = m
		}
		prev := m[nt]
		prev.PromptTokens += u.PromptTokens
		prev.CompletionTokens += u.CompletionTokens
		prev.TotalTokens += u.TotalTokens
		prev.LLMCalls += u.LLMCalls
		prev.LatencyMS += u.LatencyMS
		m[nt] = prev
		ok = true
	}
	return usage, ok, nil
}

func idText(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	}
	return ""
}

func num(o map[string]any, k string) (int, bool) {
	n, ok := o[k].(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil {
		f, ferr := n.Float64()
		if ferr != nil {
			return 0, false
		}
		i = int64(f)
	}
	return int(i), true
}

func nodeUsage(o map[string]any) record.Usage {
	var u record.Usage
	u.PromptTokens, _ = num(o, "prompt_tokens")
	u.CompletionTokens, _ = num(o, "completion_tokens")
	if t, ok := num(o, "total_tokens"); ok {
		u.TotalTokens = t
	} else if t, ok := num(o, "token_cost"); ok {
		u.TotalTokens = t
	} else {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	if c, ok := num(o, "llm_calls"); ok {
		u.LLMCalls = c
	} else {
		u.LLMCalls, _ = num(o, "call_llm_times")
	}
	lat, _ := num(o, "latency_ms")
	u.LatencyMS = int64(lat)
	return u
}
