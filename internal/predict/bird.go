package predict

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// birdSeparator sits between the SQL and the db_id in a BIRD prediction value.
const birdSeparator = "\t----- bird -----\t"

// readBIRD reads BIRD prediction JSON: {"0": "SQL\t----- bird -----\tdb_id", ...}.
//
// The object is read token by token because encoding/json silently keeps the last of
// two equal keys; a duplicate key is an error naming both lines. Keys must be
// non-negative integers (key i answers question i); whether they are in range is
// checked when pairing. A null value is an empty prediction, as BIRD's script treats
// it (it substitutes a blank query).
func readBIRD(src *source, ic itemCap) (*Set, error) {
	path := src.path
	dec, lc, err := src.openJSON('{', "BIRD predictions must be one JSON object of strings")
	if err != nil {
		return nil, err
	}
	set := &Set{Path: path, Format: FormatBIRD}
	seen := map[int]int{} // question index -> line of its key
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, src.jsonError(0, err)
		}
		key, _ := tok.(string) // inside an object the decoder only yields string keys
		line := lc.at(dec.InputOffset())
		if err := ic.check(path, line, len(set.Items), "keys"); err != nil {
			return nil, err
		}
		value, isString, err := src.stringValue(dec)
		if err != nil {
			return nil, err
		}
		idx, ok := parseIndex(key)
		if !ok {
			return nil, fmt.Errorf("%s:%d: key %q is not a non-negative integer (BIRD keys are question indexes): %w",
				path, line, key, ErrMalformed)
		}
		if prev, dup := seen[idx]; dup {
			return nil, fmt.Errorf("%s:%d: key %q repeats question %d already given at line %d: %w",
				path, line, key, idx, prev, ErrDuplicate)
		}
		seen[idx] = line
		if !isString {
			return nil, fmt.Errorf("%s:%d: key %q: value must be a string \"SQL\\t----- bird -----\\tdb_id\": %w",
				path, line, key, ErrMalformed)
		}
		p := Prediction{Key: key, Line: line}
		if value != nil {
			sql, db, found := strings.Cut(*value, birdSeparator)
			p.SQL = sql
			if found {
				p.DBID = strings.TrimSpace(db)
			}
		}
		set.Items = append(set.Items, p)
	}
	if err := src.closeJSON(dec, lc, "object"); err != nil {
		return nil, err
	}
	return set, nil
}

// stringValue reads the next value of dec: a string (value), null (nil), or, with
// isString false, another kind (kind names it), read token by token and dropped: a
// value that is an array of a million strings is never held. A fault is the error a
// decoder reading the value whole gives.
func (src *source) stringValue(dec *json.Decoder) (value *string, isString bool, err error) {
	v, _, isString, err := src.stringOrKind(dec, ':')
	return v, isString, err
}

// stringOrKind is stringValue that also names the kind of value read (for messages).
// sep is the byte that must come first (the ':' after a key, the ',' between elements;
// 0: none), checked as a decoder reading the value whole checks it.
func (src *source) stringOrKind(dec *json.Decoder, sep byte) (value *string, kind string, isString bool, err error) {
	if sep != 0 {
		if err := src.expect(dec.InputOffset(), sep); err != nil {
			return nil, "", false, err
		}
	}
	at := src.skipSpaceColon(dec.InputOffset())
	tok, err := dec.Token()
	if err != nil {
		return nil, "", false, src.valueError(at, err)
	}
	switch t := tok.(type) {
	case nil:
		return nil, "null", true, nil
	case string:
		return &t, "a string", true, nil
	case bool:
		return nil, "a boolean", false, nil
	case json.Delim:
		kind = "an array"
		if t == '{' {
			kind = "an object"
		}
		for depth := 1; depth > 0; {
			tok, err := dec.Token()
			if err != nil {
				return nil, "", false, src.valueError(at, err)
			}
			if d, ok := tok.(json.Delim); ok {
				if d == '{' || d == '[' {
					depth++
				} else {
					depth--
				}
			}
		}
		return nil, kind, false, nil
	}
	return nil, "a number", false, nil
}

// parseIndex accepts only plain decimal digits, so "+1", " 1" and "1.0" are refused.
func parseIndex(key string) (int, bool) {
	if key == "" || strings.TrimLeft(key, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(key)
	return n, err == nil
}

// openJSON starts reading a prediction file that must be one JSON value opening with
// delim (an object or an array), token by token; want says what the file must be when
// it is not.
func (src *source) openJSON(delim json.Delim, want string) (*json.Decoder, *lineCounter, error) {
	dec := json.NewDecoder(src.reader(0))
	dec.UseNumber() // a number is refused by kind, never decoded (1e999 overflows a float64)
	lc := newLineCounter(src)
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, src.jsonError(0, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != delim {
		return nil, nil, fmt.Errorf("%s:%d: %s: %w", src.path, lc.at(dec.InputOffset()), want, ErrMalformed)
	}
	return dec, lc, nil
}

// closeJSON reads the closing bracket or brace of the document openJSON opened (what is
// "array" or "object") and makes sure nothing follows it.
func (src *source) closeJSON(dec *json.Decoder, lc *lineCounter, what string) error {
	if _, err := dec.Token(); err != nil {
		return src.jsonError(0, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s:%d: unexpected data after the JSON %s: %w",
			src.path, lc.at(src.skipSpace(dec.InputOffset())), what, ErrMalformed)
	}
	return nil
}

// expect checks that the first byte after JSON white space from off is sep (':' or ','),
// with the message json.Decoder.Decode gives when it is not. At the end of the file it
// says nothing: the reader then reports the truncation.
func (src *source) expect(off int64, sep byte) error {
	buf := src.scratch()
	for off < src.size {
		n, err := src.ra.ReadAt(buf[:min(int64(len(buf)), src.size-off)], src.base+off)
		for _, c := range buf[:n] {
			switch c {
			case ' ', '\t', '\r', '\n':
				off++
				continue
			case sep:
				return nil
			}
			msg := "expected comma after array element"
			if sep == ':' {
				msg = "expected colon after object key"
			}
			return fmt.Errorf("%s:%d: %s: %w", src.path, src.lineAt(off), msg, ErrMalformed)
		}
		if n == 0 || err != nil {
			return nil
		}
	}
	return nil
}

// skipSpaceColon is where the value after offset off starts: past white space and the
// ':' after an object's key or the ',' after an array's element.
func (src *source) skipSpaceColon(off int64) int64 {
	for {
		off = src.skipSpace(off)
		var c [1]byte
		if off >= src.size {
			return off
		}
		if _, err := src.ra.ReadAt(c[:], src.base+off); err != nil || c[0] != ':' {
			return off
		}
		off++
	}
}
