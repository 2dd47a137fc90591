package record

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// Writer streams records as JSON Lines. Each record is written to the underlying
// writer in one Write call as soon as it is encoded, so an interrupted run leaves only
// complete lines behind (except, at worst, a torn last line, which ReadJSONL reports as
// incomplete).
//
// The encoding is encoding/json's with HTML escaping off, byte for byte, but done by
// generated code (record_json_gen.go, go generate): no reflection and no allocation
// per record once the line buffer has grown.
type Writer struct {
	w    io.Writer
	line []byte
	st   jsonState
	err  error // the first write error: later writes fail with it
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// Write writes one record as a line. A record that cannot be encoded (a NaN or an
// infinite float) writes nothing and returns encoding/json's error.
func (w *Writer) Write(r *Record) error {
	if w.err != nil {
		return w.err
	}
	line, err := w.st.appendLine(w.line[:0], r)
	if err != nil {
		return fmt.Errorf("write record %d: %w", r.Index, err)
	}
	w.line = line
	if _, err := w.w.Write(line); err != nil {
		w.err = err
		return err
	}
	return nil
}

// appendLine appends r's JSON and a newline to b.
func (e *jsonState) appendLine(b []byte, r *Record) ([]byte, error) {
	e.err = nil
	n := len(b)
	b = e.appendJSONRecord(b, r)
	if e.err != nil {
		return b[:n], e.err
	}
	return append(b, '\n'), nil
}

// ErrTornLine reports a last line without its newline: the remains of an interrupted
// write. It is safefile.ErrTornLine, the one JSON Lines reader's.
var ErrTornLine = safefile.ErrTornLine

// ReadJSONL reads records.jsonl. It returns the records of every complete line; if the
// last line is torn (no trailing newline) it also returns, with ErrTornLine, the byte
// offset where the complete lines end, so a resumed run can truncate the file there.
// A line that is not a record is an error naming its line number.
func ReadJSONL(r io.Reader) (recs []Record, validBytes int64, err error) {
	validBytes, err = safefile.ReadLines(r, 0, func(l safefile.Line) error {
		var rec Record
		if err := json.Unmarshal(l.Bytes, &rec); err != nil {
			return fmt.Errorf("line %d: %w", l.N, err)
		}
		recs = append(recs, rec)
		return nil
	})
	return recs, validBytes, err
}
