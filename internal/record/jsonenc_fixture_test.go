package record

import (
	"encoding/json"
	"reflect"
)

// The run-time helpers of generated code that only the generator's fixture
// (jsonfixture_gen_test.go) calls: Record's encoder (record_json_gen.go) has no field
// that needs them, so they are kept out of the build. When a type a Record holds comes
// to need one (a type with a pointer-receiver MarshalJSON or MarshalText, json.Number,
// []byte, a map with other keys than strings: appendAddr; a value-receiver MarshalJSON
// without AppendJSON: appendMarshaled), record_json_gen.go stops compiling until the
// helper moves into jsonenc.go.

// appendAddr appends *p as encoding/json encodes an addressable value of p's element
// type inside a record: pointer-receiver methods apply, and an error names the
// element type, not the pointer's. It encodes a one-element slice over *p (slice
// elements are addressable) and drops the brackets.
func (e *jsonState) appendAddr(b []byte, p any) []byte {
	rv := reflect.ValueOf(p)
	et := rv.Type().Elem()
	if et.Kind() == reflect.Uint8 {
		return e.appendValue(b, p) // a one-byte slice would be base64
	}
	n := len(b)
	b = e.appendValue(b, reflect.SliceAt(et, rv.UnsafePointer(), 1).Interface())
	if e.err != nil || len(b) < n+2 {
		return b[:n]
	}
	copy(b[n:], b[n+1:len(b)-1])
	return b[:len(b)-2]
}

// appendMarshaled appends the output of a MarshalJSON method as encoding/json does:
// compacted (which also validates it), and an error naming the type when the method
// failed or wrote invalid JSON.
func (e *jsonState) appendMarshaled(b []byte, out []byte, err error, t func() reflect.Type) []byte {
	if err == nil {
		e.buf.Reset()
		if err = json.Compact(&e.buf, out); err == nil {
			return append(b, e.buf.Bytes()...)
		}
	}
	e.fail(&json.MarshalerError{Type: t(), Err: err})
	return b
}
