package safefile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrTooLarge is the error of a file over the size cap its reader allows.
var ErrTooLarge = errors.New("file is over its size cap")

// ErrNotRegular is the error of a path that is not a regular file (a directory, a
// device, a FIFO that would block the reader).
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading if it is a regular file of at most max bytes, and
// returns its size. The size is checked on the open file, so a sparse 20 GB file is
// refused without reading a byte of it.
func Open(path string, max int64) (*os.File, int64, error) {
	// O_NONBLOCK: opening a FIFO does not wait for a writer (it is then refused as not
	// regular, on the open file, so nothing can be swapped in between); on a regular
	// file the flag changes nothing.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("read %s: %w", path, ErrNotRegular)
	}
	if fi.Size() > max {
		f.Close()
		return nil, 0, fmt.Errorf("read %s: %w: %s, the cap is %s", path, ErrTooLarge, Bytes(fi.Size()), Bytes(max))
	}
	return f, fi.Size(), nil
}

// ReadFile reads a regular file of at most max bytes whole. A file that grows past the
// cap while it is read is refused too. A missing file's error matches os.ErrNotExist.
func ReadFile(path string, max int64) ([]byte, error) {
	f, size, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 0, size+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, fmt.Errorf("read %s: %w: it grew past %s while read", path, ErrTooLarge, Bytes(max))
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// Bytes prints a byte count for a message: "20.0 GiB", "64 MiB", "512 B".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %ciB", int64(v), "KMGTPE"[exp])
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[exp])
}

// SHA256 is the hex sha256 of a regular file of at most max bytes, read in a stream.
func SHA256(path string, max int64) (string, error) {
	f, _, err := Open(path, max)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, max+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if n > max {
		return "", fmt.Errorf("read %s: %w: it grew past %s while read", path, ErrTooLarge, Bytes(max))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
