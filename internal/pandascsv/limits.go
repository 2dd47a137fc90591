package pandascsv

import (
	"errors"
	"fmt"
)

// Limits bound what one read holds, as engine.Limits bounds a query's result, so that a
// result table given as a CSV file costs no more than the same table from a query: a
// 20-million-row answer stops at the row cap instead of filling memory. The zero value
// sets no cap (for text already in memory).
type Limits struct {
	MaxRows int // data rows (the header aside) read at most; 0: no cap
	// MaxBytes caps the field bytes, plus CellOverhead per field, header included (the
	// engine's count for a result's values); 0: no cap. A single field is stopped as soon
	// as it passes the cap, so one endless line is never held whole.
	MaxBytes int64
}

// CellOverhead is what one field costs beyond its bytes (engine's cellOverhead): a table
// of many empty fields is bounded too.
const CellOverhead = 16

// MaxColumns is the most fields a line may have. pandas has no such cap; a result table
// that wide is no answer to a question, and its per-column bookkeeping would cost far
// more than CellOverhead per field.
const MaxColumns = 1 << 16

// Errors of a read stopped at a limit. Each says what was exceeded; the caller maps them
// onto its own (the judge: the engine's row limit, category row_limit).
var (
	ErrRowLimit    = errors.New("too many rows")
	ErrByteLimit   = errors.New("too many bytes")
	ErrColumnLimit = errors.New("too many columns")
)

// charge checks the record being read (rec bytes, cells finished fields) with what the
// finished records hold against MaxBytes.
func (s *scanner) charge(rec, cells int) error {
	if s.lim.MaxBytes > 0 && s.held+int64(rec)+int64(cells)*CellOverhead > s.lim.MaxBytes {
		return fmt.Errorf("%w (more than %d, counting %d per field)", ErrByteLimit, s.lim.MaxBytes, CellOverhead)
	}
	return nil
}

// endField checks a finished field (the cells-th of its record, rec bytes so far).
func (s *scanner) endField(rec, cells int) error {
	if cells > MaxColumns {
		return fmt.Errorf("%w (more than %d fields in a line)", ErrColumnLimit, MaxColumns)
	}
	return s.charge(rec, cells)
}

// endRecord adds a finished record (the recs-th) to what is held and checks the row cap.
func (s *scanner) endRecord(recs, rec, cells int) error {
	s.held += int64(rec) + int64(cells)*CellOverhead
	if s.lim.MaxRows > 0 && recs-1 > s.lim.MaxRows {
		return fmt.Errorf("%w (more than %d)", ErrRowLimit, s.lim.MaxRows)
	}
	return nil
}
