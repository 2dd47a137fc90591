package review

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(tb testing.TB, f func()) uint64 {
	tb.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadersBoundMemoryPerByte: labels, reviews and corrections files made to decode
// into far more memory than they hold are refused with an error naming the file, having
// allocated under 50x their size (issue 45: the byte caps did not bound decoding).
func TestReadersBoundMemoryPerByte(t *testing.T) {
	index := func(string) (int, bool) { return 0, true }
	for _, tt := range []struct {
		name string
		data string
		read func(path string) error
		want error
	}{
		{"corrections list of empty objects", "[" + strings.Repeat("{},", 1000000) + "{}]",
			func(p string) error { _, err := ReadCorrections(p, index); return err }, ErrBadCorrection},
		{"corrections list of one-key objects", "[" + strings.Repeat(`{"abcdefghijklmnop":1},`, 300000) + "{}]",
			func(p string) error { _, err := ReadCorrections(p, index); return err }, ErrBadCorrection},
		{"corrections lines of nested arrays", `{"question_id": 1, "sql": "SELECT 1", "note": "` + strings.Repeat("[", 1000000) + "\"}\n" + strings.Repeat("[]", 500000),
			func(p string) error { _, err := ReadCorrections(p, index); return err }, ErrBadCorrection},
		{"labels array of empty objects", "[" + strings.Repeat("{},", 1000000) + "{}]",
			func(p string) error { _, err := ReadLabels(p); return err }, ErrBadLabel},
		{"labels lines of empty arrays", `{"index": 0, "label": "correct"}` + "\n" + strings.Repeat("[]\n", 500000),
			func(p string) error { _, err := ReadLabels(p); return err }, ErrBadLabel},
		{"reviews with nested arrays", strings.Repeat(`{"index": 0, "system": "a", "decision": "accept", "note": "`+strings.Repeat("x", 10)+`"}`+"\n", 10) + strings.Repeat("[[[[[[[[[[]]]]]]]]]]\n", 100000),
			func(p string) error { _, err := Read(p); return err }, ErrBadReview},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "file.json")
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			n := allocated(t, func() { err = tt.read(path) })
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %.200v, want %v naming %s", err, tt.want, path)
			}
			if per := float64(n) / float64(len(tt.data)); per > 50 {
				t.Errorf("allocated %d bytes for a %d-byte file (%.0fx), want under 50x", n, len(tt.data), per)
			}
		})
	}
}
