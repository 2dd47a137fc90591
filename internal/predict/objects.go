package predict

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
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
	return src.objects(ic, f, nil, nil)
}

// firstDup is the first object of a file with a repeated top-level key, as the check
// pass of eachRecord finds it.
type firstDup struct {
	index int // the object's index; -1: none
	key   string
}

// checkedObject decodes a JSON value into its first byte and, for an object, notes a
// repeated top-level key: UnmarshalJSON gets the value inside the decoder's buffer, so
// nothing is copied.
type checkedObject struct {
	kind  firstByte
	dup   bool
	dupOf string
}

func (c *checkedObject) UnmarshalJSON(v []byte) error {
	if len(v) > 0 {
		c.kind = firstByte(v[0])
	}
	if c.kind == '{' {
		c.dupOf, c.dup = jsonscan.DuplicateKey(v)
	}
	return nil
}

// eachRecord is eachObject for a reader that decodes each object straight from the
// file's decoder into its own value: an object is never also held as raw bytes (a
// 16 MiB record was in memory twice while it was decoded: the decoder's buffer and the
// copy). It runs the check pass itself, which also finds the first object with a
// repeated top-level key (the reader reports it where it reached that object, after the
// object's own decoding errors, as when it looked at the raw copy). f gets each object's
// index and line and decode, which decodes the object into v and must be called once;
// decode's error is the decoder's, or a *streamFault for a fault of the file (a syntax
// error or a read error: the file changed under the reader), already worded.
func (src *source) eachRecord(ic itemCap, f func(n, line int, dup firstDup, decode func(v any) error) error) error {
	dup := firstDup{index: -1}
	if err := src.objects(ic, nil, &dup, nil); err != nil {
		return err
	}
	return src.objects(ic, nil, nil, func(n, line int, decode func(v any) error) error { return f(n, line, dup, decode) })
}

// streamFault is a fault of the file met while decoding a record in eachRecord's second
// pass, worded as the check pass words it.
type streamFault struct{ err error }

func (e *streamFault) Error() string { return e.err.Error() }
func (e *streamFault) Unwrap() error { return e.err }

// objects is eachObject (f), eachRecord's check pass (dup non-nil, f and direct nil) or
// its second pass (direct).
func (src *source) objects(ic itemCap, f func(object) error, dup *firstDup, direct func(n, line int, decode func(v any) error) error) error {
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
		if direct != nil {
			// The check pass has seen every object: only the record's own errors are
			// left, besides a file that changed since.
			decode := func(v any) error {
				err := dec.Decode(v)
				var se *json.SyntaxError
				if err != nil && (errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)) {
					return &streamFault{src.jsonError(0, err)}
				}
				return err
			}
			if err := direct(n, line, decode); err != nil {
				return err
			}
			continue
		}
		var raw json.RawMessage
		var kind firstByte
		var err error
		switch {
		case dup != nil:
			var c checkedObject
			if err = dec.Decode(&c); err == nil {
				kind = c.kind
				if c.dup && dup.index < 0 {
					*dup = firstDup{index: n, key: c.dupOf}
				}
			}
		case f == nil:
			err = dec.Decode(&kind) // checked, not copied
		default:
			if err = dec.Decode(&raw); err == nil && len(raw) > 0 {
				kind = firstByte(raw[0])
			}
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
