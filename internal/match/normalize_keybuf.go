package match

import (
	"bytes"
	"sync"
)

// keyBuf is where keys are printed. Keys are printed many times per query (the fixpoint
// test of every round, commutative operands, sorted lists), mostly only to be compared:
// the buffers are pooled, and a key becomes a string only when it is kept.
type keyBuf []byte

func (b *keyBuf) WriteString(s string) { *b = append(*b, s...) }
func (b *keyBuf) WriteByte(c byte) error {
	*b = append(*b, c)
	return nil
}

var keyBufs = sync.Pool{New: func() any { b := make(keyBuf, 0, 512); return &b }}

func getKeyBuf() *keyBuf {
	b := keyBufs.Get().(*keyBuf)
	*b = (*b)[:0]
	return b
}

// putKeyBuf returns b to the pool unless a huge query grew it (an IN list of 180,000
// values): that memory is let go.
func putKeyBuf(b *keyBuf) {
	if cap(*b) <= 64<<10 {
		keyBufs.Put(b)
	}
}

// keyLess reports whether a.key() < b.key() without keeping either.
func keyLess(a, b *enode) bool {
	buf := getKeyBuf()
	defer putKeyBuf(buf)
	a.write(buf)
	n := len(*buf)
	b.write(buf)
	return bytes.Compare((*buf)[:n], (*buf)[n:]) < 0
}
