package match

import (
	"errors"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// testSchema is a small concert_singer-like schema; testFK joins concert.stadium_id to
// stadium.stadium_id as tables.json would.
func testSchema() *spidersql.Schema {
	return spidersql.NewSchema(map[string][]string{
		"singer":  {"singer_id", "name", "country", "age"},
		"concert": {"concert_id", "concert_name", "stadium_id", "year"},
		"stadium": {"stadium_id", "name", "capacity"},
	})
}

func testFK() FKMap {
	return FKMap{"__concert.stadium_id__": "__stadium.stadium_id__", "__stadium.stadium_id__": "__stadium.stadium_id__"}
}

func TestExactSetMatch(t *testing.T) {
	official, values, distinct := Options{}, Options{Values: true}, Options{Distinct: true}
	tests := []struct {
		name       string
		pred, gold string
		opt        Options
		fk         FKMap
		want       bool
	}{
		{"identical", "SELECT name FROM singer", "SELECT name FROM singer", official, nil, true},
		{"case and spacing", "select  NAME from SINGER", "SELECT name FROM singer", official, nil, true},
		{"select items as a set", "SELECT age, name FROM singer", "SELECT name, age FROM singer", official, nil, true},
		{"select item missing", "SELECT name FROM singer", "SELECT name, age FROM singer", official, nil, false},
		{"select item repeated", "SELECT name, name FROM singer", "SELECT name, age FROM singer", official, nil, false},
		{"other column", "SELECT country FROM singer", "SELECT name FROM singer", official, nil, false},
		{"aggregate differs", "SELECT max(age) FROM singer", "SELECT min(age) FROM singer", official, nil, false},
		{"values ignored", "SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age > 40", official, nil, true},
		{"values compared when asked", "SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age > 40", values, nil, false},
		{"equal values with values on", "SELECT name FROM singer WHERE country = 'France'", "SELECT name FROM singer WHERE country = \"France\"", values, nil, true},
		{"operator differs", "SELECT name FROM singer WHERE age < 30", "SELECT name FROM singer WHERE age > 30", official, nil, false},
		{"conditions as a set", "SELECT name FROM singer WHERE age > 1 AND country = 'a'", "SELECT name FROM singer WHERE country = 'b' AND age > 2", official, nil, true},
		{"and vs or", "SELECT name FROM singer WHERE age > 1 OR country = 'a'", "SELECT name FROM singer WHERE age > 1 AND country = 'a'", official, nil, false},
		{"count distinct ignored", "SELECT count(DISTINCT name) FROM singer", "SELECT count(name) FROM singer", official, nil, true},
		{"count distinct compared when asked", "SELECT count(DISTINCT name) FROM singer", "SELECT count(name) FROM singer", distinct, nil, false},
		// The reference never reads the top-level SELECT DISTINCT flag, even with
		// DISABLE_DISTINCT off: eval_sel compares the select list only.
		{"select distinct never compared", "SELECT DISTINCT name FROM singer", "SELECT name FROM singer", distinct, nil, true},
		{"limit value ignored", "SELECT name FROM singer ORDER BY age LIMIT 3", "SELECT name FROM singer ORDER BY age LIMIT 1", official, nil, true},
		{"limit presence compared", "SELECT name FROM singer ORDER BY age", "SELECT name FROM singer ORDER BY age LIMIT 1", official, nil, false},
		{"order direction", "SELECT name FROM singer ORDER BY age DESC", "SELECT name FROM singer ORDER BY age", official, nil, false},
		{"group by order matters", "SELECT count(*) FROM singer GROUP BY country, age", "SELECT count(*) FROM singer GROUP BY age, country", official, nil, false},
		{"having compared", "SELECT country FROM singer GROUP BY country HAVING count(*) > 1", "SELECT country FROM singer GROUP BY country HAVING max(age) > 1", official, nil, false},
		{"having value ignored", "SELECT country FROM singer GROUP BY country HAVING count(*) > 1", "SELECT country FROM singer GROUP BY country HAVING count(*) > 5", official, nil, true},
		{"table sets compared", "SELECT name FROM singer", "SELECT T1.name FROM singer AS T1 JOIN concert AS T2", official, nil, false},
		{"join condition columns not compared",
			"SELECT T1.year FROM concert AS T1 JOIN stadium AS T2 ON T1.concert_id = T2.capacity",
			"SELECT T1.year FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id", official, nil, true},
		{"foreign key columns unified",
			"SELECT T2.stadium_id FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
			"SELECT T1.stadium_id FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id", official, testFK(), true},
		{"no foreign key map, no unification",
			"SELECT T2.stadium_id FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
			"SELECT T1.stadium_id FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id", official, nil, false},
		// A where-subquery is compared whole and never rebuilt: DISTINCT inside it counts.
		{"distinct inside a where subquery counts",
			"SELECT name FROM stadium WHERE stadium_id IN (SELECT DISTINCT stadium_id FROM concert)",
			"SELECT name FROM stadium WHERE stadium_id IN (SELECT stadium_id FROM concert)", official, nil, false},
		{"values inside a where subquery ignored",
			"SELECT name FROM stadium WHERE stadium_id IN (SELECT stadium_id FROM concert WHERE year = 2014)",
			"SELECT name FROM stadium WHERE stadium_id IN (SELECT stadium_id FROM concert WHERE year = 2015)", official, nil, true},
		// rebuild_sql_val never reaches a FROM subquery: its values count.
		{"values inside a from subquery count",
			"SELECT count(*) FROM (SELECT name FROM singer WHERE age > 1)",
			"SELECT count(*) FROM (SELECT name FROM singer WHERE age > 2)", official, nil, false},
		{"set operation kind", "SELECT name FROM singer INTERSECT SELECT name FROM stadium", "SELECT name FROM singer UNION SELECT name FROM stadium", official, nil, false},
		{"set operation operands", "SELECT name FROM singer EXCEPT SELECT name FROM stadium", "SELECT name FROM singer EXCEPT SELECT name FROM stadium", official, nil, true},
		{"set operation operand differs", "SELECT name FROM singer EXCEPT SELECT name FROM singer", "SELECT name FROM singer EXCEPT SELECT name FROM stadium", official, nil, false},
		{"keyword not", "SELECT name FROM singer WHERE country NOT IN (SELECT name FROM stadium)", "SELECT name FROM singer WHERE country IN (SELECT name FROM stadium)", official, nil, false},
		{"unparsable prediction is an empty query", "SELECT nosuchcolumn FROM singer", "SELECT name FROM singer", official, nil, false},
		{"empty prediction", "", "SELECT name FROM singer", official, nil, false},
		{"value placeholder", "SELECT name FROM singer WHERE age > value AND country = 'x'", "SELECT name FROM singer WHERE age > 3 AND country = 'y'", official, nil, true},
		// Stripped before the placeholder is replaced, as the reference does: a final
		// "value" stays a (unknown) column and the prediction does not parse.
		{"final value placeholder", "SELECT name FROM singer WHERE age > value ", "SELECT name FROM singer WHERE age > 3", official, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExactSetMatch(tc.pred, tc.gold, testSchema(), tc.fk, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ExactSetMatch(%q, %q, %+v) = %v, want %v", tc.pred, tc.gold, tc.opt, got, tc.want)
			}
		})
	}
}

func TestExactSetMatchBadGold(t *testing.T) {
	_, err := ExactSetMatch("SELECT name FROM singer", "SELECT nosuch FROM singer", testSchema(), nil, Options{})
	if !errors.Is(err, ErrGold) || !errors.Is(err, spidersql.ErrParse) {
		t.Fatalf("err = %v, want ErrGold wrapping a parse error", err)
	}
}

func TestPredText(t *testing.T) {
	for in, want := range map[string]string{
		"  SELECT a FROM t WHERE b = value \n":   "SELECT a FROM t WHERE b = value",
		"SELECT a FROM t WHERE b = value AND c":  "SELECT a FROM t WHERE b = 1 AND c",
		"SELECT a WHERE x = value value value ;": "SELECT a WHERE x = 1 value 1 ;",
		"SELECT values FROM t":                   "SELECT values FROM t",
	} {
		if got := PredText(in); got != want {
			t.Errorf("PredText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOptionsLabel(t *testing.T) {
	for opt, want := range map[Options]string{
		{}:                             "official",
		{Values: true}:                 "values",
		{Distinct: true}:               "distinct",
		{Values: true, Distinct: true}: "values+distinct",
	} {
		if got := opt.Label(); got != want {
			t.Errorf("%+v.Label() = %q, want %q", opt, got, want)
		}
	}
}
