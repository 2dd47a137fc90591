package prove

import (
	"context"
	"testing"
	"time"

	"github.com/sqlc-dev/meyer/ast"
)

// TestProveAffinity: text compared with numbers follows SQLite's affinity rules
// (datatype3.html 4.2). In testSchema, name and country are TEXT columns, id, age, sid
// and year numeric ones. Each equivalent pair was checked on SQLite 3.54 (the driver's);
// an inequivalent pair may be refuted or unknown, never proven.
func TestProveAffinity(t *testing.T) {
	t.Parallel()
	skipNoSolver(t)
	const q = "SELECT name FROM singer WHERE "
	for _, c := range []struct {
		gold, pred string
		equivalent bool
		want       Status // "" when either refuted or unknown is fine
	}{
		// A literal takes the column's affinity.
		{q + "age = '30'", q + "age = 30", true, Proven},
		{q + "age = '30.0'", q + "age = 30", true, Proven},
		{q + "age = ' 30 '", q + "age = 30", true, Proven},
		{q + "age = '030'", q + "age = 30", true, Proven},
		{q + "country = 1", q + "country = '1'", true, Proven},
		{q + "country = 1.5", q + "country = '1.5'", true, Proven},
		{q + "country = 2.0", q + "country = '2.0'", true, Proven},
		{q + "country = 1", q + "country = '01'", false, Refuted},
		{q + "country = 1", q + "country = 1.0", false, Refuted},
		{q + "country < 2", q + "country < '2'", true, Proven},
		// A text that is no number stays text, above every number.
		{q + "age < 'abc'", q + "age IS NOT NULL", true, Proven},
		{q + "age = 'abc'", q + "0", true, Proven},
		{q + "age = 'abc'", q + "age = 30", false, Refuted},
		// No affinity on either side: no conversion.
		{q + "'1' = 1", q + "0", true, Proven},
		{q + "'1' = 1", q + "1 = 1", false, Refuted},
		{q + "+age = '30'", q + "0", true, Proven},
		{q + "+age = '30'", q + "age = 30", false, Refuted},
		// IN lists: the list's values have no affinity, the left side's applies.
		{q + "country IN (1, 2)", q + "country = '1' OR country = '2'", true, Proven},
		{q + "age IN ('30', '040')", q + "age = 30 OR age = 40", true, Proven},
		{q + "1 IN (country)", q + "0", true, Proven},
		{q + "1 IN (country)", q + "country = '1'", false, Refuted},
		// Column against column: NUMERIC affinity is applied to the text column.
		{q + "age = country", q + "country = age", true, Proven},
		{q + "age = country", q + "age < country", false, ""},
		{q + "age = country", q + "country = '30'", false, ""},
		// Subqueries: a scalar subquery has its expression's affinity; one of a
		// computed number has none.
		{q + "(SELECT country FROM singer WHERE id = 1) = 1", q + "(SELECT country FROM singer WHERE id = 1) = '1'", true, Proven},
		{q + "(SELECT country FROM singer WHERE id = 1) = 1", q + "(SELECT country FROM singer WHERE id = 1) = '01'", false, ""},
		{q + "country IN (SELECT age FROM singer)", q + "country IN (SELECT age + 0 FROM singer)", false, Unknown},
		{q + "country = (SELECT max(age) FROM singer)", q + "country = '30'", false, Unknown},
		{q + "age IN (SELECT country FROM singer)", q + "age IN (SELECT country FROM singer WHERE country IS NOT NULL)", true, Proven},
		{"SELECT s.name FROM singer s JOIN (SELECT age AS a FROM singer) t ON s.country = t.a", "SELECT s.name FROM singer s JOIN (SELECT age AS a FROM singer) t ON t.a = s.country", true, Proven},
		{"SELECT s.name FROM singer s JOIN (SELECT age AS a FROM singer) t ON s.country = t.a", "SELECT s.name FROM singer s JOIN (SELECT age + 0 AS a FROM singer) t ON s.country = t.a", false, Unknown},
		// A compound's column: its affinity is not tracked.
		{q + "country IN (SELECT age FROM singer UNION SELECT year FROM concert)", q + "country IN (SELECT year FROM concert UNION SELECT age FROM singer)", true, Unknown},
	} {
		r := Prove(context.Background(), testSchema(), c.gold, c.pred, Options{Budget: 30 * time.Second})
		switch {
		case !c.equivalent && r.Status == Proven:
			t.Errorf("inequivalent pair proven:\n  %s\n  %s", c.gold, c.pred)
		case c.want != "" && r.Status != c.want:
			t.Errorf("%s vs %s: got %s (%s), want %s", c.gold, c.pred, r.Status, r.Reason, c.want)
		}
	}
}

// TestNumericText: which texts NUMERIC affinity turns into numbers, as SQLite 3.54
// does; undecided ones are left free by the proof.
func TestNumericText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s       string
		num     string // "" when not a number
		decided bool
	}{
		{"30", "30", true}, {" 30 ", "30", true}, {"030", "30", true}, {"+1", "1", true}, {"-0", "0", true},
		{"2.50", "5/2", true}, {"5.", "5", true}, {"abc", "", true}, {"", "", true}, {"1st", "", true},
		{"1,000", "", true}, {"0x10", "", true}, {"2014-05-01", "", true},
		{"1e3", "", false}, {".5", "", false}, {"1\t", "", false}, {"12345678901234567", "", false},
	} {
		r, isNum, decided := numericText(c.s)
		if decided != c.decided || isNum != (c.num != "") || isNum && r.RatString() != c.num {
			t.Errorf("numericText(%q) = %v, %v, %v; want %q, decided %v", c.s, r, isNum, decided, c.num, c.decided)
		}
	}
}

// TestNumberText: the text SQLite gives a numeric literal under TEXT affinity.
func TestNumberText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lit  string
		k    ast.LiteralKind
		want string // "" when not certain
	}{
		{"1", ast.LitInteger, "1"}, {"01", ast.LitInteger, "1"}, {"2014", ast.LitInteger, "2014"},
		{"1.0", ast.LitFloat, "1.0"}, {"2.50", ast.LitFloat, "2.5"}, {"100.0", ast.LitFloat, "100.0"},
		{"0.1", ast.LitFloat, "0.1"}, {"1e0", ast.LitFloat, "1.0"}, {"0.001", ast.LitFloat, "0.001"},
		{"1e-5", ast.LitFloat, ""}, {"1e15", ast.LitFloat, ""}, {"0x10", ast.LitInteger, ""},
		{"12345678901234567", ast.LitInteger, ""},
	} {
		got, ok := numberText(c.lit, c.k)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("numberText(%s) = %q, %v; want %q", c.lit, got, ok, c.want)
		}
	}
}
