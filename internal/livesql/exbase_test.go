package livesql

import (
	"errors"
	"math/big"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// pg builds rows from PostgreSQL text cells of the given types (nil is NULL).
func pg(t *testing.T, types []string, cells ...[]any) [][]Value {
	t.Helper()
	res := &taskdb.Result{HasRows: true, Rows: cells}
	for _, ty := range types {
		res.Columns = append(res.Columns, taskdb.Column{Name: ty, Type: ty})
	}
	rows, err := FromPostgres(res)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func row(c ...any) []any { return c }

func TestCompare(t *testing.T) {
	cases := []struct {
		name       string
		ptype      []string
		pred       [][]any
		gtype      []string
		gold       [][]any
		order      bool
		want       bool
		pythonFail bool // ex_base raises: the test case fails
	}{
		{"equal", []string{"int4"}, [][]any{row("1")}, []string{"int4"}, [][]any{row("1")}, false, true, false},
		{"both empty fails", []string{"int4"}, nil, []string{"int4"}, nil, false, false, false},
		{"duplicates do not count without order", []string{"int4"}, [][]any{row("1"), row("1"), row("2")}, []string{"int4"}, [][]any{row("2"), row("1")}, false, true, false},
		{"order matters when asked", []string{"int4"}, [][]any{row("1"), row("2")}, []string{"int4"}, [][]any{row("2"), row("1")}, true, false, false},
		{"ordered duplicates count", []string{"int4"}, [][]any{row("1"), row("1")}, []string{"int4"}, [][]any{row("1")}, true, false, false},
		{"numeric rounds half up to 2", []string{"numeric"}, [][]any{row("2.675")}, []string{"numeric"}, [][]any{row("2.68")}, false, true, false},
		{"numeric negative half up", []string{"numeric"}, [][]any{row("-0.125")}, []string{"numeric"}, [][]any{row("-0.13")}, false, true, false},
		{"float rounds on its binary value", []string{"float8"}, [][]any{row("2.675")}, []string{"float8"}, [][]any{row("2.67")}, false, true, false},
		{"rounded float is not the rounded numeric", []string{"float8"}, [][]any{row("2.675")}, []string{"numeric"}, [][]any{row("2.67")}, false, false, false},
		{"float equals numeric only exactly", []string{"float8"}, [][]any{row("0.1")}, []string{"numeric"}, [][]any{row("0.10")}, false, false, false},
		{"int equals numeric", []string{"int8"}, [][]any{row("3")}, []string{"numeric"}, [][]any{row("3.000")}, false, true, false},
		{"bool equals 1", []string{"bool"}, [][]any{row("t")}, []string{"int4"}, [][]any{row("1")}, false, true, false},
		{"timestamp keeps its date only", []string{"timestamp"}, [][]any{row("2024-02-27 07:26:14")}, []string{"timestamp"}, [][]any{row("2024-02-27 23:00:00")}, false, true, false},
		{"date equals its text", []string{"date"}, [][]any{row("2024-02-27")}, []string{"text"}, [][]any{row("2024-02-27")}, false, true, false},
		{"json keys sorted", []string{"jsonb"}, [][]any{row(`{"b": 1, "a": 2.345}`)}, []string{"json"}, [][]any{row(`{"a":2.35,"b":1}`)}, false, true, false},
		{"json floats rounded", []string{"json"}, [][]any{row(`{"a": 2.344}`)}, []string{"json"}, [][]any{row(`{"a": 2.34}`)}, false, true, false},
		{"json equals its dumps text", []string{"json"}, [][]any{row(`[1, "é"]`)}, []string{"text"}, [][]any{row(`[1, "\u00e9"]`)}, false, true, false},
		{"json scalar string is a str", []string{"jsonb"}, [][]any{row(`"x"`)}, []string{"text"}, [][]any{row("x")}, false, true, false},
		{"int array", []string{"_int4"}, [][]any{row("{1,2,NULL}")}, []string{"text"}, [][]any{row("[1, 2, null]")}, false, true, false},
		{"numeric array raises", []string{"_numeric"}, [][]any{row("{1.5}")}, []string{"_numeric"}, [][]any{row("{1.5}")}, false, false, true},
		{"nan equals nothing", []string{"float8"}, [][]any{row("NaN")}, []string{"float8"}, [][]any{row("NaN")}, false, false, false},
		{"null equals null", []string{"text"}, [][]any{row(nil)}, []string{"int4"}, [][]any{row(nil)}, false, true, false},
		{"29-digit numeric raises", []string{"numeric"}, [][]any{row("123456789012345678901234567.1")}, []string{"numeric"}, [][]any{row("1")}, false, false, true},
		{"interval months are 30 days", []string{"interval"}, [][]any{row("1 mon")}, []string{"interval"}, [][]any{row("30 days")}, false, true, false},
		{"row length counts", []string{"int4", "int4"}, [][]any{row("1", nil)}, []string{"int4"}, [][]any{row("1")}, false, false, false},
	}
	for _, tc := range cases {
		ok, why, err := Compare(pg(t, tc.ptype, tc.pred...), pg(t, tc.gtype, tc.gold...), tc.order)
		if tc.pythonFail {
			if !errors.Is(err, ErrPython) {
				t.Errorf("%s: err %v, want a Python error", tc.name, err)
			}
			continue
		}
		if err != nil || ok != tc.want {
			t.Errorf("%s: Compare = %v (%s, %v), want %v", tc.name, ok, why, err, tc.want)
		}
	}
}

func TestQuantize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1.005", "1.01"}, {"1.004", "1.00"}, {"-1.005", "-1.01"}, {"2", "2.00"}, {"1E+2", "100.00"}, {"0.0049", "0.00"},
	}
	for _, tc := range cases {
		d, err := parseDec(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		q, err := quantize(d, -2)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := parseDec(tc.want)
		if q.rat().Cmp(want.rat()) != 0 || q.Exp != -2 {
			t.Errorf("quantize(%s) = %v e%d, want %s", tc.in, q.Coef, q.Exp, tc.want)
		}
	}
	if _, err := quantize(Dec{Inf: 1}, -2); !errors.Is(err, ErrPython) {
		t.Errorf("quantize(Infinity): %v, want InvalidOperation", err)
	}
	_ = big.NewInt
}
