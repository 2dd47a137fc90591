package benchrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// Values as EvalBench compares them (quirk ordered_records, tasks_evalbench_official.go):
// each row a record of column name to the value its Python driver returns (sqlite3,
// pg8000, pymysql), compared with Python's ==.

// pyCell is a value's identity under Python's ==: two cells are equal exactly when their
// kinds and texts are, except a NaN, which equals nothing (not even itself: each fetched
// row holds its own float object).
type pyCell struct {
	kind byte   // 'N' None, 'n' a number (int, float, Decimal, bool), 's' str, 'b' bytes, 'j' JSON, or the driver's type for dates, times and the rest
	s    string // canonical text: an exact rational for a number
	nan  bool
}

func (a pyCell) equal(b pyCell) bool { return !a.nan && !b.nan && a.kind == b.kind && a.s == b.s }

// pyRecord is one row as Row._asdict() gives it: a duplicated column name keeps its last
// value.
type pyRecord map[string]pyCell

// pyRecords converts a result's rows on engine d.
func pyRecords(d string, res *taskdb.Result) []pyRecord {
	out := make([]pyRecord, len(res.Rows))
	for i, row := range res.Rows {
		rec := make(pyRecord, len(row))
		for j, v := range row {
			rec[res.Columns[j].Name] = pyCellOf(d, res.Columns[j], v)
		}
		out[i] = rec
	}
	return out
}

// diffRecords compares two ordered lists of records as Python's == does, and says how
// they differ ("" when equal).
func diffRecords(got, want []pyRecord) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, gold %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if len(g) != len(w) {
			return fmt.Sprintf("row %d: %d columns, gold %d (columns are matched by name)", i+1, len(g), len(w))
		}
		names := make([]string, 0, len(w))
		for name := range w {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			gv, ok := g[name]
			if !ok {
				return fmt.Sprintf("row %d: no column named %q (columns are matched by name)", i+1, name)
			}
			if !gv.equal(w[name]) {
				return fmt.Sprintf("row %d (rows in order): column %q differs", i+1, name)
			}
		}
	}
	return ""
}

// pyCellOf is the value Python's driver would return for v, a cell of column c on engine d.
func pyCellOf(d string, c taskdb.Column, v any) pyCell {
	switch x := v.(type) {
	case nil:
		return pyCell{kind: 'N'}
	case int64:
		return pyCell{kind: 'n', s: strconv.FormatInt(x, 10)}
	case float64:
		return floatCell(x)
	case []byte:
		return pyCell{kind: 'b', s: string(x)}
	case time.Time:
		return pyCell{kind: 't', s: x.Format(time.RFC3339Nano)}
	case string:
		switch d {
		case "postgres":
			return pgCell(c, x)
		case "mysql":
			return myCell(c, x)
		}
		return pyCell{kind: 's', s: x} // sqlite3: str
	}
	return pyCell{kind: 's', s: fmt.Sprint(v)}
}

// floatCell is a Python float: by its exact value, which an int or a Decimal of the same
// value equals.
func floatCell(f float64) pyCell {
	if math.IsNaN(f) {
		return pyCell{kind: 'n', nan: true}
	}
	if math.IsInf(f, 0) {
		return pyCell{kind: 'n', s: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	return pyCell{kind: 'n', s: new(big.Rat).SetFloat64(f).RatString()}
}

// decimalCell is a Python int or Decimal read from its text: by its exact value.
func decimalCell(s string) pyCell {
	switch strings.ToLower(s) {
	case "nan":
		return pyCell{kind: 'n', nan: true}
	case "infinity", "inf":
		return pyCell{kind: 'n', s: "+Inf"}
	case "-infinity", "-inf":
		return pyCell{kind: 'n', s: "-Inf"}
	}
	if r, ok := new(big.Rat).SetString(s); ok {
		return pyCell{kind: 'n', s: r.RatString()}
	}
	return pyCell{kind: 's', s: s}
}

func floatTextCell(s string) pyCell {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return decimalCell(s) // NaN, Infinity
	}
	return floatCell(f)
}

// pgCell is what pg8000 returns for a PostgreSQL value's text, by the column's type OID.
func pgCell(c taskdb.Column, s string) pyCell {
	switch c.OID {
	case 16: // bool: True == 1
		if s == "t" {
			return pyCell{kind: 'n', s: "1"}
		}
		return pyCell{kind: 'n', s: "0"}
	case 20, 21, 23, 26, 28, 29, 1700: // ints, oid, xid, numeric (Decimal)
		return decimalCell(s)
	case 700, 701: // float4, float8: Python float of the text
		return floatTextCell(s)
	case 114, 3802: // json, jsonb: parsed
		return jsonCell(s)
	case 17:
		return pyCell{kind: 'b', s: s}
	case 1082:
		return pyCell{kind: 'd', s: s} // date
	case 1083, 1266:
		return pyCell{kind: 'T', s: s} // time, timetz
	case 1114:
		return pyCell{kind: 't', s: s} // naive datetime
	case 1184:
		return pyCell{kind: 'z', s: s} // aware datetime: never equal to a naive one
	case 1186:
		return pyCell{kind: 'i', s: s} // interval
	case 2950:
		return pyCell{kind: 'u', s: s} // uuid.UUID
	}
	if strings.HasPrefix(s, "{") && c.Type != "" && strings.HasPrefix(c.Type, "_") {
		return pyCell{kind: 'a', s: s} // an array (a list in pg8000): by its text
	}
	return pyCell{kind: 's', s: s} // text types, enums and anything pg8000 returns as str
}

// myCell is what pymysql returns for a MySQL value's text, by the column's type.
func myCell(c taskdb.Column, s string) pyCell {
	t := c.Type
	switch {
	case strings.Contains(t, "decimal") || strings.Contains(t, "int") || t == "year":
		return decimalCell(s)
	case strings.Contains(t, "float") || strings.Contains(t, "double"):
		return floatTextCell(s)
	case t == "date":
		return pyCell{kind: 'd', s: s}
	case t == "datetime" || t == "timestamp":
		return pyCell{kind: 't', s: trimFraction(s)}
	case t == "time":
		return pyCell{kind: 'i', s: trimFraction(s)} // datetime.timedelta
	}
	return pyCell{kind: 's', s: s}
}

// trimFraction drops a fractional second's trailing zeros: DATETIME(6) and DATETIME give
// the same datetime in Python.
func trimFraction(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 && !strings.ContainsAny(s[i:], " -:") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// jsonCell is a JSON value as json.loads gives it, compared as Python compares the
// result: objects by their keys (the last of a duplicate), numbers and booleans by value.
func jsonCell(s string) pyCell {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return pyCell{kind: 's', s: s}
	}
	var b bytes.Buffer
	canonJSON(&b, v)
	return pyCell{kind: 'j', s: b.String()}
}

func canonJSON(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("n1")
		} else {
			b.WriteString("n0")
		}
	case json.Number:
		c := decimalCell(string(x))
		if strings.ContainsAny(string(x), ".eE") {
			c = floatTextCell(string(x)) // a JSON float is a Python float
		}
		b.WriteString("n" + c.s)
	case string:
		b.WriteString(strconv.Quote(x))
	case []any:
		b.WriteByte('[')
		for _, e := range x {
			canonJSON(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(k) + ":")
			canonJSON(b, x[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	}
}

// schemaRecords is EvalBench's get_metadata() of a ddl task's copy, as records of table,
// column and type in table order then column order (the dict of tables compares without
// order; sorting both sides by table name gives the same verdict).
func schemaRecords(d string, res *taskdb.Result) []pyRecord {
	out := make([]pyRecord, 0, len(res.Rows))
	for _, row := range res.Rows {
		typ := fmt.Sprint(row[2])
		if d == "sqlite" {
			typ = sqliteReflectedType(typ)
		}
		out = append(out, pyRecord{"table": {kind: 's', s: fmt.Sprint(row[0])},
			"name": {kind: 's', s: fmt.Sprint(row[1])}, "type": {kind: 's', s: typ}})
	}
	return out
}

var sqliteTypeRE = regexp.MustCompile(`^([\w ]+)(\(.*?\))?`)

// sqliteReflectedType is str(column.type) of a column SQLAlchemy reflects from SQLite
// with the declared type decl (its _resolve_type_affinity; measured with SQLAlchemy
// 1.4.46): INT and INTEGER are both INTEGER, CLOB is TEXT, an unknown name falls to the
// affinity rules (INT, then CHAR/CLOB/TEXT, then BLOB or nothing, then REAL/FLOA/DOUB,
// else NUMERIC), and lengths are kept where the type takes one.
func sqliteReflectedType(decl string) string {
	m := sqliteTypeRE.FindStringSubmatch(strings.ToUpper(decl))
	name, args := "", ""
	if m != nil {
		name, args = m[1], m[2]
	}
	var out string
	withArgs := false
	switch name {
	case "BIGINT", "SMALLINT", "BLOB", "DATE", "DATETIME", "TIME", "TIMESTAMP", "JSON", "REAL":
		out = name
	case "INT", "INTEGER":
		out = "INTEGER"
	case "BOOL", "BOOLEAN":
		out = "BOOLEAN"
	case "DOUBLE", "FLOAT":
		out = "FLOAT"
	case "CHAR", "VARCHAR", "NCHAR", "NVARCHAR", "TEXT", "NUMERIC", "DECIMAL":
		out, withArgs = name, true
	default:
		switch {
		case strings.Contains(name, "INT"):
			out = "INTEGER"
		case strings.Contains(name, "CHAR") || strings.Contains(name, "CLOB") || strings.Contains(name, "TEXT"):
			out, withArgs = "TEXT", true
		case strings.Contains(name, "BLOB") || name == "":
			out = "NULL"
		case strings.Contains(name, "REAL") || strings.Contains(name, "FLOA") || strings.Contains(name, "DOUB"):
			out = "REAL"
		default:
			out, withArgs = "NUMERIC", true
		}
	}
	if withArgs && args != "" {
		nums := regexp.MustCompile(`\d+`).FindAllString(args, -1)
		if len(nums) > 0 {
			if out == "NUMERIC" || out == "DECIMAL" {
				nums = nums[:min(len(nums), 2)]
			} else {
				nums = nums[:1]
			}
			out += "(" + strings.Join(nums, ", ") + ")"
		}
	}
	return out
}
