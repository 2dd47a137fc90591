package predict

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
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
	start, ok := jsonscan.FirstTooLong(data, MaxSQLBytes, json)
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
