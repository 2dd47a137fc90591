package record

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
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

// ErrTooDense reports a records file holding more records, or more objects and arrays,
// than its size allows (ReadJSONL).
var ErrTooDense = jsonscan.ErrTooDense

const (
	// MinRecordBytes is the fewest bytes a record's line may take on average past the
	// first FreeRecords: Writer writes at least minWrittenRecord.
	MinRecordBytes = 128
	// FreeRecords are read whatever their size (a hand-written test file).
	FreeRecords = 1024
	// minWrittenRecord is the shortest line Writer writes: the keys without omitempty.
	minWrittenRecord = 200
)

// ReadJSONL reads records.jsonl. It returns the records of every complete line; if the
// last line is torn (no trailing newline) it also returns, with ErrTornLine, the byte
// offset where the complete lines end, so a resumed run can truncate the file there.
// A line that is not a record is an error naming its line number.
//
// What decoding builds is bounded by the bytes read (ErrTooDense): past FreeRecords, the
// records average at least MinRecordBytes a line, and the objects and arrays within them
// jsonscan.MinContainerBytes each; a record is a kilobyte in memory whatever its line
// holds, so a file of `{}` lines would otherwise take hundreds of times its size.
func ReadJSONL(r io.Reader) (recs []Record, validBytes int64, err error) {
	var read, containers int64
	validBytes, err = safefile.ReadLines(r, 0, func(l safefile.Line) error {
		read += int64(len(l.Bytes)) + 1
		if n := int64(len(recs)) + 1; n > FreeRecords && n > read/MinRecordBytes {
			return fmt.Errorf("line %d: %w: %d records in %d bytes; eval writes at least %d bytes a record", l.N, ErrTooDense, n, read, minWrittenRecord)
		}
		containers += int64(jsonscan.Measure(l.Bytes).Containers)
		if containers > read/jsonscan.MinContainerBytes+jsonscan.FreeContainers {
			return fmt.Errorf("line %d: %w", l.N, jsonscan.ErrTooDense)
		}
		var rec Record
		if err := json.Unmarshal(l.Bytes, &rec); err != nil {
			return fmt.Errorf("line %d: %w", l.N, err)
		}
		recs = append(recs, rec)
		return nil
	})
	return recs, validBytes, err
}
