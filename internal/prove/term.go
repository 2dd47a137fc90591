package prove

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// emitter collects SMT-LIB declarations and definitions. Every nontrivial term is
// bound to a name (define-fun), so a term used many times costs one reference each and
// the script stays linear in the encoding's size.
type emitter struct {
	b     strings.Builder
	n     int
	terms int // definitions so far, bounded by maxTerms
}

// maxTerms bounds one encoding: a larger one would not be solved in the budget anyway.
const maxTerms = 400000

func (e *emitter) declare(sort string) string {
	e.n++
	name := fmt.Sprintf("x%d", e.n)
	fmt.Fprintf(&e.b, "(declare-const %s %s)\n", name, sort)
	return name
}

// def names term; atoms are returned as they are.
func (e *emitter) def(sort, term string) string {
	if !strings.ContainsAny(term, " ()") {
		return term
	}
	e.n++
	e.terms++
	if e.terms > maxTerms {
		panic(errTooBig)
	}
	name := fmt.Sprintf("d%d", e.n)
	fmt.Fprintf(&e.b, "(define-fun %s () %s %s)\n", name, sort, term)
	return name
}

func (e *emitter) assert(term string) { fmt.Fprintf(&e.b, "(assert %s)\n", term) }

var errTooBig = unsupported("encoding too large for the bound")

// Boolean helpers with constant folding (keeps the scripts small).
func and(xs ...string) string {
	var keep []string
	for _, x := range xs {
		switch x {
		case "true":
			continue
		case "false":
			return "false"
		}
		keep = append(keep, x)
	}
	switch len(keep) {
	case 0:
		return "true"
	case 1:
		return keep[0]
	}
	return "(and " + strings.Join(keep, " ") + ")"
}

func or(xs ...string) string {
	var keep []string
	for _, x := range xs {
		switch x {
		case "false":
			continue
		case "true":
			return "true"
		}
		keep = append(keep, x)
	}
	switch len(keep) {
	case 0:
		return "false"
	case 1:
		return keep[0]
	}
	return "(or " + strings.Join(keep, " ") + ")"
}

func not(x string) string {
	switch x {
	case "true":
		return "false"
	case "false":
		return "true"
	}
	if strings.HasPrefix(x, "(not ") {
		return x[5 : len(x)-1]
	}
	return "(not " + x + ")"
}

func ite(c, a, b string) string {
	switch {
	case c == "true" || a == b:
		return a
	case c == "false":
		return b
	}
	return "(ite " + c + " " + a + " " + b + ")"
}

func sum(xs []string) string {
	var keep []string
	for _, x := range xs {
		if x != "0" && x != "0.0" {
			keep = append(keep, x)
		}
	}
	switch len(keep) {
	case 0:
		return "0.0"
	case 1:
		return keep[0]
	}
	return "(+ " + strings.Join(keep, " ") + ")"
}

// value is an SQL value: a term (Real for numbers, Int for text symbols), whether it
// is NULL, and its kind. When null is "true" the term is meaningless.
type value struct {
	v, null string
	k       Kind
	aff     affinity // SQLite's affinity of the expression (affinity.go)
	tsym    string   // a numeric literal's text, as a symbol, when known (else "")
}

var nullValue = value{v: "0.0", null: "true", k: kindNull, aff: affNone}

// truth is an SQL boolean in three-valued logic: tr when TRUE, fa when FALSE, NULL when
// neither.
type truth struct{ tr, fa string }

var (
	truthTrue  = truth{"true", "false"}
	truthFalse = truth{"false", "true"}
)

func (a truth) and(b truth) truth { return truth{and(a.tr, b.tr), or(a.fa, b.fa)} }
func (a truth) or(b truth) truth  { return truth{or(a.tr, b.tr), and(a.fa, b.fa)} }
func (a truth) not() truth        { return truth{a.fa, a.tr} }

// sortOf is the SMT sort of a kind's terms.
func sortOf(k Kind) string {
	if k == KindText || k == kindRank {
		return "Int"
	}
	return "Real"
}

// compatible returns the kind two values compare as, or an error when one is text and
// the other a number (SQLite's affinity conversions are outside the subset).
func compatible(a, b value) (Kind, error) {
	switch {
	case a.k == kindNull:
		return b.k, nil
	case b.k == kindNull, a.k == b.k:
		return a.k, nil
	}
	return KindNone, unsupported("text compared with a number")
}

// coerce gives a NULL literal the sort of kind k.
func coerce(a value, k Kind) value {
	if a.k == kindNull && k == KindText {
		return value{v: "0", null: "true", k: kindNull}
	}
	return a
}

// realLit is a decimal number as an SMT Real literal.
func realLit(s string) (string, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return "", unsupported("number %q", s)
	}
	return ratTerm(r), nil
}

func ratTerm(r *big.Rat) string {
	num := r.Num()
	neg := num.Sign() < 0
	abs := new(big.Int).Abs(num).String() + ".0"
	t := abs
	if !r.IsInt() {
		t = "(/ " + abs + " " + r.Denom().String() + ".0)"
	}
	if neg {
		return "(- " + t + ")"
	}
	return t
}

func intLit(n int) string { return strconv.Itoa(n) }
