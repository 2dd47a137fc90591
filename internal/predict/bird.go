package predict

import (
	"bytes"
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
func readBIRD(path string, data []byte, ic itemCap) (*Set, error) {
	dec, lc, err := openJSON(path, data, '{', "BIRD predictions must be one JSON object of strings")
	if err != nil {
		return nil, err
	}
	set := &Set{Path: path, Format: FormatBIRD}
	seen := map[int]int{} // question index -> line of its key
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(path, data, 0, err)
		}
		key, _ := tok.(string) // inside an object the decoder only yields string keys
		line := lc.at(dec.InputOffset())
		if err := ic.check(path, line, len(set.Items), "keys"); err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(path, data, 0, err)
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
		var value *string
		if err := json.Unmarshal(raw, &value); err != nil {
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
	if err := closeJSON(path, data, dec, lc, "object"); err != nil {
		return nil, err
	}
	return set, nil
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
func openJSON(path string, data []byte, delim json.Delim, want string) (*json.Decoder, *lineCounter, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lc := newLineCounter(data)
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, jsonError(path, data, 0, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != delim {
		return nil, nil, fmt.Errorf("%s:%d: %s: %w", path, lc.at(dec.InputOffset()), want, ErrMalformed)
	}
	return dec, lc, nil
}

// closeJSON reads the closing bracket or brace of the document openJSON opened (what is
// "array" or "object") and makes sure nothing follows it.
func closeJSON(path string, data []byte, dec *json.Decoder, lc *lineCounter, what string) error {
	if _, err := dec.Token(); err != nil {
		return jsonError(path, data, 0, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s:%d: unexpected data after the JSON %s: %w",
			path, lc.at(skipSpace(data, dec.InputOffset())), what, ErrMalformed)
	}
	return nil
}
