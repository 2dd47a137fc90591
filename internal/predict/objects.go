package predict

import (
	"encoding/json"
	"fmt"
)

// Cutting a records file into its top-level objects, with the line each starts on.

// object is one top-level JSON object of a records file and the line it starts on.
type object struct {
	raw  json.RawMessage
	line int
}

// firstByte decodes a JSON value into its first byte: the decoder checks the value,
// nothing is copied.
type firstByte byte

func (b *firstByte) UnmarshalJSON(v []byte) error {
	if len(v) > 0 {
		*b = firstByte(v[0])
	}
	return nil
}

// eachObject reads a JSON array of objects, or a stream of objects (JSONL), and calls f
// with each object and its starting line, one at a time: an object is held only until f
// returns. Blank lines between objects are fine. With f nil it only checks the file
// (JSON, objects, the item bound), holding nothing: readers run that pass first, so that
// a fault anywhere in the file is reported before any record's own, as when the file was
// cut into objects before they were read.
func (src *source) eachObject(ic itemCap, f func(object) error) error {
	path := src.path
	dec := json.NewDecoder(src.reader(0))
	lc := newLineCounter(src)
	start := src.skipSpace(0)
	array := false
	if start < src.size {
		var c [1]byte
		if _, err := src.ra.ReadAt(c[:], src.base+start); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		array = c[0] == '['
	}
	if array {
		if _, err := dec.Token(); err != nil {
			return src.jsonError(0, err)
		}
	}
	for n := 0; ; n++ {
		if array && !dec.More() {
			break
		}
		at := src.skipSpace(dec.InputOffset())
		if !array && at >= src.size {
			break
		}
		line := lc.at(at)
		if err := ic.check(path, line, n, "records"); err != nil {
			return err
		}
		var raw json.RawMessage
		var kind firstByte
		var err error
		if f == nil {
			err = dec.Decode(&kind) // checked, not copied
		} else if err = dec.Decode(&raw); err == nil && len(raw) > 0 {
			kind = firstByte(raw[0])
		}
		if err != nil {
			return src.jsonError(0, err)
		}
		if kind != '{' {
			return fmt.Errorf("%s:%d: element %d is not a JSON object: %w", path, line, n, ErrMalformed)
		}
		if f == nil {
			continue
		}
		if err := f(object{raw: raw, line: line}); err != nil {
			return err
		}
	}
	if array {
		if _, err := dec.Token(); err != nil { // the closing bracket
			return src.jsonError(0, err)
		}
		if at := src.skipSpace(dec.InputOffset()); at < src.size {
			return fmt.Errorf("%s:%d: unexpected data after the JSON array: %w", path, lc.at(at), ErrMalformed)
		}
	}
	return nil
}
