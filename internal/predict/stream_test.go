package predict

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// peakHeap runs f and returns the largest live heap seen while it ran, above what was
// live before, sampled every 200 µs with the collector run at a tenth of its usual
// growth, so the heap follows what is held rather than garbage.
func peakHeap(tb testing.TB, f func()) uint64 {
	tb.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	done, peakc := make(chan struct{}), make(chan uint64)
	go func() {
		peak := base
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				peakc <- max(peak, read())
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	return <-peakc - base
}

// TestReadStreams: a prediction file is streamed, never held whole. Each shape is a file
// of predictions that are all kept, so the live heap reaches at least the file's size;
// reading the file whole first (the old way: a 1.03 GB file peaked at 2.04 GB) held
// twice that and more (2.0 to 2.8 times in this test). The bound is 1.6 times the file,
// on the largest live heap sampled while reading with the collector made eager.
// Not parallel: the measure is the process's.
func TestReadStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads 16 MB files")
	}
	const lines, size = 16, 1 << 20
	sql := "SELECT '" + strings.Repeat("a", size-9) + "'"
	dir := t.TempDir()
	join := func(open, sep, end string, item func(i int) string) string {
		items := make([]string, lines)
		for i := range items {
			items[i] = item(i)
		}
		return open + strings.Join(items, sep) + end
	}
	shapes := []struct {
		name, text string
		read       func(path string) (int, error)
	}{
		{"spider", join("", "\n", "\n", func(int) string { return sql }), nil},
		{"bird", join("{", ",\n", "}\n", func(i int) string { return fmt.Sprintf(`"%d": "%s\t----- bird -----\tdb"`, i, sql) }), nil},
		{"list", join("[", ",\n", "]\n", func(int) string { return `"` + sql + `"` }), nil},
		{"records", join("", "\n", "\n", func(i int) string { return fmt.Sprintf(`{"question_id": %d, "PREDICTED_SQL": "%s"}`, i, sql) }), nil},
		{"task", join("", "\n", "\n", func(i int) string { return fmt.Sprintf(`{"instance_id": %d, "pred_sqls": ["%s"]}`, i, sql) }),
			func(path string) (int, error) { m, err := ReadTaskPreds(path); return len(m), err }},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			p := filepath.Join(dir, sh.name)
			if err := os.WriteFile(p, []byte(sh.text), 0o644); err != nil {
				t.Fatal(err)
			}
			read := sh.read
			if read == nil {
				read = func(path string) (int, error) { s, err := ReadFor(path, 5); return len(s.Items), err }
			}
			var n int
			peak := peakHeap(t, func() {
				var err error
				if n, err = read(p); err != nil || n != lines {
					t.Fatalf("read %d predictions, want %d: %v", n, lines, err)
				}
			})
			perByte := float64(peak) / float64(len(sh.text))
			if perByte > 1.6 {
				t.Errorf("reading a %d-byte file held up to %d bytes (%.2f a byte), over 1.6 a byte", len(sh.text), peak, perByte)
			}
			t.Logf("%d-byte file: up to %d bytes held (%.2f a byte)", len(sh.text), peak, perByte)
		})
	}
}

// TestReadRecordsNotCopied: each record of a records file was decoded from a copy of
// its bytes (json.RawMessage), so a 16 MiB record was in memory twice while it was
// decoded, and a file of them allocated twice its size besides the decoders' buffers
// (2.85 bytes a byte here): peak RSS 1.35 GB for a 1.02 GB file of 61 such records. It
// is now decoded straight from the file's decoder: the allocations are the SQL kept
// (the file's size) and the buffers (about 0.8 a byte here, the same for any number of
// records), under 2.3 a byte. Not parallel: the count is the process's.
func TestReadRecordsNotCopied(t *testing.T) {
	const lines, size = 16, 1 << 20
	sql := "SELECT '" + strings.Repeat("a", size-9) + "'"
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, `{"question_id": %d, "db_id": "d", "PREDICTED_SQL": "%s", "total_tokens": 3}`+"\n", i, sql)
	}
	p := filepath.Join(t.TempDir(), "records.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	set, err := ReadFor(p, lines)
	runtime.ReadMemStats(&after)
	if err != nil || len(set.Items) != lines {
		t.Fatalf("read %v, want %d predictions: %v", set, lines, err)
	}
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.Len())
	if perByte > 2.3 {
		t.Errorf("reading a %d-byte records file allocated %.2f bytes a byte, over 2.3", b.Len(), perByte)
	}
	t.Logf("%d-byte records file: %.2f bytes allocated a byte", b.Len(), perByte)
}
