package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// writeResult sends res as a worker does, through a wireSink.
func writeResult(w wireWriter, res *Result) {
	s := &wireSink{w: w}
	s.header(res.Columns)
	for i := range res.NumRows() {
		for j := range res.NumCols() {
			s.AppendValue(res.Value(i, j))
		}
		s.EndRow()
	}
	w.WriteByte(wireEnd)
}

func wireRoundTrip(t *testing.T, write func(wireWriter)) *wireReader {
	t.Helper()
	var buf bytes.Buffer
	w := wireWriter{bufio.NewWriter(&buf)}
	write(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return &wireReader{r: bufio.NewReader(&buf)}
}

// TestDuckWireResult: every kind of value crosses the worker's pipe unchanged, including
// invalid UTF-8 text (still noted as such), an empty blob (not NULL) and exact decimals.
func TestDuckWireResult(t *testing.T) {
	rows := [][]any{
		{int64(-1 << 63), 3.5, "héllo", []byte{}, DecimalText("12345678901234567890.5"), nil},
		{int64(1<<63 - 1), -0.0, "\xff\xfe", []byte{0, 255}, DecimalText("-0.001"), int64(0)},
	}
	want := NewResult([]string{"i", "f", "t", "b", "d", "n"}, rows)
	req := duckRequest{MaxRows: 10, MaxBytes: 1 << 20}
	r := wireRoundTrip(t, func(w wireWriter) { writeResult(w, want) })
	if m := r.byte(); m != wireResult {
		t.Fatalf("marker %d", m)
	}
	got, err := r.result(req)
	if err != nil || r.err != nil {
		t.Fatal(err, r.err)
	}
	if !got.Equal(want) || got.TextIsUTF8() || !slicesEqual(got.Columns, want.Columns) {
		t.Errorf("round trip:\n got %v\nwant %v (utf8 %v)", got, want, got.TextIsUTF8())
	}
	if got.Kind(0, 3) != Blob || got.Kind(1, 4) != Decimal {
		t.Errorf("kinds changed: %v %v", got.Kind(0, 3), got.Kind(1, 4))
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestDuckWireErrors: an error crosses the pipe keeping what callers test: a DBError's
// class and message, a fault (still a fault, still ErrNoDatabase), the byte limit (also
// a row limit), the timeout.
func TestDuckWireErrors(t *testing.T) {
	cases := []struct {
		err   error
		check func(error) bool
	}{
		{&DBError{Message: "Catalog Error: no t", Class: ClassNoTable}, func(e error) bool {
			var d *DBError
			return errors.As(e, &d) && d.Class == ClassNoTable && d.Message == "Catalog Error: no t"
		}},
		{&FaultError{Op: "cannot open duckdb database", Hint: "check it", Err: errors.Join(ErrNoDatabase)}, func(e error) bool {
			var f *FaultError
			return errors.As(e, &f) && errors.Is(e, ErrInfrastructure) && errors.Is(e, ErrNoDatabase) && f.Hint == "check it"
		}},
		{byteLimitError(100), func(e error) bool {
			return errors.Is(e, ErrByteLimit) && errors.Is(e, ErrRowLimit) && strings.Contains(e.Error(), "100 bytes")
		}},
		{errors.Join(ErrRowLimit), func(e error) bool { return errors.Is(e, ErrRowLimit) && !errors.Is(e, ErrByteLimit) }},
		{context.DeadlineExceeded, func(e error) bool { return e == ErrTimeout }},
		{ErrNotReadOnly, func(e error) bool { return errors.Is(e, ErrNotReadOnly) }},
		{errors.New("something else"), func(e error) bool { return e.Error() == "something else" }},
	}
	for _, c := range cases {
		r := wireRoundTrip(t, func(w wireWriter) { w.WriteByte(wireError); w.errorBody(c.err) })
		if m := r.byte(); m != wireError {
			t.Fatalf("marker %d", m)
		}
		if got := r.error(); r.err != nil || !c.check(got) {
			t.Errorf("%v crossed as %v (%T), wire %v", c.err, got, got, r.err)
		}
	}
}

// TestDuckWireAbort: a statement that fails after rows were sent (the byte cap met in
// the middle of a row) reaches the parent as the statement's error, its rows dropped,
// and the pipe stays usable for the next answer.
func TestDuckWireAbort(t *testing.T) {
	r := wireRoundTrip(t, func(w wireWriter) {
		s := &wireSink{w: w}
		s.header([]string{"a", "b"})
		s.AppendInt(1)
		s.AppendText("x")
		s.EndRow()
		s.AppendInt(2) // the second row stops half way
		w.WriteByte(wireAbort)
		w.errorBody(byteLimitError(100))
		w.WriteByte(0) // the retire flag
		writeResult(w, NewResult([]string{"c"}, [][]any{{int64(7)}}))
	})
	req := duckRequest{MaxBytes: 1 << 20}
	if m := r.byte(); m != wireResult {
		t.Fatalf("marker %d", m)
	}
	res, err := r.result(req)
	if res != nil || !errors.Is(err, ErrByteLimit) || r.err != nil {
		t.Fatalf("aborted result: %v %v, wire %v", res, err, r.err)
	}
	if r.byte() != 0 || r.byte() != wireResult {
		t.Fatalf("the next answer is not where it should be: %v", r.err)
	}
	if res, err := r.result(req); err != nil || r.err != nil || res.Int(0, 0) != 7 {
		t.Errorf("next answer: %v %v %v", res, err, r.err)
	}
}

// TestDuckWireSinkCap: a worker never sends a value that takes the result over its byte
// cap (it used to send it whole, then stop: a 1 MB value under a 100-byte cap crossed the
// pipe, and the parent read it as a broken frame); the statement stops at the cap, as
// in-process, and the parent sees the byte limit.
func TestDuckWireSinkCap(t *testing.T) {
	r := wireRoundTrip(t, func(w wireWriter) {
		s := &wireSink{w: w, max: 100}
		s.header([]string{"a"})
		s.AppendText("small")
		s.EndRow()
		s.AppendText(strings.Repeat("x", 1<<20))
		if s.Bytes() <= 100 {
			t.Errorf("the sink did not count the value: %d bytes", s.Bytes())
		}
		w.WriteByte(wireAbort) // what the worker writes once duckStream stops at the cap
		w.errorBody(byteLimitError(100))
	})
	if m := r.byte(); m != wireResult {
		t.Fatalf("marker %d", m)
	}
	res, err := r.result(duckRequest{MaxBytes: 100})
	if res != nil || !errors.Is(err, ErrByteLimit) || r.err != nil {
		t.Errorf("a 1 MB value under a 100-byte cap: %v %v, wire %v", res, err, r.err)
	}
}

// TestDuckWireHostile: a broken or oversized frame is an error, never a panic nor an
// allocation the request did not allow.
func TestDuckWireHostile(t *testing.T) {
	res := NewResult([]string{"a"}, [][]any{{strings.Repeat("x", 1000)}, {"y"}})
	var full bytes.Buffer
	w := wireWriter{bufio.NewWriter(&full)}
	writeResult(w, res)
	w.Flush()
	b := full.Bytes()[1:]
	read := func(data []byte, req duckRequest) error {
		r := &wireReader{r: bufio.NewReader(bytes.NewReader(data))}
		if _, stmt := r.result(req); stmt != nil {
			t.Fatalf("a statement error from a broken frame: %v", stmt)
		}
		return r.err
	}
	if err := read(b, duckRequest{MaxBytes: 1 << 20}); err != nil {
		t.Fatalf("whole frame: %v", err)
	}
	for i := range len(b) - 1 {
		if err := read(b[:i], duckRequest{MaxBytes: 1 << 20}); err == nil {
			t.Fatalf("frame cut at %d read without error", i)
		}
	}
	if err := read(b, duckRequest{MaxBytes: 500}); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("a 1000-byte value under a 500-byte cap: %v", err)
	}
	if err := read(b, duckRequest{MaxRows: 1, MaxBytes: 1 << 20}); err == nil || !strings.Contains(err.Error(), "1 rows") {
		t.Errorf("two rows under a one-row cap: %v", err)
	}
	huge := []byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	if err := read(huge, duckRequest{}); err == nil {
		t.Errorf("a 2^63-column result read without error")
	}
}

// FuzzDuckWire: no input makes the parent's reader panic.
func FuzzDuckWire(f *testing.F) {
	f.Add([]byte{1, 'a', 1, 3, 1, 'x', 2})
	f.Add([]byte{2, 1, 2, 'x', 'y', 1, 'm'})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &wireReader{r: bufio.NewReader(bytes.NewReader(data))}
		req := duckRequest{MaxRows: 100, MaxBytes: 1 << 16, Timeout: time.Second}
		switch r.byte() {
		case wireResult:
			r.result(req)
		case wireError:
			r.error()
		default:
			r.request()
			r.config()
		}
	})
}
