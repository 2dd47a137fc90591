package testutil

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// ReadTSV reads a reference verdict file (a header line, then tab-separated rows) and
// returns each row as a map from column name to value. Missing trailing fields are absent.
func ReadTSV(tb testing.TB, path string) []map[string]string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	var head []string
	var out []map[string]string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if head == nil {
			head = fields
			continue
		}
		row := make(map[string]string, len(head))
		for i, h := range head {
			if i < len(fields) {
				row[h] = fields[i]
			}
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return out
}
