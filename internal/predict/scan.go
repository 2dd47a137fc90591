package predict

import (
	"bytes"
	"errors"
	"io"
)

// scan is the first pass over a prediction file: it reads r to its end (or, with
// stopTooLong, to the first value over MaxSQLBytes) and fills s.size and s.scanStats.
// A value is a JSON string literal (between unescaped quotes; keys too) when json, else
// a line; it is too long when it holds more than MaxSQLBytes bytes, as
// jsonscan.FirstTooLong measures them. Nothing is kept but counts.
func (s *source) scan(r io.Reader, json, stopTooLong bool) error {
	const limit = int64(MaxSQLBytes)
	s.scanStats = scanStats{tooLong: -1, contentLine: 1}
	st := &s.scanStats
	buf := make([]byte, chunkSize)
	var pos int64 // offset of buf[0]
	// JSON strings: inside one, where it opened (after the quote), its line, and how
	// many backslashes end what was read of it (they escape a quote that follows).
	inStr, open, openLine, slashes := false, int64(0), 0, 0
	lineStart := int64(0) // text: where the current line starts
	found := func(at int64, line int) bool {
		if st.tooLong < 0 {
			st.tooLong, st.tooLongLine = at, line
		}
		return stopTooLong
	}
	for {
		n, err := io.ReadFull(r, buf)
		c := buf[:n]
		nlBefore := st.newlines // newlines before c
		nlAt, nlCount := 0, 0   // newlines in c[:nlAt]
		lineOf := func(i int) int {
			nlCount += bytes.Count(c[nlAt:i], []byte{'\n'})
			nlAt = i
			return int(nlBefore) + nlCount + 1
		}
		if json && st.tooLong < 0 {
			for i := 0; i < len(c); {
				if !inStr {
					q := bytes.IndexByte(c[i:], '"')
					if q < 0 {
						break
					}
					i += q + 1
					inStr, open, openLine, slashes = true, pos+int64(i), lineOf(i), 0
					continue
				}
				q := bytes.IndexByte(c[i:], '"')
				if q < 0 {
					slashes = trailingSlashes(c[i:], slashes)
					break
				}
				j := i + q
				run := trailingSlashes(c[i:j], slashes)
				if run%2 == 1 { // an escaped quote: still inside
					slashes, i = 0, j+1
					continue
				}
				inStr, i = false, j+1
				if pos+int64(j)-open > limit && found(open, openLine) {
					break
				}
			}
			if inStr && pos+int64(n)-open > limit && found(open, openLine) {
				inStr = false
			}
		}
		if !json && st.tooLong < 0 {
			for i := 0; i < len(c); {
				k := bytes.IndexByte(c[i:], '\n')
				if k < 0 {
					break
				}
				end := pos + int64(i+k)
				if end-lineStart > limit && found(lineStart, s.lineBefore(lineStart, pos, c, nlBefore)) {
					break
				}
				i += k + 1
				lineStart = pos + int64(i)
			}
			if pos+int64(n)-lineStart > limit && st.tooLong < 0 {
				found(lineStart, s.lineBefore(lineStart, pos, c, nlBefore))
			}
		}
		st.newlines = nlBefore + int64(bytes.Count(c, []byte{'\n'}))
		if n > 0 {
			st.lastNL = c[n-1] == '\n'
			if k := lastContentByte(c); k >= 0 {
				st.lastContent = pos + int64(k) + 1
				st.contentLine = int(nlBefore) + bytes.Count(c[:k], []byte{'\n'}) + 1
			}
		}
		pos += int64(n)
		s.size = pos
		if st.tooLong >= 0 && stopTooLong {
			return nil
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			if json && inStr && pos-open > limit {
				found(open, openLine)
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// lineBefore is the 1-based line of offset at, which is in c (at pos) or before it.
func (s *source) lineBefore(at, pos int64, c []byte, nlBefore int64) int {
	if at >= pos {
		return int(nlBefore) + bytes.Count(c[:at-pos], []byte{'\n'}) + 1
	}
	return s.lineAt(at)
}

// trailingSlashes is how many backslashes end b, plus carry when b is all backslashes
// (they continue a run that ended what came before).
func trailingSlashes(b []byte, carry int) int {
	k := len(b)
	for k > 0 && b[k-1] == '\\' {
		k--
	}
	if k == 0 {
		return carry + len(b)
	}
	return len(b) - k
}

// lastContentByte is the index of the last byte of c that is not " \t\r\n", -1 if none.
func lastContentByte(c []byte) int {
	for k := len(c) - 1; k >= 0; k-- {
		switch c[k] {
		case ' ', '\t', '\r', '\n':
		default:
			return k
		}
	}
	return -1
}
