package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Writer streams records as JSON Lines. Each record is flushed to the underlying writer
// as soon as it is written, so an interrupted run leaves only complete lines behind
// (except, at worst, a torn last line, which ReadJSONL reports as incomplete).
type Writer struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &Writer{bw: bw, enc: enc}
}

// Write writes one record as a line and flushes it.
func (w *Writer) Write(r *Record) error {
	if err := w.enc.Encode(r); err != nil {
		return fmt.Errorf("write record %d: %w", r.Index, err)
	}
	return w.bw.Flush()
}

// ErrTornLine reports a last line without its newline: the remains of an interrupted write.
var ErrTornLine = errors.New("last line is incomplete")

// ReadJSONL reads records.jsonl. It returns the records of every complete line; if the
// last line is torn (no trailing newline and not valid JSON) it also returns, with
// ErrTornLine, the byte offset where the complete lines end, so a resumed run can
// truncate the file there.
func ReadJSONL(r io.Reader) (recs []Record, validBytes int64, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	line := 0
	for {
		b, rerr := br.ReadBytes('\n')
		if len(b) > 0 {
			line++
			complete := b[len(b)-1] == '\n'
			trimmed := bytes.TrimSpace(b)
			if len(trimmed) > 0 {
				var rec Record
				if err := json.Unmarshal(trimmed, &rec); err != nil {
					if !complete {
						return recs, validBytes, ErrTornLine
					}
					return recs, validBytes, fmt.Errorf("line %d: %w", line, err)
				}
				if !complete {
					return recs, validBytes, ErrTornLine
				}
				recs = append(recs, rec)
			}
			validBytes += int64(len(b))
		}
		if rerr == io.EOF {
			return recs, validBytes, nil
		}
		if rerr != nil {
			return recs, validBytes, rerr
		}
	}
}
