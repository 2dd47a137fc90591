package engine

import (
	"fmt"
	"io"
)

// A result is bounded in bytes as well as rows (Limits.MaxBytes): a few rows of huge
// values would otherwise take gigabytes. Each engine adds resultBytes up while it reads
// rows and stops at the cap; SQLite also stops a single oversized value before it is
// allocated (runRaw), SQL++ caps the response body (cappedReader).

// cellOverhead is what one value costs beyond its text or blob bytes (an interface value
// in a row), counted so that a result of many small values is bounded too.
const cellOverhead = 16

// resultBytes is what one row value adds to a result's size: the length of a text or
// blob, plus cellOverhead.
func resultBytes(v any) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x)) + cellOverhead
	case []byte:
		return int64(len(x)) + cellOverhead
	}
	return cellOverhead
}

// byteLimitError is ErrByteLimit with the cap that was exceeded.
func byteLimitError(limit int64) error {
	return fmt.Errorf("%w (%d bytes)", ErrByteLimit, limit)
}

// limitError is an error that also matches ErrRowLimit.
type limitError struct{ msg string }

func (e *limitError) Error() string        { return e.msg }
func (e *limitError) Is(target error) bool { return target == ErrRowLimit }

// cappedReader fails with ErrByteLimit once more than left bytes were read: it bounds
// a response whose single value could be larger than the cap before any row is counted.
type cappedReader struct {
	r     io.Reader
	left  int64
	limit int64 // the result's byte cap, for the message
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, byteLimitError(c.limit)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// bodyCap is how many bytes of an encoded response a result of limit value bytes may
// take: JSON quoting and escaping can double a text, field names repeat per row.
func bodyCap(limit int64) int64 { return 4*limit + 1<<20 }
