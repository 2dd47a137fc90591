// Package jsonscan holds the JSON facts every reader of a user's file needs for its
// messages: which line a decoding error points at, and which key of an object repeats
// (encoding/json silently keeps the last of two equal keys). The dataset, prediction and
// schema readers share it so that each says the same thing the same way.
//
// To extend: add a pure function over the raw bytes, with a table test.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
)

// ErrorLine is the 1-based line of data a JSON decoding error points at: the offset of a
// syntax or type error, never past the last line with content (a truncated file's error
// is at its end).
func ErrorLine(data []byte, err error) int {
	end := len(bytes.TrimRight(data, " \t\r\n"))
	off := end
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = int(syn.Offset)
	case errors.As(err, &typ):
		off = int(typ.Offset)
	}
	off = max(0, min(off, end))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// DuplicateKey returns the first top-level key of the JSON object raw that repeats.
func DuplicateKey(raw []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // the opening brace
		return "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		key, _ := tok.(string)
		if seen[key] {
			return key, true
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false
		}
	}
	return "", false
}
