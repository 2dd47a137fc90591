package record

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// jsonState is the working state of the generated record encoder (record_json_gen.go,
// written by internal/gencodec): the first error met, reusable key slices for sorting
// map keys, and an encoding/json Encoder for the values the generator leaves to
// encoding/json (interfaces holding other than plain scalars, types with their own
// MarshalJSON or MarshalText but for value-receiver MarshalJSON, []byte, ...).
//
// Its output must be byte for byte what json.Encoder with SetEscapeHTML(false) writes
// for a *Record, without the trailing newline; record_json_test.go checks that.
type jsonState struct {
	err     error
	keyBufs [][]string
	buf     bytes.Buffer
	enc     *json.Encoder
}

// fail keeps the first error; the caller discards the output when err is set.
func (e *jsonState) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// keys returns an empty slice to collect a map's keys in; putKeys gives it back.
func (e *jsonState) keys() []string {
	if n := len(e.keyBufs); n > 0 {
		ks := e.keyBufs[n-1]
		e.keyBufs = e.keyBufs[:n-1]
		return ks
	}
	return nil
}

func (e *jsonState) putKeys(ks []string) {
	clear(ks) // drop the strings so the slice keeps no record alive
	e.keyBufs = append(e.keyBufs, ks[:0])
}

// appendValue appends v as encoding/json encodes it (HTML characters not escaped),
// v being a value it would not see as addressable (a map value, an interface's
// content).
func (e *jsonState) appendValue(b []byte, v any) []byte {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		e.fail(err)
		return b
	}
	out := e.buf.Bytes()
	return append(b, out[:len(out)-1]...) // Encode ends the value with a newline
}

// appendAny appends an interface value: the plain scalars a result table holds
// directly, anything else through encoding/json.
func (e *jsonState) appendAny(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendJSONString(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case float64:
		return e.appendFloat(b, x, 64)
	case bool:
		return strconv.AppendBool(b, x)
	}
	return e.appendValue(b, v)
}

// appendFloat formats f as encoding/json does: like ES6 number-to-string (exponent
// form below 1e-6 and from 1e21 on, without a leading zero in the exponent), and an
// UnsupportedValueError for NaN and the infinities.
func (e *jsonState) appendFloat(b []byte, f float64, bits int) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		var v reflect.Value
		if bits == 32 {
			v = reflect.ValueOf(float32(f))
		} else {
			v = reflect.ValueOf(f)
		}
		e.fail(&json.UnsupportedValueError{Value: v, Str: strconv.FormatFloat(f, 'g', -1, bits)})
		return b
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// e-07 becomes e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// jsonPlain marks the ASCII bytes a JSON string holds as they are when HTML
// characters are not escaped: printable, not '"' and not '\\'.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes it with HTML escaping off:
// '"' and '\\' backslashed, \b \f \n \r \t by name, other control bytes as \u00XX,
// invalid UTF-8 as \ufffd, and U+2028 and U+2029 escaped (JSONP safety).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
