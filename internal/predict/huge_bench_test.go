package predict

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hugeFiles writes the attack shapes of a prediction file: a million tiny items as
// records (a JSON array of objects), BIRD JSON and a SQL list.
func hugeFiles(tb testing.TB, n int) map[string]string {
	tb.Helper()
	shapes := map[string]func(i int) string{
		"records": func(i int) string { return fmt.Sprintf(`{"question_id": %d, "PREDICTED_SQL": "SELECT 1"}`, i) },
		"bird":    func(i int) string { return fmt.Sprintf(`"%d": "SELECT 1\t----- bird -----\tdb"`, i) },
		"list":    func(i int) string { return fmt.Sprintf(`"SELECT %d"`, i) },
	}
	dir := tb.TempDir()
	out := map[string]string{}
	for name, item := range shapes {
		var b strings.Builder
		open, end := "[", "]\n"
		if name == "bird" {
			open, end = "{", "}\n"
		}
		b.WriteString(open)
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(item(i))
		}
		b.WriteString(end)
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		out[name] = p
	}
	return out
}

// BenchmarkReadPredictionsHuge reads a million-item prediction file of each JSON shape
// (about 17-56 MB): what a hostile or broken file costs the reader, with Read (no bound:
// the whole file is read) and with ReadFor a 5-question dataset (eval's way: refused at
// ItemBound). Run with -benchtime=1x; B/op is the memory allocated, input-MB the file's
// size.
func BenchmarkReadPredictionsHuge(b *testing.B) {
	files := hugeFiles(b, 1_000_000)
	for _, name := range []string{"records", "bird", "list"} {
		b.Run(name, func(b *testing.B) {
			st, err := os.Stat(files[name])
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read(files[name]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(st.Size())/1e6, "input-MB")
		})
		b.Run(name+"/bounded", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ReadFor(files[name], 5); !errors.Is(err, ErrTooMany) {
					b.Fatalf("err %v, want ErrTooMany", err)
				}
			}
		})
	}
}
