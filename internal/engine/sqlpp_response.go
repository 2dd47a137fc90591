package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Reading the Query Service's response: the results streamed document by document,
// flattened into rows, with the row and byte caps applied as they are read.

// sqlppError is one entry of the response's "errors".
type sqlppError struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

// readSQLPPResponse streams the response object: "results" element by element, then
// "errors" and "status" (which the service writes after the results). Each document is
// flattened as it is read and kept only as its (column, value) cells, so the row cap
// bounds memory; rows are laid out at the end, when the full column set is known.
func readSQLPPResponse(r io.Reader, maxRows int, maxBytes int64) (*Result, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	var columns []string
	colIdx := map[string]int{}
	var docs []sqlppDoc
	raw := false
	var errs []sqlppError
	status := ""
	var size int64
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("read sql++ response: %w", err)
		}
		key, _ := tok.(string)
		switch key {
		case "results":
			if err := expectDelim(dec, '['); err != nil {
				return nil, err
			}
			for dec.More() {
				if maxRows > 0 && len(docs) >= maxRows {
					return nil, fmt.Errorf("%w (%d rows)", ErrRowLimit, maxRows)
				}
				fields, rawVal, isObj, err := readDoc(dec)
				if err != nil {
					return nil, err
				}
				doc := sqlppDoc{raw: rawVal, isObj: isObj}
				if !isObj {
					raw = true
					size += resultBytes(rawVal)
				}
				for _, f := range fields {
					size += resultBytes(f.v)
				}
				if maxBytes > 0 && size > maxBytes {
					return nil, byteLimitError(maxBytes)
				}
				for _, f := range fields {
					c, ok := colIdx[f.name]
					if !ok {
						c = len(columns)
						colIdx[f.name] = c
						columns = append(columns, f.name)
					}
					doc.cells = append(doc.cells, sqlppCell{col: c, v: f.v})
				}
				docs = append(docs, doc)
			}
			if _, err := dec.Token(); err != nil { // ]
				return nil, fmt.Errorf("read sql++ results: %w", err)
			}
		case "errors":
			if err := dec.Decode(&errs); err != nil {
				return nil, fmt.Errorf("read sql++ errors: %w", err)
			}
		case "status":
			if err := dec.Decode(&status); err != nil {
				return nil, fmt.Errorf("read sql++ status: %w", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("read sql++ response field %q: %w", key, err)
			}
		}
	}
	if len(errs) > 0 || (status != "" && status != "success") {
		return nil, sqlppFailure(status, errs)
	}
	// The documents' cells are laid out as rows only now that the full column set is
	// known; the row and byte caps bounded them while they were read.
	if raw {
		b := NewResultBuilder([]string{"$1"})
		for _, doc := range docs {
			b.AppendValue(doc.rawValue(columns))
			if err := b.EndRow(); err != nil {
				return nil, err
			}
		}
		return b.Result(), nil
	}
	b := NewResultBuilder(columns)
	// set[c] == i+1 when document i has column c; the rest are MISSING.
	set := make([]int, len(columns))
	row := make([]any, len(columns))
	for i, doc := range docs {
		clear(row)
		for _, c := range doc.cells {
			row[c.col] = c.v // a key repeated after flattening: the last value wins
			set[c.col] = i + 1
		}
		for c, v := range row {
			if set[c] != i+1 {
				b.AppendMissing()
			} else {
				b.AppendValue(v)
			}
		}
		if err := b.EndRow(); err != nil {
			return nil, err
		}
	}
	return b.Result(), nil
}

// sqlppDoc is one result, flattened: its cells, or (for a SELECT RAW scalar) its value.
type sqlppDoc struct {
	cells []sqlppCell
	raw   any
	isObj bool
}

type sqlppCell struct {
	col int
	v   any
}

type sqlppField struct {
	name string
	v    any
}

// rawValue is the document's single value in a RAW result. An object among scalars (a
// RAW expression that is an object for some documents only; rare) becomes the JSON text
// of its flattened fields, since the nested form is not kept.
func (d sqlppDoc) rawValue(cols []string) any {
	if !d.isObj {
		return d.raw
	}
	m := make(map[string]any, len(d.cells))
	for _, c := range d.cells {
		m[cols[c.col]] = c.v
	}
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Sprint(m)
	}
	return string(b)
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("read sql++ response: %w", err)
	}
	if tok != d {
		return fmt.Errorf("read sql++ response: got %v, want %v", tok, d)
	}
	return nil
}

// readDoc reads one result: an object's flattened fields in order, or a raw value.
func readDoc(dec *json.Decoder) ([]sqlppField, any, bool, error) {
	var rawMsg json.RawMessage
	if err := dec.Decode(&rawMsg); err != nil {
		return nil, nil, false, fmt.Errorf("read sql++ result: %w", err)
	}
	trim := bytes.TrimSpace(rawMsg)
	if len(trim) == 0 || trim[0] != '{' {
		v, err := decodeValue(trim)
		if err != nil {
			return nil, nil, false, fmt.Errorf("read sql++ result: %w", err)
		}
		return nil, sqlppValue(v), false, nil
	}
	fields, err := flattenObject(trim, "", nil)
	if err != nil {
		return nil, nil, false, fmt.Errorf("read sql++ result: %w", err)
	}
	return fields, nil, true, nil
}

// flattenObject appends the fields of the JSON object obj to out, nested objects
// recursively under dotted names ({"a":{"b":1}} is a.b). An empty nested object is kept
// as one field whose value is its text "{}", so the field is not mistaken for MISSING.
// Arrays are not flattened: their elements have no names, and their length varies.
func flattenObject(obj []byte, prefix string, out []sqlppField) ([]sqlppField, error) {
	d := json.NewDecoder(bytes.NewReader(obj))
	d.UseNumber()
	if _, err := d.Token(); err != nil { // {
		return nil, err
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		var msg json.RawMessage
		if err := d.Decode(&msg); err != nil {
			return nil, fmt.Errorf("field %q: %w", prefix+k, err)
		}
		msg = bytes.TrimSpace(msg)
		if len(msg) > 0 && msg[0] == '{' {
			n := len(out)
			if out, err = flattenObject(msg, prefix+k+".", out); err != nil {
				return nil, err
			}
			if len(out) == n {
				out = append(out, sqlppField{name: prefix + k, v: "{}"})
			}
			continue
		}
		v, err := decodeValue(msg)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", prefix+k, err)
		}
		out = append(out, sqlppField{name: prefix + k, v: sqlppValue(v)})
	}
	return out, nil
}

func decodeValue(b []byte) (any, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// sqlppValue maps a decoded JSON value to the Result types.
func sqlppValue(v any) any {
	switch x := v.(type) {
	case nil, string:
		return x
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	default: // arrays (and objects inside them): their JSON text, keys sorted
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
}
