package prove

import (
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

// This file is SQLite's comparison of text with numbers (datatype3.html, section 4.2,
// "Type Conversions Prior To Comparison"), which depends on each operand's affinity:
//
//   - a column has its declared type's affinity; a scalar subquery and a column of a
//     FROM subquery or WITH table have the affinity of the expression they select;
//     every other expression (literals, arithmetic, unary + and -, CASE, aggregates)
//     has none, and so do the values of an IN list;
//   - when one operand has INTEGER, REAL or NUMERIC affinity, NUMERIC affinity is
//     applied to the other: a text that is a well-formed number (spaces around allowed)
//     becomes that number, any other text stays text;
//   - else when one has TEXT affinity and the other none, the other becomes text: a
//     number turns into its text ("1", "2.5", "1.0" for a real);
//   - else nothing is converted, and every number sorts before every text.
//
// Text is a symbol (term.go), so "is this text a number, and which" is two functions
// on symbols, isnum and numval, pinned at every text the model knows (the queries'
// literals, closed domains) where the answer is certain and left free elsewhere: a
// proof holds for every way the unknown texts could read as numbers, the real one
// included. A number becomes text only when it is a literal (its text is known); a
// computed number compared with a TEXT column, or an operand whose affinity the
// encoding does not track (a compound's column), stays outside the subset.

// affinity is what the encoding knows of a value's SQLite affinity. The zero value is
// "not tracked": a comparison that would need it is unsupported, never guessed.
type affinity int

const (
	affUnknown affinity = iota
	affNone             // an expression: no affinity
	affText             // a TEXT column
	affNum              // an INTEGER, REAL or NUMERIC column
)

// affOf is the affinity of a base column of kind k (internal/counterex gives KindText
// only to TEXT-affinity columns and KindNum only to numeric-affinity ones).
func affOf(k Kind) affinity {
	switch k {
	case KindText:
		return affText
	case KindNum:
		return affNum
	}
	return affUnknown
}

// numericText reads s as NUMERIC affinity would. decided is false where this code is
// not certain of SQLite's answer (exponents, other white space, long numbers): the
// caller leaves such a text free.
var (
	plainNumber = regexp.MustCompile(`^ *[-+]?[0-9]{1,15}(\.[0-9]{0,15})? *$`)
	maybeNumber = regexp.MustCompile(`^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$`)
)

func numericText(s string) (num *big.Rat, isNum, decided bool) {
	if plainNumber.MatchString(s) {
		r, ok := new(big.Rat).SetString(strings.TrimPrefix(strings.TrimSpace(s), "+"))
		return r, ok, ok
	}
	if maybeNumber.MatchString(s) {
		return nil, false, false
	}
	return nil, false, true
}

// numberText is the text SQLite gives a numeric literal under TEXT affinity: an
// integer's decimal digits, a real's shortest form with ".0" when whole. ok is false
// where the form is not certain (exponent forms, more than 15 digits).
func numberText(lit string, k ast.LiteralKind) (string, bool) {
	if strings.ContainsAny(lit, "xX") {
		return "", false
	}
	switch k {
	case ast.LitInteger:
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || n > 1e15 {
			return "", false
		}
		return strconv.FormatInt(n, 10), true
	case ast.LitFloat:
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || f < 0 {
			return "", false
		}
		g := strconv.FormatFloat(f, 'g', 15, 64)
		if strings.ContainsAny(g, "eE") || g != strconv.FormatFloat(f, 'f', -1, 64) {
			return "", false
		}
		if !strings.Contains(g, ".") {
			g += ".0"
		}
		return g, true
	}
	return "", false
}

// numericFuncs declares isnum and numval once, pinned at every known text where
// numericText is certain.
func (en *encoder) numericFuncs() (isNum, numVal string) {
	if !en.numeric {
		en.numeric = true
		en.e.b.WriteString("(declare-fun isnum (Int) Bool)\n(declare-fun numval (Int) Real)\n")
		texts := make([]string, 0, len(en.texts))
		for s := range en.texts {
			texts = append(texts, s)
		}
		sort.Strings(texts) // one script for one pair
		for _, s := range texts {
			r, ok, decided := numericText(s)
			if !decided {
				continue
			}
			en.e.assert(fmt.Sprintf("(= (isnum %s) %t)", en.texts[s], ok))
			if ok {
				en.e.assert(fmt.Sprintf("(= (numval %s) %s)", en.texts[s], ratTerm(r)))
			}
		}
	}
	return "isnum", "numval"
}

// mixed compares a text value with a number (either order) as SQLite does, in
// three-valued logic; kinds are a's and b's, one KindText and the other KindNum.
func (en *encoder) mixed(op ast.Operator, a, b value) (truth, error) {
	if a.k == KindNum { // orient: text op number
		a, b = b, a
		op = mirror(op)
	}
	known := en.e.def("Bool", and(not(a.null), not(b.null)))
	var c string
	switch {
	case b.aff == affNum || a.aff == affNum:
		isNum, numVal := en.numericFuncs()
		asNum := en.e.def("Bool", "("+isNum+" "+a.v+")")
		v := en.e.def("Real", "("+numVal+" "+a.v+")")
		c = ite(asNum, cmpTerm(op, v, b.v), textAboveNumber(op))
	case a.aff == affText && b.aff == affNone:
		if b.tsym == "" {
			return truth{}, unsupported("text column compared with a computed number")
		}
		c = cmpTerm(op, a.v, b.tsym)
	case a.aff == affNone && b.aff == affNone:
		c = textAboveNumber(op)
	default:
		return truth{}, unsupported("text compared with a number (affinity not tracked)")
	}
	c = en.e.def("Bool", c)
	return truth{en.e.def("Bool", and(known, c)), en.e.def("Bool", and(known, not(c)))}, nil
}

// textAboveNumber is "text op number" with no conversion: every number sorts first.
func textAboveNumber(op ast.Operator) string {
	switch op {
	case ast.OpNe, ast.OpGt, ast.OpGe:
		return "true"
	}
	return "false"
}

// mirror is op with its operands swapped.
func mirror(op ast.Operator) ast.Operator {
	switch op {
	case ast.OpLt:
		return ast.OpGt
	case ast.OpLe:
		return ast.OpGe
	case ast.OpGt:
		return ast.OpLt
	case ast.OpGe:
		return ast.OpLe
	}
	return op
}

func cmpTerm(op ast.Operator, a, b string) string {
	switch op {
	case ast.OpEq:
		return "(= " + a + " " + b + ")"
	case ast.OpNe:
		return "(not (= " + a + " " + b + "))"
	case ast.OpLt:
		return "(< " + a + " " + b + ")"
	case ast.OpLe:
		return "(<= " + a + " " + b + ")"
	case ast.OpGt:
		return "(> " + a + " " + b + ")"
	}
	return "(>= " + a + " " + b + ")"
}

// commonAffinity is the affinity the values share (the rows of one selected column),
// affUnknown when they differ or there are none.
func commonAffinity(vals []value) affinity {
	if len(vals) == 0 {
		return affUnknown
	}
	a := vals[0].aff
	for _, v := range vals[1:] {
		if v.aff != a {
			return affUnknown
		}
	}
	return a
}
