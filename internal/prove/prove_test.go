package prove

import (
	"context"
	"strings"
	"testing"
	"time"
)

// testSchema: singer(id PK, name, age, country) and concert(cid PK, sid -> singer.id, year).
func testSchema() *Schema {
	return &Schema{Tables: []Table{
		{Name: "singer", Columns: []Column{{Name: "id", Kind: KindNum, NotNull: true}, {Name: "name", Kind: KindText}, {Name: "age", Kind: KindNum}, {Name: "country", Kind: KindText}}, Keys: [][]int{{0}}},
		{Name: "concert", Columns: []Column{{Name: "cid", Kind: KindNum, NotNull: true}, {Name: "sid", Kind: KindNum}, {Name: "year", Kind: KindNum}}, Keys: [][]int{{0}}},
	}, Incl: []Inclusion{{Child: 1, Cols: []int{1}, Parent: 0, PCols: []int{0}}}}
}

func skipNoSolver(t testing.TB) {
	t.Helper()
	if !DefaultSolver().Available() {
		t.Skip("z3 not installed")
	}
}

func TestProvePairs(t *testing.T) {
	skipNoSolver(t)
	cases := []struct {
		name, gold, pred string
		cmp              Compare
		ordered          bool
		want             Status
	}{
		{"same", "SELECT name FROM singer", "SELECT name FROM singer", Bag, false, Proven},
		{"alias", "SELECT T1.name FROM singer AS T1 WHERE T1.age > 30", "SELECT name FROM singer WHERE 30 < age", Bag, false, Proven},
		{"distinct-bag", "SELECT country FROM singer", "SELECT DISTINCT country FROM singer", Bag, false, Refuted},
		{"distinct-set", "SELECT country FROM singer", "SELECT DISTINCT country FROM singer", Set, false, Proven},
		{"not-in-null", "SELECT name FROM singer WHERE id NOT IN (SELECT sid FROM concert)", "SELECT name FROM singer AS s WHERE NOT EXISTS (SELECT 1 FROM concert AS c WHERE c.sid = s.id)", Bag, false, Refuted},
		{"in-exists", "SELECT name FROM singer WHERE id IN (SELECT sid FROM concert)", "SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM concert AS c WHERE c.sid = s.id)", Bag, false, Proven},
		{"join-vs-in-bag", "SELECT name FROM singer WHERE id IN (SELECT sid FROM concert)", "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid", Bag, false, Refuted},
		{"join-vs-in-set", "SELECT name FROM singer WHERE id IN (SELECT sid FROM concert)", "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid", Set, false, Proven},
		{"count-group", "SELECT sid, count(*) FROM concert GROUP BY sid", "SELECT sid, count(cid) FROM concert GROUP BY sid", Bag, false, Proven},
		{"count-col-null", "SELECT count(*) FROM singer", "SELECT count(age) FROM singer", Bag, false, Refuted},
		{"max-vs-order", "SELECT max(age) FROM singer", "SELECT age FROM singer ORDER BY age DESC LIMIT 1", Bag, false, Refuted},
		{"limit-tie", "SELECT name FROM singer ORDER BY age LIMIT 1", "SELECT name FROM singer WHERE age = (SELECT min(age) FROM singer)", Bag, false, Refuted},
		{"order-same", "SELECT name, age FROM singer ORDER BY age", "SELECT name, age FROM singer ORDER BY age ASC", Bag, true, Proven},
		{"order-desc", "SELECT name, age FROM singer ORDER BY age", "SELECT name, age FROM singer ORDER BY age DESC", Bag, true, Refuted},
		{"avg", "SELECT avg(age) FROM singer", "SELECT sum(age) / count(age) FROM singer", Bag, false, Unknown},
		{"having", "SELECT sid FROM concert GROUP BY sid HAVING count(*) > 1", "SELECT DISTINCT sid FROM concert AS a WHERE (SELECT count(*) FROM concert AS b WHERE b.sid = a.sid) > 1", Bag, false, Refuted},
		{"between", "SELECT name FROM singer WHERE age BETWEEN 20 AND 30", "SELECT name FROM singer WHERE age >= 20 AND age <= 30", Bag, false, Proven},
		{"union-or", "SELECT name FROM singer WHERE age > 30 UNION SELECT name FROM singer WHERE country = 'US'", "SELECT DISTINCT name FROM singer WHERE age > 30 OR country = 'US'", Bag, false, Proven},
		{"except", "SELECT id FROM singer EXCEPT SELECT sid FROM concert", "SELECT id FROM singer WHERE id NOT IN (SELECT sid FROM concert WHERE sid IS NOT NULL)", Bag, false, Proven},
		{"left-join-count-2rows", "SELECT T1.name, count(T2.cid) FROM singer AS T1 LEFT JOIN concert AS T2 ON T1.id = T2.sid GROUP BY T1.id", "SELECT name, (SELECT count(*) FROM concert WHERE sid = singer.id) FROM singer", Bag, false, Proven},
		{"like", "SELECT name FROM singer WHERE name LIKE 'a%'", "SELECT name FROM singer", Bag, false, Refuted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			opt := Options{Compare: c.cmp, Ordered: c.ordered, Budget: 20 * time.Second}
			if strings.HasSuffix(c.name, "-2rows") { // heavy at 3 rows on a loaded machine
				opt.Bound = 2
			}
			r := Prove(context.Background(), testSchema(), c.gold, c.pred, opt)
			if r.Status != c.want {
				t.Errorf("got %s (%s), want %s; db %v", r.Status, r.Reason, c.want, r.DB)
			}
		})
	}
}

// TestProveNeverProvesTraps: pairs that differ on some small database (NULL corners,
// duplicates under bag semantics, ties under LIMIT, empty groups, join kinds) must
// never be proven, under any comparison that tells them apart.
func TestProveNeverProvesTraps(t *testing.T) {
	skipNoSolver(t)
	traps := []struct {
		name, gold, pred string
		cmp              Compare
	}{
		{"x=x", "SELECT name FROM singer WHERE age = age", "SELECT name FROM singer", Bag},
		{"ne-null", "SELECT name FROM singer WHERE NOT (age > 30)", "SELECT name FROM singer WHERE age < 30", Bag},
		{"not-in-null-set", "SELECT id FROM singer WHERE id NOT IN (SELECT sid FROM concert)", "SELECT id FROM singer EXCEPT SELECT sid FROM concert", Set},
		{"count-distinct", "SELECT count(DISTINCT country) FROM singer", "SELECT count(country) FROM singer", Set},
		{"union-all", "SELECT name FROM singer UNION ALL SELECT name FROM singer WHERE age > 1", "SELECT name FROM singer UNION SELECT name FROM singer WHERE age > 1", Bag},
		{"limit-2-3", "SELECT id FROM singer ORDER BY id LIMIT 2", "SELECT id FROM singer ORDER BY id LIMIT 3", Set},
		{"limit-offset", "SELECT id FROM singer ORDER BY id LIMIT 1", "SELECT id FROM singer ORDER BY id LIMIT 1 OFFSET 1", Set},
		{"limit-tie-max", "SELECT name FROM singer ORDER BY age DESC LIMIT 1", "SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)", Set},
		{"empty-group", "SELECT count(*) FROM singer WHERE age > 50", "SELECT count(*) FROM singer WHERE age > 50 GROUP BY country", Set},
		{"sum-empty", "SELECT sum(age) FROM singer WHERE age > 50", "SELECT max(age) FROM singer WHERE age > 50", Set},
		{"left-inner", "SELECT T1.name FROM singer AS T1 LEFT JOIN concert AS T2 ON T1.id = T2.sid", "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid", Set},
		{"left-count", "SELECT T1.id, count(*) FROM singer AS T1 LEFT JOIN concert AS T2 ON T1.id = T2.sid GROUP BY T1.id", "SELECT T1.id, count(T2.cid) FROM singer AS T1 LEFT JOIN concert AS T2 ON T1.id = T2.sid GROUP BY T1.id", Set},
		{"avg-distinct", "SELECT avg(age) FROM singer", "SELECT avg(DISTINCT age) FROM singer", Set},
		{"dup-bag", "SELECT country FROM singer WHERE age > 20", "SELECT DISTINCT country FROM singer WHERE age > 20", Bag},
		{"min-text", "SELECT min(name) FROM singer", "SELECT name FROM singer ORDER BY name LIMIT 1", Set},
		{"bare-col", "SELECT country, name FROM singer GROUP BY country", "SELECT country, min(name) FROM singer GROUP BY country", Set},
		{"is-null-vs-eq", "SELECT name FROM singer WHERE country IS NULL", "SELECT name FROM singer WHERE country = NULL", Set},
		{"between-swapped", "SELECT name FROM singer WHERE age BETWEEN 30 AND 20", "SELECT name FROM singer WHERE age BETWEEN 20 AND 30", Set},
		{"in-vs-join-dups", "SELECT name FROM singer WHERE id IN (SELECT sid FROM concert)", "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid", Bag},
		{"having-vs-where", "SELECT country FROM singer GROUP BY country HAVING count(*) > 1", "SELECT DISTINCT country FROM singer", Set},
		{"limit-5-needs-6-rows", "SELECT id FROM singer WHERE age > 1", "SELECT id FROM singer WHERE age > 1 LIMIT 5", Set},
		{"count-over-4", "SELECT country FROM singer GROUP BY country HAVING count(*) > 3", "SELECT country FROM singer GROUP BY country HAVING count(*) > 4", Set},
		{"limit-7-over-bound", "SELECT id FROM singer", "SELECT id FROM singer LIMIT 7", Set},
		{"order-desc-ties", "SELECT name FROM singer ORDER BY age", "SELECT name FROM singer ORDER BY age DESC", Bag},
		{"like-case-vs-eq", "SELECT name FROM singer WHERE country LIKE 'us'", "SELECT name FROM singer WHERE country = 'us'", Set},
		{"like-percent-underscore", "SELECT name FROM singer WHERE country LIKE 'u%'", "SELECT name FROM singer WHERE country LIKE 'u_'", Set},
		{"like-null", "SELECT name FROM singer WHERE country NOT LIKE 'u%'", "SELECT name FROM singer WHERE country IS NULL OR country NOT LIKE 'u%'", Set},
		{"like-underscore-literal", "SELECT name FROM singer WHERE country LIKE 'u_a'", "SELECT name FROM singer WHERE country = 'u_a'", Set},
		{"like-escape", "SELECT name FROM singer WHERE country LIKE 'u!%' ESCAPE '!'", "SELECT name FROM singer WHERE country = 'u%'", Set},
		{"like-contains-vs-prefix", "SELECT name FROM singer WHERE country LIKE '%us%'", "SELECT name FROM singer WHERE country LIKE 'us%'", Set},
	}
	for _, c := range traps {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ordered := strings.Contains(c.gold, "ORDER BY") && strings.Contains(c.pred, "ORDER BY") && !strings.Contains(c.gold, "LIMIT")
			r := Prove(context.Background(), testSchema(), c.gold, c.pred, Options{Compare: c.cmp, Ordered: ordered, Budget: 20 * time.Second})
			if r.Status == Proven {
				t.Errorf("proven: %s  vs  %s", c.gold, c.pred)
			}
			if r.Status == Unknown {
				t.Logf("unknown: %s", r.Reason)
			}
		})
	}
}

// TestProveLike: LIKE with a constant pattern is in the subset, as SQLite matches it
// (ASCII case folded, '%' any run, '_' one character, NULL on either side NULL);
// anything else of the family is outside it.
func TestProveLike(t *testing.T) {
	skipNoSolver(t)
	closed := testSchema()
	closed.Tables[0].Columns[3].Domain = []any{"USA", "UK", "France"}
	for _, c := range []struct {
		name, gold, pred string
		sc               *Schema
		want             Status
	}{
		{"case of the pattern", "SELECT id FROM singer WHERE name LIKE 'ab%'", "SELECT id FROM singer WHERE name LIKE 'AB%'", nil, Proven},
		{"repeated percent", "SELECT id FROM singer WHERE name LIKE 'a%%b'", "SELECT id FROM singer WHERE name LIKE 'a%b'", nil, Proven},
		{"not like", "SELECT id FROM singer WHERE NOT name LIKE 'a%'", "SELECT id FROM singer WHERE name NOT LIKE 'a%'", nil, Proven},
		{"like or null", "SELECT id FROM singer WHERE name LIKE 'a%' OR name NOT LIKE 'a%'", "SELECT id FROM singer WHERE name IS NOT NULL", nil, Proven},
		{"no wildcard vs eq, closed", "SELECT id FROM singer WHERE country LIKE 'usa'", "SELECT id FROM singer WHERE country = 'USA'", closed, Proven},
		{"prefix, closed", "SELECT id FROM singer WHERE country LIKE 'u%'", "SELECT id FROM singer WHERE country IN ('USA', 'UK')", closed, Proven},
		{"underscore, closed", "SELECT id FROM singer WHERE country LIKE 'U_'", "SELECT id FROM singer WHERE country = 'UK'", closed, Proven},
		{"percent alone", "SELECT id FROM singer WHERE name LIKE '%%'", "SELECT id FROM singer WHERE name IS NOT NULL", nil, Proven},
		{"like null", "SELECT id FROM singer WHERE name LIKE NULL", "SELECT id FROM singer WHERE 1 = 0", nil, Proven},
		{"no wildcard vs eq, open", "SELECT id FROM singer WHERE name LIKE 'bob'", "SELECT id FROM singer WHERE name = 'bob'", nil, Refuted},
		{"percent vs underscore", "SELECT id FROM singer WHERE name LIKE 'a%'", "SELECT id FROM singer WHERE name LIKE 'a_'", nil, Refuted},
		{"underscore vs two, closed", "SELECT id FROM singer WHERE country LIKE 'U_'", "SELECT id FROM singer WHERE country LIKE 'U__'", closed, Refuted},
		{"not like vs not null", "SELECT id FROM singer WHERE name NOT LIKE 'a%'", "SELECT id FROM singer WHERE NOT (name LIKE 'a%' AND name IS NOT NULL)", nil, Refuted},
		{"escape", "SELECT id FROM singer WHERE name LIKE 'a!%' ESCAPE '!'", "SELECT id FROM singer WHERE name LIKE 'a!%' ESCAPE '!' AND 1 = 1", nil, Unknown},
		{"glob", "SELECT id FROM singer WHERE name GLOB 'a*'", "SELECT id FROM singer WHERE name GLOB 'a*' AND 1 = 1", nil, Unknown},
		{"double-quoted pattern", "SELECT id FROM singer WHERE name LIKE '%ab%'", `SELECT id FROM singer WHERE name LIKE "%AB%"`, nil, Proven},
		{"double-quoted column", `SELECT id FROM singer WHERE name LIKE "country"`, "SELECT id FROM singer WHERE name LIKE 'country'", nil, Unknown},
		{"column pattern", "SELECT id FROM singer WHERE name LIKE country", "SELECT id FROM singer WHERE country LIKE name", nil, Unknown},
		{"number", "SELECT id FROM singer WHERE age LIKE '3%'", "SELECT id FROM singer WHERE age >= 30", nil, Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sc := c.sc
			if sc == nil {
				sc = testSchema()
			}
			r := Prove(context.Background(), sc, c.gold, c.pred, Options{Budget: 20 * time.Second})
			if r.Status != c.want {
				t.Errorf("got %s (%s), want %s; db %v", r.Status, r.Reason, c.want, r.DB)
			}
		})
	}
}

// TestLikeMatch: the pattern matcher is SQLite's LIKE (checked against SQLite itself in
// internal/counterex's LIKE corpus).
func TestLikeMatch(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"a%", "abc", true}, {"a%", "ABC", true}, {"A%", "abc", true}, {"a%", "a", true}, {"a%", "ba", false},
		{"a_", "ab", true}, {"a_", "a", false}, {"a_", "abc", false}, {"%", "", true}, {"_", "", false},
		{"%b%", "abc", true}, {"%b", "abc", false}, {"é", "É", false}, {"_", "é", true}, {"a%c", "ac", true},
		{"a%%c", "abbc", true}, {"%a%a%", "aa", true}, {"%a%a%", "a", false}, {"usa", "USA", true},
	} {
		if got := likeMatch(c.pat, c.s); got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.pat, got, c.want)
		}
	}
}

// TestProveColumnOrderAndSameText: Spider compares any column order, so a permuted
// SELECT list is proven with Permute and refuted without; the same text up to case,
// spacing, ASC and ";" is proven even where LIMIT ties would leave two texts unknown.
func TestProveColumnOrderAndSameText(t *testing.T) {
	skipNoSolver(t)
	gold, pred := "SELECT sid, count(*) FROM concert GROUP BY sid", "SELECT count(*), sid FROM concert GROUP BY sid"
	if r := Prove(context.Background(), testSchema(), gold, pred, Options{Budget: 20 * time.Second}); r.Status != Refuted {
		t.Errorf("without Permute: %s (%s), want refuted", r.Status, r.Reason)
	}
	if r := Prove(context.Background(), testSchema(), gold, pred, Options{Budget: 20 * time.Second, Permute: true}); r.Status != Proven {
		t.Errorf("with Permute: %s (%s), want proven", r.Status, r.Reason)
	}
	same := Prove(context.Background(), testSchema(), "SELECT name FROM singer ORDER BY age LIMIT 1;", "select NAME  from singer order by age asc limit 1", Options{})
	if same.Status != Proven {
		t.Errorf("same text: %s (%s)", same.Status, same.Reason)
	}
	if r := Prove(context.Background(), testSchema(), "SELECT name FROM singer WHERE country = 'us'", "SELECT name FROM singer WHERE country = 'US'", Options{}); r.Status == Proven {
		t.Errorf("string literals differing in case were proven the same")
	}
}

// TestProveClosedDomain: a pair equal only because a column takes two values is proven
// under that closed domain, refuted without it, and refuted when the domain has a third
// value; the solver's database keeps to the domain; numbers work as texts do.
func TestProveClosedDomain(t *testing.T) {
	skipNoSolver(t)
	schema := func(dom []any, kind Kind) *Schema {
		return &Schema{Tables: []Table{{Name: "p", Columns: []Column{{Name: "id", Kind: KindNum, NotNull: true}, {Name: "g", Kind: kind, NotNull: true, Domain: dom}}, Keys: [][]int{{0}}}}}
	}
	for _, tc := range []struct {
		name       string
		dom        []any
		kind       Kind
		gold, pred string
		want       Status
	}{
		{"two texts", []any{"M", "F"}, KindText, "SELECT id FROM p WHERE g = 'M'", "SELECT id FROM p WHERE g <> 'F'", Proven},
		{"open", nil, KindText, "SELECT id FROM p WHERE g = 'M'", "SELECT id FROM p WHERE g <> 'F'", Refuted},
		{"three texts", []any{"M", "F", "X"}, KindText, "SELECT id FROM p WHERE g = 'M'", "SELECT id FROM p WHERE g <> 'F'", Refuted},
		{"domain value not in the queries", []any{"F", "M", "U"}, KindText, "SELECT id FROM p WHERE g = 'M'", "SELECT id FROM p WHERE g > 'F'", Refuted},
		{"numbers", []any{int64(0), int64(1)}, KindNum, "SELECT id FROM p WHERE g = 1", "SELECT id FROM p WHERE g > 0", Proven},
		{"numbers open", nil, KindNum, "SELECT id FROM p WHERE g = 1", "SELECT id FROM p WHERE g > 0", Refuted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Prove(context.Background(), schema(tc.dom, tc.kind), tc.gold, tc.pred, Options{Compare: Bag, Budget: 20 * time.Second})
			if r.Status != tc.want {
				t.Fatalf("%s (%s), want %s", r.Status, r.Reason, tc.want)
			}
			if r.Status != Refuted || tc.dom == nil {
				return
			}
			for _, row := range r.DB[0] {
				ok := false
				for _, d := range tc.dom {
					ok = ok || row[1] == d || (tc.kind == KindNum && numEq(row[1], d))
				}
				if !ok {
					t.Errorf("the solver's database has %v outside the domain %v", row[1], tc.dom)
				}
			}
		})
	}
}

func numEq(a, b any) bool {
	f := func(v any) (float64, bool) {
		switch x := v.(type) {
		case int64:
			return float64(x), true
		case float64:
			return x, true
		}
		return 0, false
	}
	x, ok1 := f(a)
	y, ok2 := f(b)
	return ok1 && ok2 && x == y
}

// TestProveSkipsFormulasOverTheBudget: a formula larger than the budget solves is not
// sent to the solver (no process starts: the path is a missing file) and the answer is
// unknown, never proven; a formula within the limit is sent.
func TestProveSkipsFormulasOverTheBudget(t *testing.T) {
	gold := "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid WHERE T2.year > 2000"
	pred := "SELECT name FROM singer WHERE id IN (SELECT sid FROM concert WHERE year > 2000)"
	cases := []struct {
		name   string
		budget time.Duration
		asked  bool
	}{
		{"over", 10 * time.Millisecond, false},
		{"within", time.Minute, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Solver{Path: "/nonexistent/z3"}
			r := Prove(context.Background(), testSchema(), gold, pred, Options{Budget: c.budget, Solver: s})
			if r.Status != Unknown {
				t.Fatalf("got %s (%s), want unknown", r.Status, r.Reason)
			}
			if asked := s.started.Load() > 0; asked != c.asked {
				t.Errorf("solver asked %v, want %v (%s)", asked, c.asked, r.Reason)
			}
			if !c.asked && !strings.Contains(r.Reason, "not asked: a formula of") {
				t.Errorf("reason %q does not say the formula was too large", r.Reason)
			}
		})
	}
}
