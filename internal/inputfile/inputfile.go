// Package inputfile reads the files a run is given on its command line: datasets,
// prediction files, schema files. It exists so that every reader refuses the same
// things, before reading a byte: a path that is not a regular file (a directory, a
// device such as /dev/zero that never ends, a FIFO that blocks until a writer comes)
// and a file larger than MaxSize, which would be read whole into memory.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxSize is the largest input file read: 1 GiB, ten times BIRD's whole dev set of
// questions and predictions together.
const MaxSize int64 = 1 << 30

// Sentinel errors.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("file too large")
)

// Read returns the contents of the regular file at path (symbolic links followed),
// refusing anything else and any file over MaxSize before reading it.
func Read(path string) ([]byte, error) { return readCapped(path, MaxSize) }

// ReadMax is Read with a smaller cap, for a file that holds one value (a query).
func ReadMax(path string, limit int64) ([]byte, error) { return readCapped(path, min(limit, MaxSize)) }

// File is an input file opened by Open: reads past MaxSize fail with ErrTooLarge (the
// file may grow after it was checked).
type File struct {
	f    *os.File
	r    io.Reader
	Size int64 // the size when opened
}

// Open opens the regular file at path (symbolic links followed) for a reader that
// streams it, refusing what Read refuses before reading a byte.
func Open(path string) (*File, error) { return openCapped(path, MaxSize) }

func openCapped(path string, limit int64) (*File, error) {
	f, st, err := openChecked(path, limit)
	if err != nil {
		return nil, err
	}
	return &File{f: f, r: &capReader{r: f, left: limit, path: path, limit: limit}, Size: st.Size()}, nil
}

func (f *File) Read(p []byte) (int, error) { return f.r.Read(p) }

// ReadAt reads the file at offset off, for a reader that makes several passes over it
// (a prediction file streamed). It is not capped: a caller reads no further than what
// Read already took, which is.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// capReader fails with ErrTooLarge once more than limit bytes were read.
type capReader struct {
	r     io.Reader
	left  int64
	path  string
	limit int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, fmt.Errorf("%s: %w: over the %s cap", c.path, ErrTooLarge, sizeText(c.limit))
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, fmt.Errorf("%s: %w: over the %s cap", c.path, ErrTooLarge, sizeText(c.limit))
	}
	return n, err
}

// openChecked stats path, refuses what check refuses, opens it, and checks what was
// opened again: the file may have been replaced since Stat.
func openChecked(path string, limit int64) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := check(path, st, limit); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

func readCapped(path string, limit int64) ([]byte, error) {
	f, st, err := openChecked(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Never read more than the cap whatever happens (the file may grow).
	data, err := readSized(io.LimitReader(f, limit+1), min(st.Size(), limit)+512)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w: over the %s cap", path, ErrTooLarge, sizeText(limit))
	}
	return data, nil
}

func check(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(st.Mode()))
	}
	if st.Size() > limit {
		return fmt.Errorf("%s: %w: %d bytes, over the %s cap", path, ErrTooLarge, st.Size(), sizeText(limit))
	}
	return nil
}

// kind names what a non-regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

func sizeText(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d-byte", n)
}

// readSized reads r to its end into a buffer first made of size bytes (the file's size
// and a little, as os.ReadFile does): io.ReadAll would regrow its buffer a dozen times
// for a 4 MB dev.json.
func readSized(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, size)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew: let append pick a larger buffer
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
