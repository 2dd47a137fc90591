package predict

import (
	"bytes"
	"encoding/json"
)

// recordFields are keys that only NL2SQLBench records have. A one-object JSONL records
// file whose values happen to be strings is told from a BIRD file by them.
var recordFields = []string{"node_type", "PREDICTED_SQL", "question_id", "db_id", "question"}

// Detect names the format of a prediction file's content (path is only for messages):
//   - one JSON object whose values are all strings (or null): "bird";
//   - a JSON array, or a stream of JSON objects (JSONL): "records";
//   - anything else: "spider" (one SQL per line).
//
// Content that starts with '{' or '[' but is not valid JSON is an error naming the
// line, not Spider text: no SQL starts with a brace, and a broken BIRD file read as
// text would only produce a baffling count mismatch.
func Detect(path string, data []byte) (string, error) {
	start := skipSpace(data, 0)
	if start >= int64(len(data)) {
		return FormatSpider, nil
	}
	switch data[start] {
	case '[':
		return FormatRecords, nil
	case '{':
	default:
		return FormatSpider, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return "", jsonError(path, data, start, err)
	}
	if skipSpace(data, start+dec.InputOffset()) < int64(len(data)) {
		return FormatRecords, nil // several values: JSONL
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(first, &obj); err != nil {
		return "", jsonError(path, data, start, err)
	}
	for _, f := range recordFields {
		if _, ok := obj[f]; ok {
			return FormatRecords, nil
		}
	}
	for _, v := range obj {
		if !isStringOrNull(v) {
			return FormatRecords, nil
		}
	}
	return FormatBIRD, nil
}

func isStringOrNull(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && (v[0] == '"' || bytes.Equal(v, []byte("null")))
}
