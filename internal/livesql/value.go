package livesql

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Kind is a Python type a result value can have.
type Kind uint8

// The kinds. Date and Datetime hold psycopg2's date and datetime objects before
// preprocess_results turns them into text.
const (
	None Kind = iota
	Bool
	Int
	Float
	Decimal
	Str
	Bytes
	Date     // Text: YYYY-MM-DD as strftime('%Y-%m-%d') writes it
	Datetime // Text: its date part, likewise
	Time     // Text: the server's text (psycopg2's datetime.time compares by value)
	Interval // Micros: a timedelta
	List
	Dict
)

// Value is one Python value.
type Value struct {
	Kind   Kind
	Bool   bool
	Int    *big.Int // Int
	Float  float64  // Float
	Dec    Dec      // Decimal
	Text   string   // Str, Bytes (raw bytes), Date, Datetime, Time
	Micros *big.Int // Interval
	List   []Value  // List
	Keys   []string // Dict, in first-insertion order
	Vals   []Value  // Dict
}

// Dec is a decimal.Decimal: Coef * 10^Exp, or a NaN or an infinity.
type Dec struct {
	Coef    *big.Int
	Exp     int
	NaN     bool
	Inf     int // +1, -1; 0 when finite
	Negzero bool
}

// rat is the exact value of a number, and whether it has one (NaN has none).
func (v Value) rat() (*big.Rat, int, bool) {
	switch v.Kind {
	case Bool:
		if v.Bool {
			return big.NewRat(1, 1), 0, true
		}
		return new(big.Rat), 0, true
	case Int:
		return new(big.Rat).SetInt(v.Int), 0, true
	case Float:
		switch {
		case math.IsNaN(v.Float):
			return nil, 0, false
		case math.IsInf(v.Float, 0):
			return nil, int(math.Copysign(1, v.Float)), true
		}
		return new(big.Rat).SetFloat64(v.Float), 0, true // exact: 0.1 is not 1/10
	case Decimal:
		if v.Dec.NaN {
			return nil, 0, false
		}
		if v.Dec.Inf != 0 {
			return nil, v.Dec.Inf, true
		}
		return v.Dec.rat(), 0, true
	}
	return nil, 0, false
}

func (d Dec) rat() *big.Rat {
	r := new(big.Rat).SetInt(d.Coef)
	if d.Exp > 0 {
		return r.Mul(r, new(big.Rat).SetInt(pow10(d.Exp)))
	}
	return r.Quo(r, new(big.Rat).SetInt(pow10(-d.Exp)))
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// key is a text equal for two values exactly when Python's == says they are equal (and
// so their hashes agree and a set keeps one of them). Quirks of Python's ==, which
// ex_base inherits:
//   - numbers compare by exact value across types: True == 1 == 1.0 == Decimal('1.00'),
//     but the float 0.1 is not Decimal('0.1') (the float is not exactly 0.1);
//   - a NaN equals nothing, not even itself (each gets a key of its own, from nan);
//   - a date, once preprocess_results made it text, equals the same text from a text
//     column;
//   - str and bytes never compare equal.
func (v Value) key(nan *int) string {
	switch v.Kind {
	case None:
		return "N"
	case Bool, Int, Float, Decimal:
		r, inf, ok := v.rat()
		if !ok {
			*nan++
			return "nan" + strconv.Itoa(*nan)
		}
		if inf != 0 {
			return "inf" + strconv.Itoa(inf)
		}
		return "n" + r.RatString()
	case Str, Date, Datetime:
		return "s" + strconv.Itoa(len(v.Text)) + ":" + v.Text
	case Bytes:
		return "b" + strconv.Itoa(len(v.Text)) + ":" + v.Text
	case Time:
		return "t" + strconv.Itoa(len(v.Text)) + ":" + v.Text
	case Interval:
		return "i" + v.Micros.String()
	case List:
		var b strings.Builder
		b.WriteString("[" + strconv.Itoa(len(v.List)))
		for _, e := range v.List {
			k := e.key(nan)
			b.WriteString("," + strconv.Itoa(len(k)) + ":" + k)
		}
		return b.String()
	}
	return "?"
}

// rowKey is a row's key: a tuple equals another of the same length with equal items.
func rowKey(row []Value, nan *int) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(row)))
	for _, v := range row {
		k := v.key(nan)
		b.WriteString("|" + strconv.Itoa(len(k)) + ":" + k)
	}
	return b.String()
}
