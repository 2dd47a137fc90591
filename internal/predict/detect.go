package predict

import (
	"bytes"
	"encoding/json"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

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
	// The first value is checked, not decoded: a BIRD file is one object of a million
	// members, and a map of them took half a gigabyte. Its members are then scanned.
	end := int64(jsonscan.ValueEnd(data, int(start)))
	first := data[start:end]
	if !json.Valid(first) {
		// Only a decoder names the error: it reads (and buffers) the value.
		dec := json.NewDecoder(bytes.NewReader(data[start:]))
		if err := dec.Decode(new(skipValue)); err != nil {
			return "", jsonError(path, data, start, err)
		}
		end = start + dec.InputOffset()
		first = data[start:end]
	}
	record, indexKeys, allStrings, keys := false, true, true, 0
	jsonscan.Members(first, func(key, value []byte) bool {
		keys++
		record = record || isRecordField(key)
		indexKeys = indexKeys && isIndex(key)
		allStrings = allStrings && isStringOrNull(value)
		return !record
	})
	switch {
	case record:
		return FormatRecords, nil
	case indexKeys && keys > 0:
		// Keys that are all question indexes make a BIRD file even when a value is not
		// a string or more data follows: the BIRD reader then names the faulty key or
		// line, where the records reader could only say that a record has no
		// question_id.
		return FormatBIRD, nil
	case skipSpace(data, end) < int64(len(data)):
		return FormatRecords, nil // several values: JSONL
	case !allStrings:
		return FormatRecords, nil
	}
	return FormatBIRD, nil
}

// skipValue decodes any JSON value into nothing: the decoder checks it, nothing is copied.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// isRecordField reports whether key is one that only NL2SQLBench records have: a
// one-object JSONL records file whose values happen to be strings is told from a BIRD
// file by them. The switch converts no bytes (a million-member object is a million keys).
func isRecordField(key []byte) bool {
	switch string(key) {
	case "node_type", "PREDICTED_SQL", "question_id", "db_id", "question":
		return true
	}
	return false
}

// isIndex is parseIndex's answer, without allocating for a short key of digits.
func isIndex(key []byte) bool {
	if len(key) == 0 || len(key) > 18 {
		_, ok := parseIndex(string(key))
		return ok
	}
	for _, c := range key {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isStringOrNull(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && (v[0] == '"' || bytes.Equal(v, []byte("null")))
}
