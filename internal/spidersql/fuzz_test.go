package spidersql

import (
	"errors"
	"testing"
)

// FuzzParse: any input either parses into something Hardness and String accept, or returns
// an error wrapping ErrParse; nothing panics.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"SELECT count(*) FROM singer",
		"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE T1.age > 20 GROUP BY T1.country HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 3",
		"SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer) UNION SELECT name FROM stadium",
		"SELECT count(*) FROM (SELECT name FROM singer)",
		"SELECT name FROM singer WHERE name LIKE '%a%' OR age BETWEEN 1 AND 2",
		"SELECT name FROM singer WHERE age != 3 AND age >= 4 AND age <= 5 AND NOT age = 1",
		"select (count(name)) from singer where (age) > 1",
		"SELECT a FROM t AS",
		"= ! <",
		"SELECT name FROM singer WHERE 'x",
		"(((((",
		"SELECT name FROM singer LIMIT 99999999999999999999999",
	} {
		f.Add(seed)
	}
	s := concertSchema()
	f.Fuzz(func(t *testing.T, sql string) {
		q, err := Parse(sql, s)
		if err != nil {
			if !errors.Is(err, ErrParse) {
				t.Fatalf("Parse(%q): error %v does not wrap ErrParse", sql, err)
			}
			if q != nil {
				t.Fatalf("Parse(%q): parse returned with an error", sql)
			}
			return
		}
		switch h := Hardness(q); h {
		case Easy, Medium, Hard, Extra:
		default:
			t.Fatalf("Hardness(%q) = %q", sql, h)
		}
		if q.String() == "" {
			t.Fatalf("String(%q) is empty", sql)
		}
	})
}

// FuzzTokenizeMatchesRegex: the hand-written tokenizer and the regular-expression one it
// replaced (tokenize_oracle_test.go) give the same tokens, or both refuse the input.
func FuzzTokenizeMatchesRegex(f *testing.F) {
	for _, seed := range []string{
		"", "SELECT count(*) FROM singer WHERE age >= 20;", "a.) ", "a,b:c,1", "x.. y...",
		"`a` ``b`` «c» “d” ‘e’ „f» g” h’", "cannot wanna gonna\t", "a--b---c", "'a' \"b\" 'c'",
		"a.\u00a0", "a,\n", "= a <", "é.”\u2028",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkTokenizeMatchesRegex(t, in)
	})
}
