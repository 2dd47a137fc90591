package pandascsv

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

// refCase is one CSV text and how pandas 1.5.3 read it (scripts/pandas_csv_reference.py).
type refCase struct {
	CSV        string              `json:"csv"`
	Error      string              `json:"error"`
	DTypes     []string            `json:"dtypes"`
	Columns    [][]json.RawMessage `json:"columns"`
	Transposed [][]json.RawMessage `json:"transposed"`
}

// pyCell renders a Value as the reference script renders a Python object.
func pyCell(v Value) []any {
	switch v.Type {
	case Null:
		return []any{"nan"}
	case Bool:
		return []any{"bool", v.I == 1}
	case Int:
		return []any{"int", strconv.FormatInt(v.I, 10)}
	case Uint:
		return []any{"int", strconv.FormatUint(v.U, 10)}
	case Float:
		if math.IsNaN(v.F) {
			return []any{"nan"}
		}
		return []any{"float", pyRepr(v.F)}
	}
	return []any{"str", v.S}
}

// pyRepr is Python's repr of a float, enough for the reference cases.
func pyRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	return s
}

func TestMatchesPandas(t *testing.T) {
	data, err := os.ReadFile("testdata/pandas_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d reference cases", len(cases))
	}
	for _, c := range cases {
		f, err := Parse([]byte(c.CSV))
		if c.Error != "" {
			if err == nil {
				t.Errorf("%q: pandas raised %s, we read %d columns", c.CSV, c.Error, len(f.Columns))
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.CSV, err)
			continue
		}
		if len(f.Columns) != len(c.DTypes) {
			t.Errorf("%q: %d columns, pandas %d", c.CSV, len(f.Columns), len(c.DTypes))
			continue
		}
		for i, col := range f.Columns {
			if col.DType.String() != c.DTypes[i] {
				t.Errorf("%q column %d: dtype %s, pandas %s", c.CSV, i, col.DType, c.DTypes[i])
			}
			compareCells(t, c.CSV, "column", i, col.Values, c.Columns[i])
		}
		tr, err := f.Transposed(nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tr {
			compareCells(t, c.CSV, "transposed", i, tr[i], c.Transposed[i])
		}
	}
}

func compareCells(t *testing.T, csv, what string, col int, got []Value, want []json.RawMessage) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%.60q %s %d: %d cells, pandas %d", csv, what, col, len(got), len(want))
		return
	}
	bad := 0
	for j := range got {
		g, _ := json.Marshal(pyCell(got[j]))
		var w []any
		_ = json.Unmarshal(want[j], &w)
		wb, _ := json.Marshal(w)
		if string(g) != string(wb) && !sameFloat(got[j], w) {
			if bad++; bad <= 5 {
				t.Errorf("%.60q %s %d row %d: got %s, pandas %s", csv, what, col, j, g, wb)
			}
		}
	}
}

// sameFloat compares a float cell by value (Go and Python print some floats differently).
func sameFloat(v Value, w []any) bool {
	if v.Type != Float || len(w) != 2 || w[0] != "float" {
		return false
	}
	f, err := strconv.ParseFloat(w[1].(string), 64)
	return err == nil && f == v.F
}
