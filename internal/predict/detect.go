package predict

import (
	"bytes"
	"encoding/json"
)

// recordFields are keys that only NL2SQLBench records have. A one-object JSONL records
// file whose values happen to be strings is told from a BIRD file by them.
var recordFields = []string{"node_type", "PREDICTED_SQL", "question_id", "db_id", "question"}

// Detect names the format of a prediction file's content (path is only for messages):
//   - one JSON object whose values are all strings (or null), or a first object whose
//     keys are all question indexes ("0", "1", ...): "bird";
//   - a JSON array of strings: "list" (element i answers question i);
//   - another JSON array, or a stream of JSON objects (JSONL): "records";
//   - anything else: "spider" (one SQL per line).
//
// Files that are no prediction format are refused with ErrWrongFormat and a hint: a
// CSV/TSV table, a Spider or BIRD question file (wrongformat.go).
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
		return sniffArray(path, data, start)
	case '{':
	default:
		if err := sniffText(path, data); err != nil {
			return "", err
		}
		return FormatSpider, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return "", jsonError(path, data, start, err)
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
	if birdKeys(obj) {
		// Keys that are all question indexes make a BIRD file even when a value is not
		// a string or more data follows: the BIRD reader then names the faulty key or
		// line, where the records reader could only say that a record has no
		// question_id.
		return FormatBIRD, nil
	}
	if skipSpace(data, start+dec.InputOffset()) < int64(len(data)) {
		return FormatRecords, nil // several values: JSONL
	}
	for _, v := range obj {
		if !isStringOrNull(v) {
			return FormatRecords, nil
		}
	}
	return FormatBIRD, nil
}

// birdKeys reports whether obj has keys and every one is a question index.
func birdKeys(obj map[string]json.RawMessage) bool {
	for k := range obj {
		if _, ok := parseIndex(k); !ok {
			return false
		}
	}
	return len(obj) > 0
}

func isStringOrNull(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && (v[0] == '"' || bytes.Equal(v, []byte("null")))
}
