package record

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc), for tests that bound
// what decoding a hostile file costs per input byte.
func allocated(tb testing.TB, f func()) uint64 {
	tb.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// retained is the heap f leaves live (runtime.MemStats.HeapAlloc after a collection) while
// keep holds what it built.
func retained(tb testing.TB, f func() any) uint64 {
	tb.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep := f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// maxAllocPerByte is what reading a file may allocate per byte it holds (issue 45: peak
// RSS under 50x the file; allocation, garbage included, is stricter than RSS).
const maxAllocPerByte = 50

// TestReadJSONLDenseLines: records files made to decode into far more memory than they
// hold are refused, naming the line, after allocating a bounded multiple of their size.
// A 1 MB file of `{}` lines took 847 MB before (issue 45, failure 1).
func TestReadJSONLDenseLines(t *testing.T) {
	for _, tt := range []struct {
		name string
		data string
	}{
		{"empty objects", strings.Repeat("{}\n", 350000)},
		{"one short key", strings.Repeat(`{"index":1}`+"\n", 100000)},
		{"unknown keys", strings.Repeat(`{"x":[]}`+"\n", 120000)},
		{"nested empty candidates", `{"index":0,"candidates":[` + strings.Repeat(`{},`, 300000) + "{}]}\n"},
		{"nested schema map", `{"index":0,"selected_schema":{` + strings.Repeat(`"a":[],`, 1) + strings.Repeat(`"b":[[],[],[]],`, 1) + `"c":[` + strings.Repeat(`[],`, 300000) + "[]]}}\n"},
		{"empty arrays in a result diff", `{"index":0,"pred_sql":"` + strings.Repeat("x", 100) + `","x":[` + strings.Repeat(`[],`, 400000) + "[]]}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var recs []Record
			var err error
			n := allocated(t, func() { recs, _, err = ReadJSONL(strings.NewReader(tt.data)) })
			if !errors.Is(err, ErrTooDense) || !strings.Contains(err.Error(), "line ") {
				t.Errorf("err = %v, want ErrTooDense naming a line", err)
			}
			if per := float64(n) / float64(len(tt.data)); per > maxAllocPerByte {
				t.Errorf("allocated %d bytes for a %d-byte file (%.0fx), want under %dx", n, len(tt.data), per, maxAllocPerByte)
			}
			_ = recs
		})
	}
}

// TestReadJSONLAtTheLimit: a file just within the bounds (short records, each averaging
// MinRecordBytes) is read, and what it holds in memory is within the same multiple of its
// size (the garbage decoding leaves is collected as it goes).
func TestReadJSONLAtTheLimit(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		line := fmt.Sprintf(`{"index":%d,"question_id":"q%d","verdict":"correct","question":""}`, i, i)
		line = line[:len(line)-2] + strings.Repeat("x", MinRecordBytes-len(line)-1) + "\"}\n"
		b.WriteString(line)
	}
	data := b.String()
	var recs []Record
	var err error
	n := retained(t, func() any { recs, _, err = ReadJSONL(strings.NewReader(data)); return recs })
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(data)/MinRecordBytes {
		t.Errorf("read %d records, want %d", len(recs), len(data)/MinRecordBytes)
	}
	if per := float64(n) / float64(len(data)); per > maxAllocPerByte {
		t.Errorf("%d bytes live for a %d-byte file (%.0fx), want under %dx", n, len(data), per, maxAllocPerByte)
	}
}

// TestWriterShortestLine: the line Writer writes for an empty record is no shorter than
// minWrittenRecord, so MinRecordBytes never refuses a file eval wrote.
func TestWriterShortestLine(t *testing.T) {
	var buf bytes.Buffer
	if err := NewWriter(&buf).Write(&Record{}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() < minWrittenRecord || minWrittenRecord < MinRecordBytes {
		t.Errorf("an empty record's line is %d bytes; minWrittenRecord %d, MinRecordBytes %d", buf.Len(), minWrittenRecord, MinRecordBytes)
	}
}
