package export

import (
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pyrepr"
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
		return pyrepr.Float(x)
	case string:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	}
	return fmt.Sprint(v)
}
