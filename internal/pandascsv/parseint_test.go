package pandascsv

import "testing"

// TestParseIntegers: int64 and uint64 fields as pandas reads them; an overflow followed by
// a non-digit is a value error, not an overflow.
func TestParseIntegers(t *testing.T) {
	for _, c := range []struct {
		in string
		i  int64
		ir intResult
		u  uint64
		ur intResult
	}{
		{"", 0, intValue, 0, intValue},
		{"+", 0, intValue, 0, intValue},
		{"0", 0, intOK, 0, intOK},
		{" 42\t", 42, intOK, 0, intValue},
		{"+7", 7, intOK, 7, intOK},
		{"-7", -7, intOK, 0, intValue},
		{"1x", 0, intValue, 0, intValue},
		{"9223372036854775807", 9223372036854775807, intOK, 9223372036854775807, intOK},
		{"9223372036854775808", 0, intOverflow, 9223372036854775808, intOK},
		{"-9223372036854775808", -9223372036854775808, intOK, 0, intValue},
		{"-9223372036854775809", 0, intOverflow, 0, intValue},
		{"18446744073709551615", 0, intOverflow, 18446744073709551615, intOK},
		{"18446744073709551616", 0, intOverflow, 0, intOverflow},
		{"99999999999999999999x", 0, intValue, 0, intValue},
	} {
		if i, r := parseInt(c.in); i != c.i || r != c.ir {
			t.Errorf("parseInt(%q) = %d, %v; want %d, %v", c.in, i, r, c.i, c.ir)
		}
		if u, r := parseUint(c.in); u != c.u || r != c.ur {
			t.Errorf("parseUint(%q) = %d, %v; want %d, %v", c.in, u, r, c.u, c.ur)
		}
	}
}
