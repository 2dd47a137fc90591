package report

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkWriteHTML renders the report of a synthetic run of 1,500 questions x 3 systems
// (BIRD dev's size) without result tables: what the page itself costs.
func BenchmarkWriteHTML(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "run")
	verdicts := []string{"correct", "incorrect", "error", "correct"}
	diffs := []string{"simple", "moderate", "challenging"}
	var systems []sys
	for s := 0; s < 3; s++ {
		var recs []map[string]any
		for i := 0; i < 1500; i++ {
			recs = append(recs, rec(i%26, diffs[i%3], verdicts[(i+s)%4],
				"SELECT name FROM items WHERE id < 3", fmt.Sprintf("SELECT name FROM items WHERE id < %d", i),
				"index", i, "total_tokens", 1000+s*500, "etm", (i+s)%2, "esm", i%2))
		}
		systems = append(systems, sys{fmt.Sprintf("sys%d", s), recs})
	}
	writeRun(b, dir, "", systems...)
	run := loadFixture(b, dir)
	var size int
	b.ResetTimer()
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteHTML(context.Background(), &buf, run, HTMLOptions{NoExec: true}); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size)/1e6, "MB/report")
}
