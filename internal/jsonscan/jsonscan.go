// Package jsonscan holds the JSON facts every reader of a user's file needs for its
// messages: which line a decoding error points at, which key of an object repeats
// (encoding/json silently keeps the last of two equal keys), and which value is over a
// reader's cap (found by a scan, before decoding copies it). The dataset, prediction and
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

// FirstTooLong finds the first value of data longer than limit bytes, JSON string literals
// (between unescaped quotes; keys too) when json, else lines, and returns where it
// starts; ok when there is none. It looks no further than limit bytes past a value's start
// and copies nothing, so a reader can refuse a file holding one huge value before a
// decoder copies it several times.
func FirstTooLong(data []byte, limit int, json bool) (start int, ok bool) {
	window := func(from int) []byte { return data[from:min(len(data), from+limit+1)] }
	if !json {
		for i := 0; i < len(data); {
			k := bytes.IndexByte(window(i), '\n')
			if k < 0 {
				if len(data)-i > limit {
					return i, false
				}
				return 0, true
			}
			i += k + 1
		}
		return 0, true
	}
	for i := 0; i < len(data); {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return 0, true
		}
		open := i + q + 1
		j := open
		for { // to the closing quote: one after an even run of backslashes
			k := bytes.IndexByte(window(j)[:min(len(data)-j, open+limit+1-j)], '"')
			if k < 0 {
				if len(data)-open > limit {
					return open, false
				}
				return 0, true // an unclosed string: the decoder says so
			}
			j += k
			b := j
			for b > open && data[b-1] == '\\' {
				b--
			}
			if (j-b)%2 == 0 {
				break
			}
			j++
		}
		i = j + 1
	}
	return 0, true
}

// SkipSeparators returns the offset of the first byte at or after off that is neither
// JSON white space nor a comma (the separator between array elements): where a reader
// decoding one element after another finds the next one.
func SkipSeparators[T int | int64](data []byte, off T) T {
	for off < T(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		default:
			return off
		}
	}
	return off
}
