package pandascsv

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// record is one tokenized line: its fields and the 1-based line it starts on.
type record struct {
	fields []string
	line   int
}

// tokenize splits the text r yields into records as pandas' C tokenizer does with
// read_csv's defaults: delimiter ',', quotechar '"' with doubled quotes inside quoted
// fields, no escape character, lines ended by LF, CR or CRLF, and blank or
// whitespace-only lines skipped (skip_blank_lines=True). A quote opens a quoted field only
// at a field's start; elsewhere it is an ordinary character, and text after a closing
// quote is appended ("x"y reads xy). The text is read as a stream, checked as UTF-8 on
// the way, and never held whole: reading stops at lim (limits.go) with the limit's error.
func tokenize(r io.Reader, lim Limits) ([]record, error) {
	s := newScanner(r, lim)
	var (
		recs  []record
		ends  []int  // where each field of the current record ends in rec
		rec   []byte // the current record's field bytes, one after the other
		line  = 1
		start = 1
		err   error
	)
	for {
		c, ok := s.peek()
		if !ok {
			break
		}
		unquoted := false
		if len(ends) == 0 {
			// At a record's start: skip blank and whitespace-only lines. Leading
			// whitespace of any other line starts its first field, an unquoted one.
			rec = rec[:0]
			for ok && (c == ' ' || c == '\t') {
				rec = append(rec, c)
				s.i++
				if err = s.charge(len(rec), 0); err != nil {
					return nil, err
				}
				c, ok = s.peek()
			}
			if !ok {
				break
			}
			if c == '\n' || c == '\r' {
				s.skipEOL(c)
				line++
				continue
			}
			start = line
			unquoted = len(rec) > 0
		}
		if c != '"' || unquoted {
			if rec, err = s.takeField(rec, len(ends)); err != nil {
				return nil, err
			}
		} else {
			s.i++ // the opening quote
			closed := false
			for !closed {
				var nl int
				if rec, nl, err = s.takeQuoted(rec, len(ends)); err != nil {
					return nil, err
				}
				line += nl
				if _, ok = s.peek(); !ok {
					break
				}
				s.i++ // a quote: doubled, it is one quote of the text; else it closes
				if c, ok = s.peek(); ok && c == '"' {
					rec = append(rec, '"')
					s.i++
					continue
				}
				closed = true
			}
			if !closed {
				if s.err != nil {
					return nil, s.err
				}
				return nil, fmt.Errorf("%w: EOF inside string starting at line %d", ErrTokenize, start)
			}
			if rec, err = s.takeField(rec, len(ends)); err != nil {
				return nil, err
			}
		}
		ends = append(ends, len(rec))
		if err = s.endField(len(rec), len(ends)); err != nil {
			return nil, err
		}
		c, ok = s.peek()
		if ok && c == ',' {
			s.i++
			if _, more := s.peek(); !more { // a trailing delimiter at EOF ends a record with one more, empty field
				ends = append(ends, len(rec))
				if err = s.endField(len(rec), len(ends)); err != nil {
					return nil, err
				}
			}
			continue
		}
		recs = append(recs, makeRecord(rec, ends, start))
		if err = s.endRecord(len(recs), len(rec), len(ends)); err != nil {
			return nil, err
		}
		ends = ends[:0]
		if ok {
			s.skipEOL(c)
			line++
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	if len(ends) > 0 {
		recs = append(recs, makeRecord(rec, ends, start))
		if err = s.endRecord(len(recs), len(rec), len(ends)); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// makeRecord cuts one string holding the record's bytes into its fields (one allocation
// for the text of a record, not one per field).
func makeRecord(rec []byte, ends []int, line int) record {
	text := string(rec)
	fields := make([]string, len(ends))
	from := 0
	for k, e := range ends {
		fields[k] = text[from:e]
		from = e
	}
	return record{fields: fields, line: line}
}

// scanner reads the text in blocks, checking UTF-8 as blocks arrive, and counts what the
// records hold against the limits.
type scanner struct {
	r    io.Reader
	buf  []byte
	i, n int // buf[i:n] is read and not consumed
	v    int // buf[:v] is checked UTF-8; v < n by an incomplete sequence at the end
	eof  bool
	err  error // a read error or ErrEncoding; reading stops there
	lim  Limits
	held int64 // bytes of the finished fields, plus CellOverhead each
}

const blockSize = 64 << 10

func newScanner(r io.Reader, lim Limits) *scanner {
	s := &scanner{r: r, buf: make([]byte, blockSize), lim: lim}
	for s.n < 3 && !s.eof && s.fill() { // enough for the BOM
	}
	if s.n-s.i >= 3 && string(s.buf[s.i:s.i+3]) == "\ufeff" {
		s.i += 3
	}
	return s
}

// peek returns the next byte without consuming it; ok is false at the end of the text
// (or at a read or encoding error, which s.err holds).
func (s *scanner) peek() (byte, bool) {
	if s.i < s.n {
		return s.buf[s.i], true
	}
	if !s.fill() {
		return 0, false
	}
	return s.buf[s.i], true
}

// fill reads the next block after what is unconsumed; false when nothing more is read.
func (s *scanner) fill() bool {
	if s.eof {
		return s.i < s.n
	}
	if keep := min(s.i, s.v); keep > 0 { // drop consumed, checked bytes
		copy(s.buf, s.buf[keep:s.n])
		s.i, s.n, s.v = s.i-keep, s.n-keep, s.v-keep
	}
	for {
		m, err := s.r.Read(s.buf[s.n:])
		s.n += m
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			s.eof, s.err = true, err
			s.n = s.i
			return false
		}
		if m > 0 {
			break
		}
	}
	v, ok := checkUTF8(s.buf, s.v, s.n, s.eof)
	if !ok {
		s.eof, s.err = true, ErrEncoding // pandas decodes UTF-8 strictly and raises
		s.n = s.i
		return false
	}
	s.v = v
	return s.i < s.n
}

// checkUTF8 checks buf[from:to] as UTF-8 and returns how far it is checked: short of to
// by a sequence the next block completes, unless at EOF.
func checkUTF8(buf []byte, from, to int, eof bool) (int, bool) {
	end := to
	if !eof {
		for k := to - 1; k >= from && k >= to-3; k-- {
			c := buf[k]
			if c < 0x80 {
				break
			}
			if c >= 0xC0 { // a leading byte: is its sequence complete?
				need := 2
				if c >= 0xF0 {
					need = 4
				} else if c >= 0xE0 {
					need = 3
				}
				if to-k < need {
					end = k
				}
				break
			}
		}
	}
	return end, utf8.Valid(buf[from:end])
}

// takeField appends to rec (which holds cells finished fields) the bytes up to the next ',', line end or the end of text.
func (s *scanner) takeField(rec []byte, cells int) ([]byte, error) {
	for {
		j := s.i
		for j < s.n && s.buf[j] != ',' && s.buf[j] != '\n' && s.buf[j] != '\r' {
			j++
		}
		rec = append(rec, s.buf[s.i:j]...)
		s.i = j
		if err := s.charge(len(rec), cells); err != nil {
			return nil, err
		}
		if j < s.n || !s.fill() {
			return rec, nil
		}
	}
}

// takeQuoted appends to rec (which holds cells finished fields) the bytes up to the next '"' or the end of text, and counts
// the LFs among them.
func (s *scanner) takeQuoted(rec []byte, cells int) ([]byte, int, error) {
	nl := 0
	for {
		j := s.i
		for j < s.n && s.buf[j] != '"' {
			if s.buf[j] == '\n' {
				nl++
			}
			j++
		}
		rec = append(rec, s.buf[s.i:j]...)
		s.i = j
		if err := s.charge(len(rec), cells); err != nil {
			return nil, 0, err
		}
		if j < s.n || !s.fill() {
			return rec, nl, nil
		}
	}
}

// skipEOL steps over the line end starting with c (LF, CR or CRLF).
func (s *scanner) skipEOL(c byte) {
	s.i++
	if c == '\r' {
		if d, ok := s.peek(); ok && d == '\n' {
			s.i++
		}
	}
}
