package engine

import "encoding/binary"

// A result's stores grow in chunks rather than by reallocation: appending to a slice of
// a million cells copies it a dozen times over and leaves each smaller copy as garbage,
// which at the peak of a large read can take more memory than the result itself. The
// first chunk grows as a slice does (small results stay small); the others are
// allocated at their full size once.

const (
	chunkShift = 13
	chunkLen   = 1 << chunkShift // cells per chunk: 64 KiB of uint64
	chunkMask  = chunkLen - 1
)

// chunked is an append-only sequence of T in chunks of chunkLen.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

func (c *chunked[T]) append(v T) {
	if c.n&chunkMask == 0 && c.n > 0 || len(c.chunks) == 0 {
		capacity := chunkLen
		if len(c.chunks) == 0 {
			capacity = 8
		}
		c.chunks = append(c.chunks, make([]T, 0, capacity))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.n++
}

func (c *chunked[T]) at(i int) T { return c.chunks[i>>chunkShift][i&chunkMask] }

// truncate drops the elements from n on.
func (c *chunked[T]) truncate(n int) {
	if n >= c.n {
		return
	}
	c.n = n
	k := (n + chunkLen - 1) >> chunkShift // chunks still in use
	c.chunks = c.chunks[:k]
	if k > 0 {
		c.chunks[k-1] = c.chunks[k-1][:n-(k-1)<<chunkShift]
	}
}

// arenaChunk is the size of an arena chunk; a longer value gets a chunk of its own.
const arenaChunk = 64 << 10

// arena holds texts and blobs, each as a uvarint length then its bytes, in chunks that
// are never reallocated once full. A value never spans two chunks; its ref is its chunk
// index << arenaRefShift | its offset in the chunk.
type arena struct {
	chunks [][]byte
}

const arenaRefShift = 40 // offsets within a chunk below 1 TiB; 2^24 chunks

// alloc reserves room for a value of n bytes and returns its ref and where to copy it.
func (a *arena) alloc(n int) (ref uint64, dst []byte) {
	need := binary.MaxVarintLen64 + n
	k := len(a.chunks) - 1
	if k < 0 || len(a.chunks[k])+need > cap(a.chunks[k]) {
		if k >= 0 && len(a.chunks) == 1 && cap(a.chunks[0]) < arenaChunk && len(a.chunks[0])+need <= arenaChunk {
			// The first chunk grows as a slice does, so that a small result stays small.
			a.chunks[0] = append(make([]byte, 0, min(arenaChunk, 2*cap(a.chunks[0])+need)), a.chunks[0]...)
		} else {
			size := max(arenaChunk, need)
			if k < 0 {
				size = max(64, need)
			}
			a.chunks = append(a.chunks, make([]byte, 0, size))
			k++
		}
	}
	c := a.chunks[k]
	off := len(c)
	c = binary.AppendUvarint(c, uint64(n))
	start := len(c)
	c = c[:start+n]
	a.chunks[k] = c
	return uint64(k)<<arenaRefShift | uint64(off), c[start : start+n : start+n]
}

// get returns the bytes of the value at ref.
func (a *arena) get(ref uint64) []byte {
	c := a.chunks[ref>>arenaRefShift]
	off := ref & (1<<arenaRefShift - 1)
	n, k := binary.Uvarint(c[off:])
	start := off + uint64(k)
	return c[start : start+n : start+n]
}
