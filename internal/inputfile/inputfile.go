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

func readCapped(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced or grown since Stat: check what was opened, and
	// never read more than the cap whatever happens.
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
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
