package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestReadLines(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // longer than the reader's buffer
	tests := []struct {
		name  string
		in    string
		max   int
		lines []string
		valid int64
		err   error
	}{
		{"complete", "a\n\nb\n", 0, []string{"a", "b"}, 5, nil},
		{"torn last line", "a\nb", 0, []string{"a"}, 2, ErrTornLine},
		{"torn but blank", "a\n  ", 0, []string{"a"}, 4, nil},
		{"long line", long + "\n", 0, []string{long}, int64(len(long) + 1), nil},
		{"long torn line", "a\n" + long, 0, []string{"a"}, 2, ErrTornLine},
		{"over the cap", "a\n" + long + "\n", 1 << 10, []string{"a"}, 2, ErrLineTooLong},
		{"empty", "", 0, nil, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			valid, err := ReadLines(strings.NewReader(tc.in), tc.max, func(l Line) error {
				got = append(got, string(l.Bytes))
				return nil
			})
			if !errors.Is(err, tc.err) || (err != nil) != (tc.err != nil) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if valid != tc.valid || fmt.Sprint(got) != fmt.Sprint(tc.lines) {
				t.Errorf("valid %d lines %.40q, want %d %.40q", valid, got, tc.valid, tc.lines)
			}
		})
	}
	// A hand-written file's last line without its newline is a line.
	var got []string
	if err := ReadTextLines(strings.NewReader("a\nb"), 0, func(l Line) error { got = append(got, string(l.Bytes)); return nil }); err != nil || fmt.Sprint(got) != "[a b]" {
		t.Errorf("ReadTextLines: %v %q", err, got)
	}
	// Line.End is where the line ends, newline included.
	var ends []int64
	ReadLines(strings.NewReader("ab\n\ncd\n"), 0, func(l Line) error { ends = append(ends, l.End); return nil })
	if fmt.Sprint(ends) != "[3 7]" {
		t.Errorf("ends %v", ends)
	}
}

func TestReadFileCap(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	if b, err := ReadFile(p, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("at the cap: %q %v", b, err)
	}
	_, err := ReadFile(p, 9)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "the cap is 9 B") {
		t.Errorf("over the cap: %v", err)
	}
	sparse := filepath.Join(dir, "sparse")
	f, _ := os.Create(sparse)
	if err := f.Truncate(20 << 30); err != nil {
		t.Skip("no sparse files")
	}
	f.Close()
	if _, err := ReadFile(sparse, 1<<20); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "20 GiB") {
		t.Errorf("sparse 20 GiB: %v", err)
	}
	if _, err := SHA256(sparse, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("hash of sparse 20 GiB: %v", err)
	}
	if _, err := ReadFile(dir, 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// TestWriteConcurrent: writers of one path never share a temp file, the result is one
// writer's whole contents, and no temp file is left behind.
func TestWriteConcurrent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "summary.json")
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := WriteFile(p, []byte(strings.Repeat(fmt.Sprint(i%10), 100_000))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(p)
	if len(b) != 100_000 || strings.Count(string(b), string(b[:1])) != 100_000 {
		t.Errorf("mixed contents: %d bytes", len(b))
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 {
		t.Errorf("left behind: %v", names)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
	// A failed write leaves the old file and no temp file.
	if err := Write(p, func(w io.Writer) error { w.Write([]byte("half")); return errors.New("boom") }); err == nil {
		t.Error("no error")
	}
	if b2, _ := os.ReadFile(p); string(b2) != string(b) {
		t.Error("a failed write changed the file")
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("a failed write left %v", names)
	}
}
