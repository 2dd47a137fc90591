package predict

import (
	"errors"
)

// MaxSQLBytes is the longest one prediction may be: 16 MiB, thousands of times the
// longest SQL any system writes for a benchmark question. A prediction file may be up to
// inputfile.MaxSize; a single value that large would be copied several times on its
// way through the JSON decoder and every later step, so it is refused before decoding.
const MaxSQLBytes = 16 << 20

// ErrTooLong: a prediction (a JSON string, or a line of a text file) is over MaxSQLBytes.
var ErrTooLong = errors.New("prediction too long")
