package judge

import (
	"math"
	"testing"
)

// Expected strings are Python 3's str(x) + str(type(x)).
func TestAppendPyStrType(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "None<class 'NoneType'>"},
		{int64(-42), "-42<class 'int'>"},
		{int64(math.MinInt64), "-9223372036854775808<class 'int'>"},
		{"héllo", "héllo<class 'str'>"},
		{"a\xffb", "ab<class 'str'>"}, // text decoded ignoring invalid bytes (Spider)
		{0.0, "0.0<class 'float'>"},
		{math.Copysign(0, -1), "-0.0<class 'float'>"},
		{1.0, "1.0<class 'float'>"},
		{2.5, "2.5<class 'float'>"},
		{100.0, "100.0<class 'float'>"},
		{0.1, "0.1<class 'float'>"},
		{pointOne + 0.2, "0.30000000000000004<class 'float'>"},
		{1e15, "1000000000000000.0<class 'float'>"},
		{9999999999999998.0, "9999999999999998.0<class 'float'>"},
		{1e16, "1e+16<class 'float'>"},
		{1.2345678901234568e+17, "1.2345678901234568e+17<class 'float'>"},
		{1e22, "1e+22<class 'float'>"},
		{1e-4, "0.0001<class 'float'>"},
		{1e-5, "1e-05<class 'float'>"},
		{-1.5e-7, "-1.5e-07<class 'float'>"},
		{12345.678, "12345.678<class 'float'>"},
		{5e-324, "5e-324<class 'float'>"},
		{math.MaxFloat64, "1.7976931348623157e+308<class 'float'>"},
		{math.Inf(1), "inf<class 'float'>"},
		{math.Inf(-1), "-inf<class 'float'>"},
		{[]byte{}, "b''<class 'bytes'>"},
		{[]byte("a'b"), `b"a'b"<class 'bytes'>`},
		{[]byte(`a'"`), `b'a\'"'<class 'bytes'>`},
		{[]byte(`\`), `b'\\'<class 'bytes'>`},
		{[]byte("\x00\x7f\xff\t\n\r~"), `b'\x00\x7f\xff\t\n\r~'<class 'bytes'>`},
	}
	for _, tc := range tests {
		pv, ok := pyValueOf(tc.in, textIgnore)
		if !ok {
			t.Fatalf("pyValueOf(%#v) refused", tc.in)
		}
		if got := string(appendPyStrType(nil, &pv)); got != tc.want {
			t.Errorf("str(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Python's == between fetched values.
func TestPyKeyEquality(t *testing.T) {
	tests := []struct {
		a, b any
		want bool
	}{
		{int64(1), 1.0, true},
		{int64(0), math.Copysign(0, -1), true},
		{0.1, 0.1, true},
		{pointOne + 0.2, 0.3, false},
		{int64(1 << 53), float64(1 << 53), true},
		{int64(1<<53 + 1), float64(1 << 53), false},
		{int64(math.MinInt64), -9223372036854775808.0, true},
		{int64(math.MaxInt64), 9223372036854775808.0, false}, // 2^63 is no int64
		{1e300, 1e300, true},
		{nil, nil, true},
		{nil, int64(0), false},
		{nil, "", false},
		{"1", int64(1), false},
		{"a", []byte("a"), false},
		{[]byte("a"), []byte("a"), true},
		{"a", "a ", false},
		{"A", "a", false},
		{math.Inf(1), math.Inf(1), true},
	}
	for _, tc := range tests {
		a, _ := pyValueOf(tc.a, textStrict)
		b, _ := pyValueOf(tc.b, textStrict)
		if got := a.key == b.key; got != tc.want {
			t.Errorf("%#v == %#v: got %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if tc.want && keyHash(&a.key) != keyHash(&b.key) {
			t.Errorf("equal values %#v and %#v hash differently", tc.a, tc.b)
		}
		if got := pyEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("pyEqual(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if tc.want && pyHash(tc.a) != pyHash(tc.b) {
			t.Errorf("pyHash differs for equal values %#v and %#v", tc.a, tc.b)
		}
	}
}

func TestPyValueOfText(t *testing.T) {
	if _, ok := pyValueOf("a\xff", textStrict); ok {
		t.Error("invalid UTF-8 accepted under the strict text factory")
	}
	pv, ok := pyValueOf("a\xffb\xe2\x82", textIgnore)
	if !ok || pv.key.s != "ab" {
		t.Errorf("ignore decoding: got %q, %v; want \"ab\"", pv.key.s, ok)
	}
	if _, ok := pyValueOf([]byte("\xff"), textStrict); !ok {
		t.Error("a blob is bytes, never decoded")
	}
}

// pointOne is a variable so that pointOne+0.2 is float64 arithmetic, not an exact constant.
var pointOne = 0.1
