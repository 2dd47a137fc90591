package judge

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pyrepr"
)

// ResultCSV writes a query result as evaluate.py's SQL mode does before judging it:
// pandas.read_sql_query builds a DataFrame (a column of ints with a NULL becomes
// float64, so 3 is written 3.0) and to_csv writes it (NULL and the empty string both as
// an empty field, floats as Python's repr, bytes as b'...', fields with a comma, quote
// or line break quoted). Reading that text back with pandascsv gives the table
// evaluate.py compares, including its loss: an empty string reads as NaN. (A
// one-column row holding NULL is written "" by Python's csv module, so it is not a
// blank line and is not skipped.)
func ResultCSV(res *engine.Result) []byte {
	var b bytes.Buffer
	for i, c := range res.Columns {
		if i > 0 {
			b.WriteByte(',')
		}
		writeCSVField(&b, c)
	}
	b.WriteByte('\n')
	asFloat := make([]bool, len(res.Columns))
	for c := range res.Columns {
		ints, floats, nulls, other := 0, 0, 0, 0
		for i := range res.NumRows() {
			switch res.Kind(i, c) {
			case engine.Null:
				nulls++
			case engine.Int:
				ints++
			case engine.Float:
				floats++
			default:
				other++
			}
		}
		// A numeric column with floats, or ints and NULLs, is float64 in pandas.
		asFloat[c] = other == 0 && (floats > 0 || (ints > 0 && nulls > 0))
	}
	var scratch []byte
	for i := range res.NumRows() {
		row := res.Row(i) // one row at a time: the CSV text is the copy this function makes
		if len(row) == 1 && (row[0] == nil || row[0] == "") {
			b.WriteString("\"\"\n")
			continue
		}
		for c, v := range row {
			if c > 0 {
				b.WriteByte(',')
			}
			switch x := v.(type) {
			case nil:
			case int64:
				if asFloat[c] {
					b.Write(pyrepr.AppendFloat(scratch[:0], float64(x)))
				} else {
					b.WriteString(strconv.FormatInt(x, 10))
				}
			case float64:
				b.Write(pyrepr.AppendFloat(scratch[:0], x))
			case string:
				writeCSVField(&b, x)
			case []byte:
				writeCSVField(&b, string(appendPyBytesRepr(nil, string(x))))
			case engine.DecimalText:
				b.WriteString(string(x)) // str(Decimal): an object column, read back as a float
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// writeCSVField writes s as Python's csv module does with QUOTE_MINIMAL.
func writeCSVField(b *bytes.Buffer, s string) {
	if !strings.ContainsAny(s, ",\"\r\n") {
		b.WriteString(s)
		return
	}
	b.WriteByte('"')
	b.WriteString(strings.ReplaceAll(s, `"`, `""`))
	b.WriteByte('"')
}
