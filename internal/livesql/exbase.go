package livesql

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/pyrepr"
)

// places is the rounding preprocess_results applies: ex_base calls it with its default
// of 2, whatever the task's conditions.decimal says (a quirk: conditions.decimal is
// never read by the official evaluator).
const places = 2

// decPrec is Python's default decimal context precision: quantize fails (raises
// InvalidOperation) when the result needs more digits.
const decPrec = 28

// Preprocess is preprocess_results(rows) with its default of 2 places:
//   - a date or datetime becomes its date as text (a timestamp's time is dropped, so
//     two timestamps on the same day are equal);
//   - a Decimal is quantized to 0.01 with ROUND_HALF_UP, a float rounded by round(x, 2)
//     (half to even on the float's exact value), also inside lists and dicts;
//   - a list or dict becomes json.dumps(x, sort_keys=True), which raises TypeError for a
//     Decimal, date, time, timedelta or bytes inside (a numeric[] or date[] column).
func Preprocess(rows [][]Value) ([][]Value, error) { return preprocess(rows, places) }

// preprocess is preprocess_results(rows, n): n is 2 in the official evaluator,
// conditions.decimal in corrected mode.
func preprocess(rows [][]Value, n int) ([][]Value, error) {
	out := make([][]Value, len(rows))
	for i, row := range rows {
		r := make([]Value, len(row))
		for j, v := range row {
			if v.Kind == Date || v.Kind == Datetime {
				r[j] = Value{Kind: Str, Text: v.Text}
				continue
			}
			p, err := roundRecursive(v, n)
			if err != nil {
				return nil, err
			}
			if p.Kind == List || p.Kind == Dict {
				s, err := jsonDumps(p)
				if err != nil {
					return nil, err
				}
				p = Value{Kind: Str, Text: s}
			}
			r[j] = p
		}
		out[i] = r
	}
	return out, nil
}

// roundRecursive is process_decimals_recursive(item, n).
func roundRecursive(v Value, n int) (Value, error) {
	switch v.Kind {
	case Decimal:
		d, err := quantize(v.Dec, -n)
		return Value{Kind: Decimal, Dec: d}, err
	case Float:
		return Value{Kind: Float, Float: pyRound(v.Float, n)}, nil
	case List:
		l := Value{Kind: List, List: make([]Value, len(v.List))}
		for i, e := range v.List {
			var err error
			if l.List[i], err = roundRecursive(e, n); err != nil {
				return Value{}, err
			}
		}
		return l, nil
	case Dict:
		d := Value{Kind: Dict, Keys: v.Keys, Vals: make([]Value, len(v.Vals))}
		for i, e := range v.Vals {
			var err error
			if d.Vals[i], err = roundRecursive(e, n); err != nil {
				return Value{}, err
			}
		}
		return d, nil
	}
	return v, nil
}

// pyRound is Python's round(x, n) of a float: correctly rounded, ties to even on the
// exact binary value (round(0.125, 2) is 0.12, round(2.675, 2) is 2.67), as strconv's
// formatting rounds.
func pyRound(x float64, n int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
	return y
}

// quantize is Decimal.quantize(Decimal(10)**exp, rounding=ROUND_HALF_UP): NaN stays NaN,
// an infinity raises InvalidOperation, and so does a result of more than 28 digits.
func quantize(d Dec, exp int) (Dec, error) {
	switch {
	case d.NaN:
		return d, nil
	case d.Inf != 0:
		return Dec{}, fmt.Errorf("%w: decimal.InvalidOperation: quantize of an infinity", ErrPython)
	}
	c := new(big.Int).Set(d.Coef)
	if d.Exp >= exp {
		c.Mul(c, pow10(d.Exp-exp))
	} else {
		q, r := new(big.Int).QuoRem(new(big.Int).Abs(c), pow10(exp-d.Exp), new(big.Int))
		// ROUND_HALF_UP: a tie goes away from zero.
		if r.Mul(r, big.NewInt(2)).Cmp(pow10(exp-d.Exp)) >= 0 {
			q.Add(q, big.NewInt(1))
		}
		if c.Sign() < 0 {
			q.Neg(q)
		}
		c = q
	}
	if len(new(big.Int).Abs(c).String()) > decPrec {
		return Dec{}, fmt.Errorf("%w: decimal.InvalidOperation: quantize needs more than %d digits", ErrPython, decPrec)
	}
	return Dec{Coef: c, Exp: exp}, nil
}

// jsonDumps is json.dumps(v, sort_keys=True) with Python's defaults: ", " and ": "
// separators, every non-ASCII character escaped, floats as repr (NaN, Infinity).
func jsonDumps(v Value) (string, error) {
	var b strings.Builder
	if err := dumpTo(&b, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

func dumpTo(b *strings.Builder, v Value) error {
	switch v.Kind {
	case None:
		b.WriteString("null")
	case Bool:
		if v.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Int:
		b.WriteString(v.Int.String())
	case Float:
		switch {
		case math.IsNaN(v.Float):
			b.WriteString("NaN")
		case math.IsInf(v.Float, 1):
			b.WriteString("Infinity")
		case math.IsInf(v.Float, -1):
			b.WriteString("-Infinity")
		default:
			b.WriteString(pyrepr.Float(v.Float))
		}
	case Str:
		dumpString(b, v.Text)
	case List:
		b.WriteByte('[')
		for i, e := range v.List {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := dumpTo(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case Dict:
		idx := make([]int, len(v.Keys))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(x, y int) bool { return v.Keys[idx[x]] < v.Keys[idx[y]] })
		b.WriteByte('{')
		for n, i := range idx {
			if n > 0 {
				b.WriteString(", ")
			}
			dumpString(b, v.Keys[i])
			b.WriteString(": ")
			if err := dumpTo(b, v.Vals[i]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("%w: TypeError: Object of type %s is not JSON serializable", ErrPython, pyTypeName(v.Kind))
	}
	return nil
}

func pyTypeName(k Kind) string {
	return map[Kind]string{Decimal: "Decimal", Bytes: "memoryview", Date: "date", Datetime: "datetime", Time: "time", Interval: "timedelta"}[k]
}

func dumpString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || (r > 0x7e && r < 0x10000) || r == utf8.RuneError:
				if r == 0x7f {
					b.WriteRune(r)
					continue
				}
				fmt.Fprintf(b, `\u%04x`, r)
			case r >= 0x10000:
				r -= 0x10000
				fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// Compare is ex_base's comparison of two executed results (preprocessed here), under
// the task's conditions. Quirks, all the official code's:
//   - an empty result on either side fails, even when both are empty;
//   - without conditions.order the rows compare as sets, so duplicates do not count
//     ([1, 1, 2] equals [2, 1]);
//   - conditions.distinct and conditions.decimal are not read at all (DISTINCT was
//     removed from the SQL before it ran, and the rounding is always 2 places).
//
// It returns whether the results match and, when not, why.
func Compare(pred, gold [][]Value, order bool) (bool, string, error) {
	if len(pred) == 0 || len(gold) == 0 {
		if _, err := Preprocess(pred); err != nil {
			return false, "", err
		}
		if _, err := Preprocess(gold); err != nil {
			return false, "", err
		}
		return false, fmt.Sprintf("empty result (prediction %d rows, gold %d)", len(pred), len(gold)), nil
	}
	return compare(pred, gold, order, places)
}

// compare is Compare's comparison after the empty-result rule, rounding to n places.
func compare(pred, gold [][]Value, order bool, n int) (bool, string, error) {
	p, err := preprocess(pred, n)
	if err != nil {
		return false, "", err
	}
	g, err := preprocess(gold, n)
	if err != nil {
		return false, "", err
	}
	nan := 0
	keys := func(rows [][]Value) []string {
		k := make([]string, len(rows))
		for i, r := range rows {
			k[i] = rowKey(r, &nan)
		}
		return k
	}
	pk, gk := keys(p), keys(g)
	if order {
		if len(pk) != len(gk) {
			return false, fmt.Sprintf("ordered rows differ: %d rows, gold %d", len(pk), len(gk)), nil
		}
		for i := range pk {
			if pk[i] != gk[i] {
				return false, fmt.Sprintf("ordered rows differ at row %d", i+1), nil
			}
		}
		return true, "", nil
	}
	ps, gs := map[string]bool{}, map[string]bool{}
	for _, k := range pk {
		ps[k] = true
	}
	for _, k := range gk {
		gs[k] = true
	}
	if len(ps) != len(gs) {
		return false, fmt.Sprintf("row sets differ: %d distinct rows, gold %d", len(ps), len(gs)), nil
	}
	for k := range ps {
		if !gs[k] {
			return false, "row sets differ", nil
		}
	}
	return true, "", nil
}
