package prove

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// decodeDB turns the solver's values into concrete rows: numbers as int64 when whole,
// else float64; text symbols as strings ordered as the symbols are (a literal's symbol
// is the literal; others are made up between their neighbouring literals).
func decodeDB(sc *Schema, k int, vals map[string]string, lits []string) ([][][]any, error) {
	db := make([][][]any, len(sc.Tables))
	for ti, t := range sc.Tables {
		for ri := 0; ri < k; ri++ {
			if vals[fmt.Sprintf("e_%d_%d", ti, ri)] != "true" {
				continue
			}
			var row []any
			for ci, c := range t.Columns {
				if vals[fmt.Sprintf("n_%d_%d_%d", ti, ri, ci)] == "true" {
					row = append(row, nil)
					continue
				}
				raw, ok := vals[fmt.Sprintf("v_%d_%d_%d", ti, ri, ci)]
				if !ok {
					return nil, fmt.Errorf("no value for %s.%s", t.Name, c.Name)
				}
				r, err := ratOf(raw)
				if err != nil {
					return nil, err
				}
				switch c.Kind {
				case KindText:
					row = append(row, textOf(r, lits))
				default:
					if r.IsInt() && r.Num().IsInt64() {
						row = append(row, r.Num().Int64())
					} else {
						f, _ := r.Float64()
						row = append(row, f)
					}
				}
			}
			db[ti] = append(db[ti], row)
		}
	}
	return db, nil
}

// ratOf reads an SMT numeral: 3, 3.0, (- 3.0), (/ 1.0 3.0), (- (/ 1.0 3.0)).
func ratOf(s string) (*big.Rat, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "( - "); ok {
		r, err := ratOf(strings.TrimSuffix(rest, " )"))
		if err != nil {
			return nil, err
		}
		return r.Neg(r), nil
	}
	if rest, ok := strings.CutPrefix(s, "( / "); ok {
		parts := strings.Fields(strings.TrimSuffix(rest, " )"))
		if len(parts) != 2 {
			return nil, fmt.Errorf("numeral %q", s)
		}
		a, err := ratOf(parts[0])
		if err != nil {
			return nil, err
		}
		b, err := ratOf(parts[1])
		if err != nil || b.Sign() == 0 {
			return nil, fmt.Errorf("numeral %q", s)
		}
		return a.Quo(a, b), nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("numeral %q", s)
	}
	return r, nil
}

// textOf is a string for a text symbol: the literal itself at a literal's symbol, else
// a string sorting between the neighbouring literals.
func textOf(r *big.Rat, lits []string) string {
	n := new(big.Int).Quo(r.Num(), r.Denom()).Int64()
	i := int(n / symbolGap) // lits[i-1] is the literal at or below n
	off := n % symbolGap
	if n < 0 {
		i, off = 0, n
	}
	if i >= 1 && i <= len(lits) && off == 0 {
		return lits[i-1]
	}
	if i > len(lits) {
		i, off = len(lits), n-int64(len(lits)*symbolGap)
	}
	base := ""
	if i >= 1 {
		base = lits[i-1]
	}
	if off < 0 { // below every literal
		return fmt.Sprintf(" %09d", 999999999+off)
	}
	return base + " " + strconv.FormatInt(1000000000+off, 10)[1:]
}
