package spidersql

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// pyFloat reads t as Python's float() would (ASCII digits only): an optional sign, digits
// with single underscores between them, an optional fraction and exponent, or inf,
// infinity and nan in any case. Go's ParseFloat differs (hex floats, underscore rules),
// so the syntax is checked here first.
func pyFloat(t string) (float64, bool) {
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 {
		return 0, false
	}
	neg := strings.HasPrefix(t, "-")
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(body), "e")
	intPart, frac, hasDot := strings.Cut(mant, ".")
	switch {
	case intPart == "" && frac == "":
		return 0, false
	case intPart != "" && !digitPart(intPart), frac != "" && !digitPart(frac):
		return 0, false
	case !hasDot && frac != "":
		return 0, false
	}
	if hasExp {
		e := strings.TrimLeft(exp, "+-")
		if len(exp)-len(e) > 1 || !digitPart(e) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	if err != nil && !isRangeErr(err) { // out of range gives ±Inf or 0, as in Python
		return 0, false
	}
	return f, true
}

// pyInt reads t as Python's int() would (ASCII digits only). Values beyond int64 are
// clamped: only the presence of LIMIT matters to the evaluation.
func pyInt(t string) (int64, bool) {
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 || !digitPart(body) {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(t, "_", ""), 10, 64)
	if err != nil {
		if !isRangeErr(err) {
			return 0, false
		}
		if strings.HasPrefix(t, "-") {
			return math.MinInt64, true
		}
		return math.MaxInt64, true
	}
	return n, true
}

// digitPart is Python's digitpart: digits, with single underscores between digits.
func digitPart(s string) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for _, r := range s {
		if r != '_' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func isRangeErr(err error) bool { return errors.Is(err, strconv.ErrRange) }
