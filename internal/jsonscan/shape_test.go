package jsonscan

import (
	"strings"
	"testing"
)

func TestMeasure(t *testing.T) {
	for _, tt := range []struct {
		data       string
		containers int
		values     int
	}{
		{`{}`, 1, 1},
		{`[{},{},{}]`, 4, 4},
		{`{"a": [1, 22, true, null], "b": "{[,]}"}`, 2, 9}, // keys count: a map holds them
		{`"\"{["`, 0, 1},
		{`{"k": -1.5e3}`, 1, 3},
		{"{}\n{}\n", 2, 2},
	} {
		if got := Measure([]byte(tt.data)); got.Containers != tt.containers || got.Values != tt.values {
			t.Errorf("Measure(%s) = %+v, want %d containers, %d values", tt.data, got, tt.containers, tt.values)
		}
	}
}

func TestItems(t *testing.T) {
	for _, tt := range []struct {
		arr  string
		want int
	}{
		{`[]`, 0},
		{` [ ] `, 0},
		{`[{}, {"a": [1,2]}, "x,]"]`, 3},
		{`[1,2,3]`, 3},
		{`{"a": 1}`, 0},
		{`[` + strings.Repeat(`{},`, 1000) + `{}]`, 1001},
	} {
		if got := Items([]byte(tt.arr)); got != tt.want {
			t.Errorf("Items(%.40s) = %d, want %d", tt.arr, got, tt.want)
		}
	}
}

// TestMeasureAllocatesNothing: the scan a reader runs before decoding costs no memory,
// however many containers the text holds.
func TestMeasureAllocatesNothing(t *testing.T) {
	data := []byte(`{"systems": [` + strings.Repeat(`{},`, 100000) + `{}]}`)
	if n := testing.AllocsPerRun(5, func() { Measure(data); Items(data) }); n != 0 {
		t.Errorf("Measure and Items allocated %v times", n)
	}
}
