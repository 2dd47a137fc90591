// Package termsafe keeps text from data (questions, SQL, error messages, system names,
// file names) from driving the terminal it is printed on: an escape sequence in a
// question must not retitle, clear or rewrite the user's terminal. Escape writes every
// control character visibly; Writer applies it to everything written through it, so the
// command line wraps its stdout and stderr once and every line is safe.
package termsafe

import (
	"io"
	"sync"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

func appendCode(b []byte, c byte) []byte {
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// appendEscaped appends p to b escaped (see Escape).
func appendEscaped(b, p []byte) []byte {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
			b = appendCode(b, c)
		case c == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f: // a C1 control in UTF-8
			b = appendCode(b, p[i+1])
			i++
		default:
			b = append(b, c)
		}
	}
	return b
}

// Writer escapes (Escape) everything written through it to the writer it wraps.
// It is safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	pending bool // the last write ended in 0xc2, the first byte of a C1 control
	buf     []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Unwrap is the writer underneath, for output of our own that drives the terminal on
// purpose (a progress bar's carriage returns).
func (w *Writer) Unwrap() io.Writer { return w.w }

// Write writes p escaped; it reports len(p) written when the escaped bytes were.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf[:0]
	in := p
	if w.pending {
		in = append([]byte{0xc2}, p...)
		w.pending = false
	}
	if n := len(in); n > 0 && in[n-1] == 0xc2 && !utf8.FullRune(in[n-1:]) {
		// Held back: the next write says whether it starts a C1 control.
		in, w.pending = in[:n-1], true
	}
	b = appendEscaped(b, in)
	w.buf = b
	if _, err := w.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a byte held back at the end of the last write.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.pending {
		return nil
	}
	w.pending = false
	_, err := w.w.Write([]byte{0xc2})
	return err
}
