package dataset

import (
	"bytes"
	"encoding/json"
)

// A fast path for reading a question file's array of objects. Spider's dev.json (3.6 MB,
// mostly the parse trees nobody here reads) costs encoding/json three passes per object
// (Decode into a RawMessage, Unmarshal into a map, the validity check), a large part of a
// run with EX alone (docs/performance.md). arrayObjectsFast validates the file once
// (json.Valid), then splits it with a scanner that relies on that validity: each
// object's top-level keys and the raw bytes of their values, without decoding nested
// values. Anything it does not handle (a key with an escape, a repeated key, a value
// that is not an object) makes it give up, and arrayObjects reads the file the slow way,
// which names the problem exactly as before.

// arrayObjectsFast reads a JSON array of objects as arrayObjects does; ok is false when
// the slow path must decide (invalid JSON included).
func arrayObjectsFast(data []byte) (objs []object, ok bool) {
	if !json.Valid(data) {
		return nil, false
	}
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '[' {
		return nil, false
	}
	i++
	line, counted := 1, 0
	for {
		i = skipWS(data, i)
		switch {
		case i >= len(data):
			return nil, false
		case data[i] == ']':
			return objs, true
		case data[i] == ',':
			i++
			continue
		case data[i] != '{':
			return nil, false
		}
		line += bytes.Count(data[counted:i], []byte{'\n'})
		counted = i
		o, end, ok := scanObject(data, i)
		if !ok {
			return nil, false
		}
		o.line = line
		objs = append(objs, o)
		i = end
	}
}

// scanObject splits the valid JSON object at data[i] ('{') into its keys and raw values
// and returns the offset after it.
func scanObject(data []byte, i int) (object, int, bool) {
	o := object{fields: make(map[string]json.RawMessage, 8)}
	i++
	for {
		i = skipWS(data, i)
		if i >= len(data) {
			return o, i, false
		}
		switch data[i] {
		case '}':
			return o, i + 1, true
		case ',':
			i++
			continue
		case '"':
		default:
			return o, i, false
		}
		end, escaped := stringEnd(data, i)
		if escaped {
			return o, i, false // a key written with escapes: the slow path decodes it
		}
		key := string(data[i+1 : end-1])
		i = skipWS(data, end)
		if i >= len(data) || data[i] != ':' {
			return o, i, false
		}
		vs := skipWS(data, i+1)
		ve := valueEnd(data, vs)
		if _, dup := o.fields[key]; dup || ve <= vs {
			return o, i, false // a repeated key: the slow path names it
		}
		o.fields[key] = json.RawMessage(data[vs:ve:ve])
		i = ve
	}
}

// stringEnd is the offset after the string starting at data[i] ('"'), and whether it
// holds an escape.
func stringEnd(data []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return len(data), escaped
}

// valueEnd is the offset after the valid JSON value starting at data[i].
func valueEnd(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		end, _ := stringEnd(data, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, _ := stringEnd(data, j)
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(data[j])) {
		j++
	}
	return j
}

func skipWS(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// plainString is the value of a JSON string without escapes (raw from a valid file);
// ok is false for anything else, which json.Unmarshal then reads.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw[1:len(raw)-1], '\\') >= 0 {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}
