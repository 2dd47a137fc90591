package export

import (
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// WriteCSV writes a query result as CSV with a header row of column names, as the
// Couchbase NL2SQL++ benchmark stores its gold results: NULL is an empty field, reals
// are written as Python prints them (1.0, 0.1, 1e-05), blobs in base64.
func WriteCSV(w io.Writer, res *engine.Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(res.Columns); err != nil {
		return fmt.Errorf("write csv header: %w", err)
	}
	rec := make([]string, len(res.Columns))
	for i := range res.NumRows() {
		r := res.Row(i)
		for j, v := range r {
			rec[j] = csvField(v)
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("write csv row %d: %w", i+1, err)
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvField(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return pyFloat(x)
	case string:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	}
	return fmt.Sprint(v)
}

// pyFloat formats f as Python's repr does: shortest round-trip digits, positional
// between 1e-4 and 1e16 (with ".0" when integral), scientific outside.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	a := math.Abs(f)
	if f != 0 && (a < 1e-4 || a >= 1e16) {
		s := strconv.FormatFloat(f, 'e', -1, 64) // 1e-05 -> "1e-05", 1.5e+16
		return s
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}
