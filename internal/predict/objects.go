package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Cutting a records file into its top-level objects, with the line each starts on.

// object is one top-level JSON object of a records file and the line it starts on.
type object struct {
	raw  json.RawMessage
	line int
}

// splitObjects cuts a JSON array of objects, or a stream of objects (JSONL), into
// objects with their starting lines. Blank lines between objects are fine.
func splitObjects(path string, data []byte, ic itemCap) ([]object, error) {
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
		line := lc.at(at)
		if err := ic.check(path, line, len(objs), "records"); err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(path, data, 0, err)
		}
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
