package safefile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrTornLine reports a last line without its newline: the remains of an interrupted
// write (or a file cut short).
var ErrTornLine = errors.New("last line is incomplete")

// ErrLineTooLong is the error of a JSON Lines line over the reader's cap.
var ErrLineTooLong = errors.New("line is over its size cap")

// MaxLine is the longest line ReadLines accepts by default: far over any record, far
// under what would exhaust memory.
const MaxLine = 64 << 20

// Line is one complete line ReadLines passes on: its number (1-based), its bytes
// trimmed of white space and the newline (valid only during the call), and the offset
// just after its newline.
type Line struct {
	N     int
	Bytes []byte
	End   int64
}

// ReadLines calls fn with every complete, non-blank line of r. It returns the offset where
// the complete lines end. A last line without a newline is not passed to fn: the error
// is then ErrTornLine, and the offset is where a resumed writer truncates. A line over
// maxLine bytes (0: MaxLine) is ErrLineTooLong. fn's error stops the read and is
// returned as it is.
func ReadLines(r io.Reader, maxLine int, fn func(Line) error) (valid int64, err error) {
	return readLines(r, maxLine, false, fn)
}

// ReadTextLines is ReadLines for a file people write by hand (reviews.jsonl), whose last
// line often lacks its newline: that line is passed to fn like the others.
func ReadTextLines(r io.Reader, maxLine int, fn func(Line) error) error {
	_, err := readLines(r, maxLine, true, fn)
	return err
}

func readLines(r io.Reader, maxLine int, lastOK bool, fn func(Line) error) (valid int64, err error) {
	if maxLine <= 0 {
		maxLine = MaxLine
	}
	br := bufio.NewReaderSize(r, 1<<16)
	var long []byte // a line longer than the buffer, assembled
	line := 0
	for {
		chunk, rerr := br.ReadSlice('\n')
		b := chunk
		if rerr == bufio.ErrBufferFull || long != nil {
			long = append(long, chunk...)
			if len(long) > maxLine+1 {
				return valid, fmt.Errorf("line %d: %w (%s)", line+1, ErrLineTooLong, Bytes(int64(maxLine)))
			}
			if rerr == bufio.ErrBufferFull {
				continue
			}
			b = long
		}
		if len(b) > 0 {
			line++
			if b[len(b)-1] != '\n' && !lastOK {
				if len(bytes.TrimSpace(b)) == 0 {
					valid += int64(len(b))
					return valid, nil
				}
				return valid, ErrTornLine
			}
			if len(b) > maxLine+1 {
				return valid, fmt.Errorf("line %d: %w (%s)", line, ErrLineTooLong, Bytes(int64(maxLine)))
			}
			if t := bytes.TrimSpace(b); len(t) > 0 {
				if err := fn(Line{N: line, Bytes: t, End: valid + int64(len(b))}); err != nil {
					return valid, err
				}
			}
			valid += int64(len(b))
		}
		long = nil
		if rerr == io.EOF {
			return valid, nil
		}
		if rerr != nil {
			return valid, rerr
		}
	}
}
