// Package jsonscan holds the JSON facts every reader of a user's file needs for its
// messages: which line a decoding error points at, which key of an object repeats
// (encoding/json silently keeps the last of two equal keys), and which value is over a
// reader's cap (found by a scan, before decoding copies it); and an object's members
// (Members), scanned without a decoder, for readers of files of a million items. The
// dataset, prediction and schema readers share it so that each says the same thing the
// same way.
//
// To extend: add a pure function over the raw bytes, with a table test.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
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

// DuplicateKey returns the first top-level key of the JSON object raw that repeats. raw
// must be valid JSON (every caller has decoded it already): it is scanned once with no
// decoder and no copy of a key without escapes, because readers call it on every object
// of a file that may hold millions.
func DuplicateKey(raw []byte) (string, bool) {
	var keys [][]byte        // the keys so far, compared in place while there are few
	var many map[string]bool // past manyKeys keys
	var dup []byte
	Members(raw, func(key, _ []byte) bool {
		if seenKey(&keys, &many, key) {
			dup = key
		}
		return dup == nil
	})
	return string(dup), dup != nil
}

// Members calls f with each top-level member of the JSON object obj in order, its key
// (unescaped) and its value as written, until f returns false. obj must be valid JSON: it
// is scanned, not decoded, so that a reader can look at the keys of an object of a
// million members without building a map of them.
func Members(obj []byte, f func(key, value []byte) bool) {
	i := SkipSeparators(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	for i = SkipSeparators(obj, i+1); i < len(obj) && obj[i] == '"'; i = SkipSeparators(obj, i) {
		end := stringEnd(obj, i)
		key := obj[i+1 : min(end, len(obj))]
		// As a decoder reads it: escapes resolved, invalid UTF-8 replaced (so two keys
		// that differ only in invalid bytes are one key to encoding/json, and a repeat).
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			var s string
			if json.Unmarshal(obj[i:end+1], &s) != nil {
				return
			}
			key = []byte(s)
		}
		i = SkipSeparators(obj, end+1)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = SkipSeparators(obj, i+1)
		if i >= len(obj) {
			return
		}
		next := ValueEnd(obj, i)
		if !f(key, obj[i:next]) {
			return
		}
		i = next
	}
}

// ValueEnd is the offset just past the JSON value starting at data[i], found by a scan of
// brackets and strings, not decoded: when data[i:ValueEnd] is valid JSON (json.Valid
// says, allocating nothing), it is the value a decoder would read.
func ValueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return min(len(data), stringEnd(data, i)+1)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = stringEnd(data, i)
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(data)
	}
	for i < len(data) && bytes.IndexByte([]byte(",}] \t\r\n"), data[i]) < 0 {
		i++
	}
	return i
}

// manyKeys is how many keys DuplicateKey compares one by one before it uses a map.
const manyKeys = 16

// seenKey reports whether key was seen, and remembers it.
func seenKey(keys *[][]byte, many *map[string]bool, key []byte) bool {
	if *many != nil {
		if (*many)[string(key)] {
			return true
		}
		(*many)[string(key)] = true
		return false
	}
	for _, k := range *keys {
		if bytes.Equal(k, key) {
			return true
		}
	}
	*keys = append(*keys, key)
	if len(*keys) > manyKeys {
		*many = make(map[string]bool, 2*manyKeys)
		for _, k := range *keys {
			(*many)[string(k)] = true
		}
	}
	return false
}

// stringEnd is the offset of the quote closing the JSON string that opens at data[open]
// (len(data) when it is not closed).
func stringEnd(data []byte, open int) int {
	for j := open + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(data)
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
