package pandascsv

import (
	"math"
	"strings"
)

// naStrings are read_csv's default na_values (pandas 1.5: "None" is not one of them).
var naStrings = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true,
	"NA": true, "NULL": true, "NaN": true, "n/a": true, "nan": true, "null": true,
}

// isNA is naStrings[s] with a fast refusal: every NA string is at most 8 bytes and
// starts with one of "#-1<Nn".
func isNA(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > 8 {
		return false
	}
	switch s[0] {
	case '#', '-', '1', '<', 'N', 'n':
		return naStrings[s]
	}
	return false
}

// convert infers one column's dtype from its raw fields in pandas' order (int64, then
// uint64 when an int overflowed, float64, bool, object) and converts its cells.
func convert(raw []string) Column {
	if len(raw) == 0 {
		return Column{DType: Object, Values: []Value{}}
	}
	switch intScan(raw) {
	case intOK:
		vals := make([]Value, len(raw))
		for i, s := range raw {
			v, _ := parseInt(s)
			vals[i] = Value{Type: Int, I: v}
		}
		return Column{DType: Int64, Values: vals}
	case intOverflow:
		// pandas retries the column as uint64. An overflow there, or a negative
		// overflow, reads it as object; ints mixed with NaN or negative ints are kept as
		// the raw strings, NA strings included (what pandas 1.5 does).
		if c, ok := uintColumn(raw); ok {
			return c
		}
	}
	if c, ok := floatColumn(raw); ok {
		return c
	}
	if c, ok := boolColumn(raw); ok {
		return c
	}
	return objectColumn(raw, true)
}

type intResult uint8

const (
	intOK       intResult = iota // every field an int64 (no NA)
	intValue                     // a field is not an int, or a field is NA: try float
	intOverflow                  // an int field overflows int64 before any non-int field
)

// intScan is pandas' int64 attempt: fields in order, NA counted, the first field that is
// not an int64 decides.
func intScan(raw []string) intResult {
	na := false
	for _, s := range raw {
		if isNA(s) {
			na = true
			continue
		}
		if _, r := parseInt(s); r != intOK {
			return r
		}
	}
	if na {
		return intValue
	}
	return intOK
}

// parseInt reads an int64 as pandas' str_to_int64: spaces and tabs around it, an
// optional sign, decimal digits only.
func parseInt(s string) (int64, intResult) {
	t := strings.Trim(s, " \t")
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg = t[0] == '-'
		t = t[1:]
	}
	u, r := parseDigits(t)
	if r != intOK {
		return 0, r
	}
	if neg {
		if u > 1<<63 {
			return 0, intOverflow
		}
		return -int64(u), intOK
	}
	if u > math.MaxInt64 {
		return 0, intOverflow
	}
	return int64(u), intOK
}

// uintColumn is pandas' uint64 retry after an int64 overflow; ok is false when the
// column goes on to the float attempt.
func uintColumn(raw []string) (Column, bool) {
	vals := make([]Value, len(raw))
	sawNull, sawNeg := false, false
	for i, s := range raw {
		if isNA(s) {
			sawNull = true
			continue
		}
		t := strings.Trim(s, " \t")
		if strings.HasPrefix(t, "-") {
			if _, r := parseInt(s); r == intValue {
				return Column{}, false
			} else if r == intOverflow {
				return objectColumn(raw, true), true
			}
			sawNeg = true
			continue
		}
		u, r := parseUint(t)
		switch r {
		case intValue:
			return Column{}, false
		case intOverflow:
			return objectColumn(raw, true), true
		}
		vals[i] = Value{Type: Uint, U: u}
	}
	if sawNull || sawNeg {
		return objectColumn(raw, false), true
	}
	for i := range vals {
		if vals[i].U <= math.MaxInt64 {
			vals[i] = Value{Type: Int, I: int64(vals[i].U)}
		}
	}
	return Column{DType: Uint64, Values: vals}, true
}

func parseUint(t string) (uint64, intResult) {
	return parseDigits(strings.TrimPrefix(t, "+"))
}

// parseDigits reads t, decimal digits only, as a uint64. A non-digit anywhere is a value
// error even after an overflow, as in pandas.
func parseDigits(t string) (uint64, intResult) {
	if t == "" {
		return 0, intValue
	}
	var u uint64
	over := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return 0, intValue
		}
		d := uint64(c - '0')
		if u > (math.MaxUint64-d)/10 {
			over = true
		}
		u = u*10 + d
	}
	if over {
		return 0, intOverflow
	}
	return u, intOK
}

// floatColumn is pandas' float64 attempt: every field NA or a number.
func floatColumn(raw []string) (Column, bool) {
	vals := make([]Value, len(raw))
	for i, s := range raw {
		if isNA(s) {
			continue
		}
		f, ok := parseFloat(s)
		if !ok {
			return Column{}, false
		}
		vals[i] = Value{Type: Float, F: f}
	}
	return Column{DType: Float64, Values: vals}, true
}

// boolColumn is pandas' bool attempt; a bool column with NaN is an object column of
// bools and NaN.
func boolColumn(raw []string) (Column, bool) {
	vals := make([]Value, len(raw))
	na := false
	for i, s := range raw {
		switch {
		case isNA(s):
			na = true
		case s == "True" || s == "TRUE" || s == "true":
			vals[i] = Value{Type: Bool, I: 1}
		case s == "False" || s == "FALSE" || s == "false":
			vals[i] = Value{Type: Bool}
		default:
			return Column{}, false
		}
	}
	if na {
		return Column{DType: Object, Values: vals}, true
	}
	return Column{DType: BoolType, Values: vals}, true
}

// objectColumn keeps every field as a str; with naFilter NA strings read as NaN.
func objectColumn(raw []string, naFilter bool) Column {
	vals := make([]Value, len(raw))
	for i, s := range raw {
		if naFilter && isNA(s) {
			continue
		}
		vals[i] = Value{Type: Str, S: s}
	}
	return Column{DType: Object, Values: vals}
}
