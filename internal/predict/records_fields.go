package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Field decoding for records.go: values that may be a string or an array, ids that
// may be strings or numbers, usage counts, and cutting a file into objects.

// optInt is a count that may be absent.
type optInt struct {
	v   int
	set bool
}

// parseCount reads a count given as a JSON number; integral floats (12.0) are fine,
// absent or null is unset.
func parseCount(name string, raw json.RawMessage) (optInt, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return optInt{}, nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > 1<<53 {
		return optInt{}, fmt.Errorf("%s: want a non-negative integer, got %s: %w", name, raw, ErrMalformed)
	}
	return optInt{v: int(f), set: true}, nil
}

// counts are a record's usage numbers, parsed.
type counts struct {
	tokenCost, llmCalls, callLLMTimes, prompt, completion, total, latency optInt
}

func parseCounts(r *rawRecord) (counts, error) {
	var c counts
	fields := []struct {
		name string
		raw  json.RawMessage
		dst  *optInt
	}{
		{"token_cost", r.TokenCost, &c.tokenCost},
		{"llm_calls", r.LLMCalls, &c.llmCalls},
		{"call_llm_times", r.CallLLMTimes, &c.callLLMTimes},
		{"prompt_tokens", r.PromptTokens, &c.prompt},
		{"completion_tokens", r.CompletionTokens, &c.completion},
		{"total_tokens", r.TotalTokens, &c.total},
		{"latency_ms", r.LatencyMS, &c.latency},
	}
	for _, f := range fields {
		v, err := parseCount(f.name, f.raw)
		if err != nil {
			return c, err
		}
		*f.dst = v
	}
	return c, nil
}

// stringOrList decodes a JSON string or array of strings; absent or null gives nil.
func stringOrList(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '[' {
		var xs []string
		if err := json.Unmarshal(raw, &xs); err != nil {
			return nil, fmt.Errorf("want a string or an array of strings")
		}
		if xs == nil {
			xs = []string{}
		}
		return xs, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("want a string or an array of strings")
	}
	return []string{s}, nil
}

// formatID renders a question_id given as a string or a number; numbers are written
// without decimals (12.0 -> "12") so they compare equal to the dataset's ids.
func formatID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return strings.TrimSpace(s), nil
	}
	return formatNumberID(string(raw))
}

// formatNumberID renders a numeric question id as text without decimals: "12",
// "12.0" and "1.2e1" all give "12". Non-integral numbers keep their JSON text.
func formatNumberID(num string) (string, error) {
	if _, err := strconv.ParseInt(num, 10, 64); err == nil {
		return num, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return "", fmt.Errorf("want a string or a number, got %s", num)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return num, nil
}

// object is one top-level JSON object of a records file and the line it starts on.
type object struct {
	raw  json.RawMessage
	line int
}

// splitObjects cuts a JSON array of objects, or a stream of objects (JSONL), into
// objects with their starting lines. Blank lines between objects are fine.
func splitObjects(path string, data []byte) ([]object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lc := newLineCounter(data)
	start := skipSpace(data, 0)
	array := start < int64(len(data)) && data[start] == '['
	if array {
		if _, err := dec.Token(); err != nil {
			return nil, jsonError(path, data, 0, err)
		}
	}
	var objs []object
	for {
		if array && !dec.More() {
			break
		}
		at := skipSpace(data, dec.InputOffset())
		if !array && at >= int64(len(data)) {
			break
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(path, data, 0, err)
		}
		line := lc.at(at)
		if len(raw) == 0 || raw[0] != '{' {
			return nil, fmt.Errorf("%s:%d: element %d is not a JSON object: %w", path, line, len(objs), ErrMalformed)
		}
		objs = append(objs, object{raw: raw, line: line})
	}
	if array {
		if _, err := dec.Token(); err != nil { // the closing bracket
			return nil, jsonError(path, data, 0, err)
		}
		if at := skipSpace(data, dec.InputOffset()); at < int64(len(data)) {
			return nil, fmt.Errorf("%s:%d: unexpected data after the JSON array: %w", path, lc.at(at), ErrMalformed)
		}
	}
	return objs, nil
}
