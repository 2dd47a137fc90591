package predict

import (
	"encoding/json"
	"fmt"
)

// detect names the format of a prediction file:
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
// text would only produce a baffling count mismatch. A BIRD file is one object of a
// million members: its first value is read token by token, never held (a map of it took
// half a gigabyte).
func (s *source) detect() (string, error) {
	start := s.skipSpace(0)
	if start >= s.size {
		return FormatSpider, nil
	}
	var c [1]byte
	if _, err := s.ra.ReadAt(c[:], s.base+start); err != nil {
		return "", fmt.Errorf("%s: %w", s.path, err)
	}
	switch c[0] {
	case '[':
		return s.sniffArray(start)
	case '{':
	default:
		if err := s.sniffText(); err != nil {
			return "", err
		}
		return FormatSpider, nil
	}
	dec := json.NewDecoder(s.reader(start))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return "", s.valueError(start, err)
	}
	record, indexKeys, allStrings, keys := false, true, true, 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", s.valueError(start, err)
		}
		key, _ := tok.(string)
		keys++
		// The whole first value is read, as a decoder would: a fault in it is named here.
		record = record || isRecordField(key)
		_, ok := parseIndex(key)
		indexKeys = indexKeys && ok
		str, err := skipTokens(dec)
		if err != nil {
			return "", s.valueError(start, err)
		}
		allStrings = allStrings && str
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return "", s.valueError(start, err)
	}
	end := start + dec.InputOffset()
	switch {
	case record:
		return FormatRecords, nil
	case indexKeys && keys > 0:
		// Keys that are all question indexes make a BIRD file even when a value is not
		// a string or more data follows: the BIRD reader then names the faulty key or
		// line, where the records reader could only say that a record has no
		// question_id.
		return FormatBIRD, nil
	case s.skipSpace(end) < s.size:
		return FormatRecords, nil // several values: JSONL
	case !allStrings:
		return FormatRecords, nil
	}
	return FormatBIRD, nil
}

// skipTokens reads one JSON value token by token, holding no more than a token, and
// reports whether it was a string or null.
func skipTokens(dec *json.Decoder) (stringOrNull bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	switch tok.(type) {
	case string, nil:
		return true, nil
	case json.Delim:
	default:
		return false, nil
	}
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return false, err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return false, nil
}

// skipValue decodes any JSON value into nothing: the decoder checks it, nothing is copied.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// isRecordField reports whether key is one that only NL2SQLBench records have: a
// one-object JSONL records file whose values happen to be strings is told from a BIRD
// file by them. The switch converts no bytes (a million-member object is a million keys).
func isRecordField(key string) bool {
	switch key {
	case "node_type", "PREDICTED_SQL", "question_id", "db_id", "question":
		return true
	}
	return false
}
