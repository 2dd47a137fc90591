package predict

import (
	"bytes"
	"errors"
	"fmt"
)

// MaxSQLBytes is the longest one prediction may be: 16 MiB, thousands of times the
// longest SQL any system writes for a benchmark question. A prediction file may be up to
// inputfile.MaxSize; a single value that large would be copied several times on its
// way through the JSON decoder and every later step, so it is refused before decoding.
const MaxSQLBytes = 16 << 20

// ErrTooLong: a prediction (a JSON string, or a line of a text file) is over MaxSQLBytes.
var ErrTooLong = errors.New("prediction too long")

// checkLengths refuses data holding a JSON string literal (json: a JSON file) or a line
// (a text file) longer than MaxSQLBytes, naming the line where it starts. It only scans
// the bytes, and stops at the first value over the cap: nothing is copied.
func checkLengths(path string, data []byte, json bool) error {
	start, ok := tooLong(data, json)
	if ok {
		return nil
	}
	what := "a line"
	if json {
		what = "a JSON string"
	}
	return fmt.Errorf("%s:%d: %s over the %d-byte cap of one prediction: %w",
		path, 1+bytes.Count(data[:start], []byte{'\n'}), what, MaxSQLBytes, ErrTooLong)
}

// tooLong finds the first value longer than MaxSQLBytes, JSON string literals (between
// unescaped quotes) or lines, without looking further than the cap past its start; ok
// when there is none.
func tooLong(data []byte, json bool) (start int, ok bool) {
	window := func(from int) []byte { return data[from:min(len(data), from+MaxSQLBytes+1)] }
	if !json {
		for i := 0; i < len(data); {
			k := bytes.IndexByte(window(i), '\n')
			if k < 0 {
				if len(data)-i > MaxSQLBytes {
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
			k := bytes.IndexByte(window(j)[:min(len(data)-j, open+MaxSQLBytes+1-j)], '"')
			if k < 0 {
				if len(data)-open > MaxSQLBytes {
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
