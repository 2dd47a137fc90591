package predict

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// A prediction file may be up to inputfile.MaxSize (1 GiB). Read whole, it was held once
// as bytes and once more as the predictions kept from it (a 1.03 GB file peaked at
// 2.04 GB). So it is read as a stream, in passes over the open file: a scan (sizes,
// lines, the first value over MaxSQLBytes), then format detection, then the reader of
// the format, each holding one item at a time besides what it keeps. Line numbers for
// messages are counted on demand from the file (lineCounter), never from a copy of it.

// chunkSize is how much of the file one pass reads at a time.
const chunkSize = 256 << 10

// source is a prediction file (or, in tests, bytes) read in passes.
type source struct {
	path string
	file io.ReaderAt // the passes read it
	ra   io.ReaderAt // the same through a window, for the small reads between tokens
	base int64       // bytes skipped at the start: a UTF-8 byte-order mark
	size int64       // bytes after base, as the scan read them
	peek []byte      // scratch for the small reads
	scanStats
}

// scanStats is what the first pass learns about the content.
type scanStats struct {
	newlines    int64 // '\n' bytes
	lastNL      bool  // the content ends in '\n'
	lastContent int64 // offset just past the last byte that is not " \t\r\n"
	contentLine int   // the 1-based line of that byte
	tooLong     int64 // start of the first value over MaxSQLBytes, -1 if none
	tooLongLine int
}

// openSource opens path and scans it (the scan stops early at a value over the cap).
func openSource(path string) (*source, func() error, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	src := &source{path: path, file: f, ra: &window{ra: f}}
	if err := src.start(f, true); err != nil {
		f.Close()
		return nil, nil, err
	}
	return src, f.Close, nil
}

// start skips a byte-order mark and runs the scan over r, the whole content.
func (s *source) start(r io.Reader, stopTooLong bool) error {
	bom := make([]byte, 3)
	n, err := io.ReadFull(r, bom)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	rest := io.Reader(bytes.NewReader(bom[:n]))
	if n == 3 && string(bom) == "\xef\xbb\xbf" {
		s.base, rest = 3, bytes.NewReader(nil)
	}
	return s.scanFrom(io.MultiReader(rest, r), stopTooLong)
}

// scanFrom runs the scan over r, the content after the mark.
func (s *source) scanFrom(r io.Reader, stopTooLong bool) error {
	// Whether values are JSON strings or lines depends on the first non-separator byte.
	first, err := s.firstByte()
	if err != nil {
		return err
	}
	return s.scan(r, first == '{' || first == '[', stopTooLong)
}

// firstByte is the first byte after separators (0 if none), read at the file's start.
func (s *source) firstByte() (byte, error) {
	at, eof, err := s.skipSpaceLimit(0, -1)
	if err != nil || eof {
		return 0, err
	}
	var b [1]byte
	if _, err := s.ra.ReadAt(b[:], s.base+at); err != nil {
		return 0, err
	}
	return b[0], nil
}

// reader reads the content from offset off (after the mark) to the size the scan saw.
func (s *source) reader(off int64) io.Reader {
	return io.NewSectionReader(s.file, s.base+off, max(0, s.size-off))
}

// lines reads the content line by line.
func (s *source) lines() *lineReader {
	return &lineReader{r: bufio.NewReaderSize(s.reader(0), 64<<10)}
}

// tooLongError is the error for the first value over MaxSQLBytes, nil if there is none.
func (s *source) tooLongError(json bool) error {
	if s.tooLong < 0 {
		return nil
	}
	what := "a line"
	if json {
		what = "a JSON string"
	}
	return fmt.Errorf("%s:%d: %s over the %d-byte cap of one prediction: %w",
		s.path, s.tooLongLine, what, MaxSQLBytes, ErrTooLong)
}

// skipSpace is the offset of the first byte at or after off that is neither JSON white
// space nor a comma (jsonscan.SkipSeparators), the content's size if there is none.
func (s *source) skipSpace(off int64) int64 {
	at, _, _ := s.skipSpaceLimit(off, s.size)
	return at
}

// skipSpaceLimit is skipSpace up to end (-1: the end of the file, for the scan).
func (s *source) skipSpaceLimit(off, end int64) (int64, bool, error) {
	buf := s.scratch()
	for {
		want := int64(len(buf))
		if end >= 0 {
			want = min(want, end-off)
		}
		if want <= 0 {
			return off, true, nil
		}
		n, err := s.ra.ReadAt(buf[:want], s.base+off)
		for _, c := range buf[:n] {
			switch c {
			case ' ', '\t', '\r', '\n', ',':
				off++
			default:
				return off, false, nil
			}
		}
		if errors.Is(err, io.EOF) || (n == 0 && err == nil) {
			return off, true, nil
		}
		if err != nil {
			return off, true, err
		}
	}
}

// scratch is a buffer for the small reads, allocated once.
func (s *source) scratch() []byte {
	if s.peek == nil {
		s.peek = make([]byte, 512)
	}
	return s.peek
}

// lineAt counts lines from the start: the 1-based line of offset off.
func (s *source) lineAt(off int64) int { return newLineCounter(s).at(off) }

// jsonError locates a JSON decoding error (offsets from base) and names the file and line.
func (s *source) jsonError(base int64, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		// Name the last line with content, not the empty one after a final newline.
		return fmt.Errorf("%s:%d: unexpected end of file: %w", s.path, s.contentLine, ErrMalformed)
	}
	if off < 0 {
		return fmt.Errorf("%s: %v: %w", s.path, err, ErrMalformed)
	}
	return fmt.Errorf("%s:%d: %v: %w", s.path, s.lineAt(base+off), err, ErrMalformed)
}

// valueError is the error a decoder gives for the value at off, which a token-by-token
// reader found broken: the same message a reader decoding it whole gave. Only this
// error path buffers the value (up to the fault).
func (s *source) valueError(off int64, tokErr error) error {
	dec := json.NewDecoder(s.reader(off))
	if err := dec.Decode(new(skipValue)); err != nil {
		return s.jsonError(off, err)
	}
	return s.jsonError(0, tokErr)
}

// lineCounter turns byte offsets into 1-based line numbers, reading the file. Offsets
// asked for are usually increasing, so it counts on from the last answer.
type lineCounter struct {
	src  *source
	off  int64
	line int
	buf  []byte
}

func newLineCounter(src *source) *lineCounter { return &lineCounter{src: src, line: 1} }

func (lc *lineCounter) at(off int64) int {
	off = max(0, min(off, lc.src.size))
	if off < lc.off {
		lc.off, lc.line = 0, 1
	}
	if lc.buf == nil {
		lc.buf = make([]byte, 32<<10)
	}
	for lc.off < off {
		n, err := lc.src.ra.ReadAt(lc.buf[:min(int64(len(lc.buf)), off-lc.off)], lc.src.base+lc.off)
		lc.line += bytes.Count(lc.buf[:n], []byte{'\n'})
		lc.off += int64(n)
		if n == 0 || (err != nil && !errors.Is(err, io.EOF)) {
			break // the file shrank since the scan: the line is a guess, the error is not
		}
	}
	return lc.line
}

// lineReader reads lines of any length up to what the scan allowed (MaxSQLBytes).
type lineReader struct {
	r   *bufio.Reader
	buf []byte
	eof bool
}

// next returns the next line without its '\n' (valid until the next call) and whether
// it ended in one; ok is false at the end of the content.
func (lr *lineReader) next() (line []byte, nl bool, ok bool, err error) {
	if lr.eof {
		return nil, false, false, nil
	}
	lr.buf = lr.buf[:0]
	for {
		frag, err := lr.r.ReadSlice('\n')
		switch {
		case err == nil:
			if len(lr.buf) == 0 {
				return frag[:len(frag)-1], true, true, nil
			}
			lr.buf = append(lr.buf, frag[:len(frag)-1]...)
			return lr.buf, true, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			lr.buf = append(lr.buf, frag...)
		case errors.Is(err, io.EOF):
			lr.eof = true
			lr.buf = append(lr.buf, frag...)
			if len(lr.buf) == 0 {
				return nil, false, false, nil
			}
			return lr.buf, false, true, nil
		default:
			return nil, false, false, err
		}
	}
}

// window is an io.ReaderAt that serves small reads from the last 64 KiB it read: a reader
// looks at a few bytes between each two items (where the next starts, its line), and a
// system call for each made a file of 100,000 items five times slower to read.
type window struct {
	ra  io.ReaderAt
	buf []byte
	off int64 // offset of buf[0]
}

func (w *window) ReadAt(p []byte, off int64) (int, error) {
	if off >= w.off && off+int64(len(p)) <= w.off+int64(len(w.buf)) {
		return copy(p, w.buf[off-w.off:]), nil
	}
	const size = 64 << 10
	if len(p) > size/2 {
		return w.ra.ReadAt(p, off)
	}
	if cap(w.buf) < size {
		w.buf = make([]byte, size)
	}
	n, err := w.ra.ReadAt(w.buf[:size], off)
	w.buf, w.off = w.buf[:n], off
	k := copy(p, w.buf)
	if k < len(p) {
		if err == nil {
			err = io.EOF
		}
		return k, err
	}
	return k, nil
}
