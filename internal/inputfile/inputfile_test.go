package inputfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.txt")
	if err := os.WriteFile(small, []byte("SELECT 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// A sparse file one byte over the cap: refused from its size, never read.
	huge := filepath.Join(dir, "huge.txt")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(small, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       error  // nil: reads "SELECT 1\n"
		msg        string // in the error
	}{
		{"regular file", small, nil, ""},
		{"symbolic link to a regular file", link, nil, ""},
		{"endless device", "/dev/zero", ErrNotRegular, "a device"},
		{"named pipe (would block)", fifo, ErrNotRegular, "a named pipe"},
		{"directory", dir, ErrNotRegular, "a directory"},
		{"over the cap", huge, ErrTooLarge, "1 GiB"},
		{"missing", filepath.Join(dir, "nope"), os.ErrNotExist, "nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := Read(tc.path)
			if tc.want == nil {
				if err != nil || string(data) != "SELECT 1\n" {
					t.Fatalf("Read = %q, %v", data, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Read err = %v, want %v naming %q", err, tc.want, tc.msg)
			}
		})
	}
}

// TestReadCapped: the cap holds at any size, named in the error.
func TestReadCapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readCapped(p, 9); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "9-byte cap") {
		t.Errorf("readCapped(10 bytes, 9) = %v, want ErrTooLarge naming the cap", err)
	}
	if b, err := readCapped(p, 10); err != nil || len(b) != 10 {
		t.Errorf("readCapped(10 bytes, 10) = %d bytes, %v", len(b), err)
	}
}

// errAfter yields its data, then err.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		return n, e.err
	}
	return n, err
}

// TestReadSized: whatever the first buffer's size (smaller than the data: a file that grew
// after Stat; exact; larger), all of the data comes back, and a read error is returned.
func TestReadSized(t *testing.T) {
	data := strings.Repeat("0123456789", 300)
	for _, size := range []int64{0, 1, 511, int64(len(data)), int64(len(data)) + 512, 1 << 16} {
		got, err := readSized(iotest.OneByteReader(strings.NewReader(data)), size)
		if err != nil || string(got) != data {
			t.Errorf("readSized(size %d) = %d bytes, %v; want all %d", size, len(got), err, len(data))
		}
	}
	boom := errors.New("disk gone")
	if _, err := readSized(&errAfter{strings.NewReader(data), boom}, 100); !errors.Is(err, boom) {
		t.Errorf("readSized with a failing reader: %v, want %v", err, boom)
	}
}

// TestOpenStreamsUnderTheCap: Open refuses what Read refuses, and a file that grows past
// the cap after it was opened fails on the read that passes it, naming the file.
func TestOpenStreamsUnderTheCap(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "grows.csv")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openCapped(p, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(p, []byte("0123456789abcdefXYZ"), 0o644); err != nil { // grows after the check
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), p) || len(data) > 17 {
		t.Fatalf("read %d bytes, err %v; want at most the cap and %v naming the file", len(data), err, ErrTooLarge)
	}
	for _, bad := range []string{dir, "/dev/zero"} {
		if _, err := Open(bad); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Open(%s): %v, want %v", bad, err, ErrNotRegular)
		}
	}
}
