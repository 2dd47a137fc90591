package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// The DuckDB worker's wire format (duckdb_worker.go): the parent and its worker process
// talk over two pipes in frames of uvarints, zigzag varints and length-prefixed bytes.
// A result crosses cell by cell, so neither side holds it twice. The worker is this
// same binary, but the parent still reads it as bounded input: every length is checked
// against the caps the request gave, so a confused worker cannot make the parent
// allocate more than the result it asked for.

// duckWireMaxString bounds a name, a path or a message on the wire.
const duckWireMaxString = 4 << 20

// duckRequest is one statement for the worker to run.
type duckRequest struct {
	Path, Query string
	Timeout     time.Duration
	MaxRows     int
	MaxBytes    int64 // the byte cap itself (Limits.byteCap): 0 is no cap
}

// duckWorkerConfig is the first frame a worker reads: how to open DuckDB.
type duckWorkerConfig struct {
	Lib, MemoryLimit string
	Threads          int
	Memory           int64 // the address space the worker may add after it starts
	Statements       int   // the worker exits after this many (0: no limit)
}

type wireWriter struct{ *bufio.Writer }

func (w wireWriter) uint(v uint64) {
	var b [10]byte
	n := putUvarint(b[:], v)
	w.Write(b[:n])
}

func (w wireWriter) int(v int64) { w.uint(uint64(v<<1) ^ uint64(v>>63)) }

func (w wireWriter) bytes(b []byte) { w.uint(uint64(len(b))); w.Write(b) }

func (w wireWriter) str(s string) { w.uint(uint64(len(s))); w.WriteString(s) }

func putUvarint(b []byte, v uint64) int {
	i := 0
	for v >= 0x80 {
		b[i] = byte(v) | 0x80
		v >>= 7
		i++
	}
	b[i] = byte(v)
	return i + 1
}

// wireReader reads frames; the first error sticks and every later read returns zero.
type wireReader struct {
	r   *bufio.Reader
	err error
}

func (r *wireReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c, err := r.r.ReadByte()
		if err != nil {
			r.fail(err)
			return 0
		}
		if shift == 63 && c > 1 {
			r.fail(errors.New("varint overflows 64 bits"))
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
}

func (r *wireReader) int() int64 { u := r.uint(); return int64(u>>1) ^ -int64(u&1) }

// bytes reads a length-prefixed value of at most max bytes.
func (r *wireReader) bytes(max int64) []byte {
	n := r.uint()
	if r.err != nil {
		return nil
	}
	if n > uint64(max) {
		r.fail(fmt.Errorf("value of %d bytes over the %d the request allows", n, max))
		return nil
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r.r, b); err != nil {
		r.fail(err)
		return nil
	}
	return b
}

func (r *wireReader) str() string { return string(r.bytes(duckWireMaxString)) }

func (r *wireReader) byte() byte {
	if r.err != nil {
		return 0
	}
	c, err := r.r.ReadByte()
	if err != nil {
		r.fail(err)
	}
	return c
}

func (r *wireReader) fail(err error) {
	if r.err == nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		r.err = err
	}
}

func (w wireWriter) config(c duckWorkerConfig) {
	w.str(c.Lib)
	w.str(c.MemoryLimit)
	w.uint(uint64(c.Threads))
	w.int(c.Memory)
	w.uint(uint64(c.Statements))
}

func (r *wireReader) config() duckWorkerConfig {
	return duckWorkerConfig{Lib: r.str(), MemoryLimit: r.str(), Threads: int(r.uint()), Memory: r.int(), Statements: int(r.uint())}
}

func (w wireWriter) request(q duckRequest) {
	w.str(q.Path)
	w.str(q.Query)
	w.int(int64(q.Timeout))
	w.uint(uint64(q.MaxRows))
	w.int(q.MaxBytes)
}

func (r *wireReader) request() duckRequest {
	return duckRequest{Path: r.str(), Query: string(r.bytes(MaxSQLBytes)), Timeout: time.Duration(r.int()),
		MaxRows: int(r.uint()), MaxBytes: r.int()}
}

// A response starts with one of these.
const (
	wireResult byte = 1 + iota
	wireError
)

// Markers inside a result: a row follows, or the result ends.
const (
	wireRow byte = 1 + iota
	wireEnd
)

// wireAbort, where a row or a cell would start, means the statement failed after rows
// were sent: the error follows, and the rows are dropped. It is no Kind.
const wireAbort byte = 0xff

// wireSink writes a result to the pipe as DuckDB gives it (a rowSink), so the worker
// never holds it; it counts rows and bytes as a ResultBuilder does, for the caps. A value
// that would take the result over max bytes is counted but not sent: duckStream then
// stops at the cap, and the parent never receives more than it asked for.
type wireSink struct {
	w            wireWriter
	max          int64 // the byte cap; 0 is none
	started, row bool  // the header is written; a row is begun
	rows         int
	bytes        int64
}

// header writes the result's header; it is the open of duckStream.
func (s *wireSink) header(names []string) rowSink {
	s.started = true
	s.w.WriteByte(wireResult)
	s.w.uint(uint64(len(names)))
	for _, n := range names {
		s.w.str(n)
	}
	return s
}

// cell counts a value and, unless it takes the result over the cap, starts writing it.
func (s *wireSink) cell(k Kind, size int) bool {
	s.bytes += int64(size) + cellOverhead
	if s.max > 0 && s.bytes > s.max {
		return false
	}
	if !s.row {
		s.w.WriteByte(wireRow)
		s.row = true
	}
	s.w.WriteByte(byte(k))
	return true
}

func (s *wireSink) AppendNull() { s.cell(Null, 0) }

func (s *wireSink) AppendInt(v int64) {
	if s.cell(Int, 0) {
		s.w.int(v)
	}
}

func (s *wireSink) AppendFloat(v float64) {
	if s.cell(Float, 0) {
		s.w.uint(math.Float64bits(v))
	}
}

func (s *wireSink) AppendText(v string) {
	if s.cell(Text, len(v)) {
		s.w.str(v)
	}
}

func (s *wireSink) AppendBlob(v []byte) {
	if s.cell(Blob, len(v)) {
		s.w.bytes(v)
	}
}

func (s *wireSink) AppendDecimal(v DecimalText) {
	if s.cell(Decimal, len(v)) {
		s.w.str(string(v))
	}
}
func (s *wireSink) AppendValue(v any) { appendValue(s, v) }
func (s *wireSink) NumRows() int      { return s.rows }
func (s *wireSink) Bytes() int64      { return s.bytes }

func (s *wireSink) EndRow() error {
	if !s.row {
		s.w.WriteByte(wireRow) // a row of no columns
	}
	s.row = false
	s.rows++
	return nil
}

// result reads a result under the request's own caps (the worker applied them already:
// a result over them is the wire's failure, not the statement's). stmt is the
// statement's error when it failed after sending rows; a failure of the wire is r.err.
func (r *wireReader) result(q duckRequest) (res *Result, stmt error) {
	n := r.uint()
	if n > 1<<16 {
		r.fail(fmt.Errorf("%d columns", n))
	}
	names := make([]string, 0, min(n, 1<<16))
	for range n {
		if r.err != nil {
			break
		}
		names = append(names, r.str())
	}
	b := NewResultBuilder(names)
	maxValue := q.MaxBytes
	if maxValue <= 0 {
		maxValue = math.MaxInt64
	}
	for r.err == nil {
		switch m := r.byte(); m {
		case wireEnd:
			return b.Result(), nil
		case wireAbort:
			return nil, r.error()
		case wireRow:
		default:
			r.fail(fmt.Errorf("unexpected marker %d", m))
			continue
		}
		if q.MaxRows > 0 && b.NumRows() >= q.MaxRows {
			r.fail(fmt.Errorf("more than the %d rows the request allows", q.MaxRows))
		}
		for range len(names) {
			switch k := r.byte(); Kind(k) {
			case Null:
				b.AppendNull()
			case Int:
				b.AppendInt(r.int())
			case Float:
				b.AppendFloat(math.Float64frombits(r.uint()))
			case Text:
				b.AppendText(string(r.bytes(maxValue)))
			case Blob:
				b.AppendBlob(r.bytes(maxValue))
			case Decimal:
				b.AppendDecimal(DecimalText(r.bytes(maxValue)))
			default:
				if k == wireAbort && r.err == nil {
					return nil, r.error()
				}
				r.fail(fmt.Errorf("unknown kind %d", k))
			}
			if r.err != nil {
				break
			}
			if q.MaxBytes > 0 && b.Bytes() > q.MaxBytes {
				r.fail(fmt.Errorf("more than the %d bytes the request allows", q.MaxBytes))
			}
		}
		if r.err == nil {
			if err := b.EndRow(); err != nil {
				r.fail(err)
			}
		}
	}
	return nil, nil
}

// The errors a worker reports, by what the parent's callers test with errors.Is.
const (
	wireErrOther byte = iota
	wireErrDB
	wireErrFault
	wireErrTimeout
	wireErrByteLimit
	wireErrRowLimit
	wireErrNotReadOnly
	wireErrNoDatabase
	wireErrMemory // the statement met the worker's memory cap (errWorkerMemory)
)

// wireSentinels maps codes to the sentinel a reconstructed error wraps; the order is
// the order the worker tests them (ErrByteLimit also matches ErrRowLimit).
var wireSentinels = []struct {
	code byte
	err  error
}{
	{wireErrTimeout, ErrTimeout}, {wireErrMemory, errWorkerMemory}, {wireErrByteLimit, ErrByteLimit}, {wireErrRowLimit, ErrRowLimit},
	{wireErrNotReadOnly, ErrNotReadOnly}, {wireErrNoDatabase, ErrNoDatabase},
}

// errorBody writes err as a code, a class, a fault's operation and a message.
func (w wireWriter) errorBody(err error) {
	var dbe *DBError
	var fe *FaultError
	switch {
	case errors.As(err, &dbe):
		w.WriteByte(wireErrDB)
		w.str(string(dbe.Class))
		w.str(dbe.Message)
		return
	case errors.As(err, &fe):
		w.WriteByte(wireErrFault)
		w.str(fe.Op)
		w.str(fe.Hint)
		err = fe.Err
	}
	code := wireErrOther
	for _, s := range wireSentinels {
		if errors.Is(err, s.err) {
			code = s.code
			break
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		code = wireErrTimeout
	}
	w.WriteByte(code)
	w.str(err.Error())
}

// error reads an error written by wireWriter.errorBody.
func (r *wireReader) error() error {
	code := r.byte()
	switch code {
	case wireErrDB:
		class := ErrorClass(r.str())
		return &DBError{Message: r.str(), Class: class}
	case wireErrFault:
		op, hint := r.str(), r.str()
		return &FaultError{Op: op, Hint: hint, Err: r.error1(r.byte())}
	}
	return r.error1(code)
}

func (r *wireReader) error1(code byte) error {
	msg := r.str()
	switch code {
	case wireErrTimeout:
		return ErrTimeout
	case wireErrMemory:
		return &wireErr{msg: msg, is: ErrByteLimit, memory: true}
	}
	for _, s := range wireSentinels {
		if s.code == code {
			return &wireErr{msg: msg, is: s.err}
		}
	}
	return errors.New(msg)
}

// wireErr is an error that crossed the wire: the worker's message, matching the
// sentinel it matched there.
type wireErr struct {
	msg    string
	is     error
	memory bool // the worker's memory cap: see isWorkerMemory
}

// errWorkerMemory marks, in the worker, a statement stopped by its memory cap; across the
// wire it is a wireErr with memory set, matching ErrByteLimit.
var errWorkerMemory error = &limitError{msg: ErrByteLimit.Error()}

// isWorkerMemory reports whether err is a statement stopped by its worker's memory cap.
func isWorkerMemory(err error) bool {
	var w *wireErr
	return errors.As(err, &w) && w.memory
}

func (e *wireErr) Error() string { return e.msg }
func (e *wireErr) Unwrap() error { return e.is }
