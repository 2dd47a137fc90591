package spidersql

import (
	"errors"
	"strings"
	"testing"
)

// TestParseRepr checks whole parses against the Python structure process_sql builds,
// written out as Python prints it.
func TestParseRepr(t *testing.T) {
	const tail = "'where': [], 'groupBy': [], 'having': [], 'orderBy': [], 'limit': None, 'intersect': None, 'union': None, 'except': None}"
	tests := []struct{ name, sql, want string }{
		{"count star keeps the aggregate on the select item",
			"SELECT count(*) FROM singer",
			"{'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(3, (0, (0, '__all__', False), None))]), " + tail},
		{"aliases resolve to tables; ON conditions go to from.conds",
			"SELECT T1.Name FROM Singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
			"{'from': {'table_units': [('table_unit', '__singer__'), ('table_unit', '__singer_in_concert__')], 'conds': [(False, 2, (0, (0, '__singer.singer_id__', False), None), (0, '__singer_in_concert.singer_id__', False), None)]}, 'select': (False, [(0, (0, (0, '__singer.name__', False), None))]), " + tail},
		{"where with string and number values, and/or kept in place",
			"SELECT name FROM singer WHERE country = 'France' AND age > 20 OR age < 30.5",
			"{'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(0, (0, (0, '__singer.name__', False), None))]), 'where': [(False, 2, (0, (0, '__singer.country__', False), None), '\"France\"', None), 'and', (False, 3, (0, (0, '__singer.age__', False), None), 20.0, None), 'or', (False, 4, (0, (0, '__singer.age__', False), None), 30.5, None)], 'groupBy': [], 'having': [], 'orderBy': [], 'limit': None, 'intersect': None, 'union': None, 'except': None}"},
		{"group by, having, order by, limit",
			"SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 3",
			"{'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(0, (0, (0, '__singer.country__', False), None)), (3, (0, (0, '__all__', False), None))]), 'where': [], 'groupBy': [(0, '__singer.country__', False)], 'having': [(False, 3, (0, (3, '__all__', False), None), 1.0, None)], 'orderBy': ('desc', [(0, (3, '__all__', False), None)]), 'limit': 3, 'intersect': None, 'union': None, 'except': None}"},
		{"distinct, count distinct, arithmetic",
			"SELECT DISTINCT count(DISTINCT country), age - singer_id FROM singer",
			"{'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (True, [(3, (0, (0, '__singer.country__', True), None)), (0, (1, (0, '__singer.age__', False), (0, '__singer.singer_id__', False)))]), " + tail},
		{"between has two values; not like",
			"SELECT name FROM singer WHERE age BETWEEN 20 AND 30 AND name NOT LIKE '%a%'",
			"{'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(0, (0, (0, '__singer.name__', False), None))]), 'where': [(False, 1, (0, (0, '__singer.age__', False), None), 20.0, 30.0), 'and', (True, 9, (0, (0, '__singer.name__', False), None), '\"%a%\"', None)], 'groupBy': [], 'having': [], 'orderBy': [], 'limit': None, 'intersect': None, 'union': None, 'except': None}"},
		{"nested query as a value",
			"SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)",
			"{'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(0, (0, (0, '__singer.name__', False), None))]), 'where': [(False, 3, (0, (0, '__singer.age__', False), None), {'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(5, (0, (0, '__singer.age__', False), None))]), " + tail + ", None)], 'groupBy': [], 'having': [], 'orderBy': [], 'limit': None, 'intersect': None, 'union': None, 'except': None}"},
		{"set operation nests the right-hand query",
			"SELECT name FROM singer INTERSECT SELECT name FROM stadium",
			"{'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(0, (0, (0, '__singer.name__', False), None))]), 'where': [], 'groupBy': [], 'having': [], 'orderBy': [], 'limit': None, 'intersect': {'from': {'table_units': [('table_unit', '__stadium__')], 'conds': []}, 'select': (False, [(0, (0, (0, '__stadium.name__', False), None))]), " + tail + ", 'union': None, 'except': None}"},
		{"subquery in FROM",
			"SELECT count(*) FROM (SELECT name FROM singer)",
			"{'from': {'table_units': [('sql', {'from': {'table_units': [('table_unit', '__singer__')], 'conds': []}, 'select': (False, [(0, (0, (0, '__singer.name__', False), None))]), " + tail + ")], 'conds': []}, 'select': (False, [(3, (0, (0, '__all__', False), None))]), " + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustParse(t, tt.sql).String(); got != tt.want {
				t.Errorf("Parse(%q)\n got: %s\nwant: %s", tt.sql, got, tt.want)
			}
		})
	}
}

// TestParseDetails checks single fields where process_sql has a specific behaviour.
func TestParseDetails(t *testing.T) {
	tests := []struct {
		name, sql string
		check     func(q *SQL) (got, want any)
	}{
		{"bare column resolves in the first FROM table that has it",
			"SELECT name FROM stadium JOIN singer",
			func(q *SQL) (any, any) { return q.Select.Items[0].Val.Col1.ColID, "__stadium.name__" }},
		{"bare column falls through to a later table",
			"SELECT song_name FROM stadium JOIN singer",
			func(q *SQL) (any, any) { return q.Select.Items[0].Val.Col1.ColID, "__singer.song_name__" }},
		{"several JOIN ... ON conditions are joined with and",
			"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS T3 ON T2.concert_id = T3.concert_id",
			func(q *SQL) (any, any) { return len(q.From.Conds), 3 }},
		{"order direction is the last one written",
			"SELECT name FROM singer ORDER BY age DESC, name",
			func(q *SQL) (any, any) { return q.OrderBy.Dir, "desc" }},
		{"order direction defaults to asc",
			"SELECT name FROM singer ORDER BY age",
			func(q *SQL) (any, any) { return q.OrderBy.Dir, "asc" }},
		{"union", "SELECT name FROM singer UNION SELECT name FROM stadium",
			func(q *SQL) (any, any) { return q.Union != nil && q.Intersect == nil && q.Except == nil, true }},
		{"except", "SELECT name FROM singer EXCEPT SELECT name FROM stadium",
			func(q *SQL) (any, any) { return q.Except != nil && q.Union == nil, true }},
		{"set operation inside a parenthesised subquery",
			"SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer UNION SELECT singer_id FROM singer_in_concert)",
			func(q *SQL) (any, any) { return q.Where[0].Unit.Val1.SQL.Union != nil, true }},
		{"string values keep their original case and double quotes",
			`SELECT name FROM singer WHERE name = 'Joe Sharp'`,
			func(q *SQL) (any, any) { return q.Where[0].Unit.Val1.Str, `"Joe Sharp"` }},
		{"column on the right-hand side of a condition",
			"SELECT T1.name FROM singer AS T1 JOIN stadium AS T2 WHERE T1.age > T2.capacity",
			func(q *SQL) (any, any) { return q.Where[0].Unit.Val1.Col.ColID, "__stadium.capacity__" }},
		{"trailing tokens after the statement are ignored, as by get_sql",
			"SELECT name FROM singer ) garbage",
			func(q *SQL) (any, any) { return len(q.Select.Items), 1 }},
		{"semicolons are skipped",
			"SELECT name FROM singer;",
			func(q *SQL) (any, any) { return q.Select.Items[0].Val.Col1.ColID, "__singer.name__" }},
		{"limit value",
			"SELECT name FROM singer LIMIT 5",
			func(q *SQL) (any, any) { return *q.Limit, int64(5) }},
		{"a condition without a conjunction is kept positionally",
			"SELECT name FROM singer WHERE age = 1 age = 2",
			func(q *SQL) (any, any) { return len(q.Where) == 2 && q.Where[1].Unit != nil, true }},
		{"aggregate in a condition goes into the column unit",
			"SELECT country FROM singer GROUP BY country HAVING max(age) > 30",
			func(q *SQL) (any, any) { return q.Having[0].Unit.Val.Col1.Agg, 1 }},
		{"schema names are case-insensitive",
			"SELECT SINGER.NAME FROM SINGER",
			func(q *SQL) (any, any) { return q.Select.Items[0].Val.Col1.ColID, "__singer.name__" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := tt.check(mustParse(t, tt.sql))
			if got != want {
				t.Errorf("Parse(%q): got %v, want %v", tt.sql, got, want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, sql string
		want      error
	}{
		{"empty", "", ErrEmpty},
		{"blank", "  \n\t ", ErrEmpty},
		{"unknown column", "SELECT height FROM singer", ErrUnknownColumn},
		{"unknown qualified column", "SELECT T1.height FROM singer AS T1", ErrUnknownColumn},
		{"unknown table", "SELECT name FROM band", ErrUnknownTable},
		{"unknown alias", "SELECT T9.name FROM singer AS T1", ErrUnknownTable},
		{"unclosed aggregate parenthesis", "SELECT count(name FROM singer", ErrSyntax},
		{"unclosed FROM parenthesis", "SELECT name FROM (singer", ErrSyntax},
		{"unclosed subquery", "SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer", ErrSyntax},
		{"unbalanced quote", "SELECT name FROM singer WHERE name = 'x", ErrQuote},
		{"no FROM", "SELECT 1", ErrSyntax},
		{"not a select", "DELETE FROM singer", ErrSyntax},
		{"comma join is not understood", "SELECT name FROM singer, stadium", ErrUnknownTable},
		{"IS NOT NULL is not understood", "SELECT name FROM singer WHERE age IS NOT NULL", ErrUnknownColumn},
		{"alias with a table's name", "SELECT name FROM singer AS stadium", ErrSyntax},
		{"limit must be an integer", "SELECT name FROM singer LIMIT 1.5", ErrSyntax},
		{"limit without a value", "SELECT name FROM singer LIMIT", ErrSyntax},
		{"between without and", "SELECT name FROM singer WHERE age BETWEEN 1 OR 2", ErrSyntax},
		{"missing operator", "SELECT name FROM singer WHERE age", ErrSyntax},
		{"as at the end", "SELECT name FROM singer AS", ErrSyntax},
		{"dotted name with two dots", "SELECT a.b.c FROM singer", ErrUnknownColumn},
		{"bare column with no FROM table", "SELECT name FROM (SELECT name FROM singer) WHERE name = 1", ErrUnknownColumn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Parse(tt.sql, concertSchema())
			if !errors.Is(err, tt.want) || !errors.Is(err, ErrParse) {
				t.Fatalf("Parse(%q) = %v, %v; want error %v", tt.sql, q, err, tt.want)
			}
			if q != nil {
				t.Errorf("Parse(%q) returned a parse with its error", tt.sql)
			}
			if _, herr := HardnessOf(tt.sql, concertSchema()); herr == nil {
				t.Errorf("HardnessOf(%q) returned no error", tt.sql)
			}
		})
	}
}

func TestParseDeepNesting(t *testing.T) {
	sql := "SELECT name FROM singer" + strings.Repeat(" WHERE age IN (SELECT age FROM singer", maxDepth+5)
	if _, err := Parse(sql, concertSchema()); !errors.Is(err, ErrTooDeep) {
		t.Errorf("deeply nested query: error %v, want ErrTooDeep", err)
	}
	ok := "SELECT name FROM singer" + strings.Repeat(" WHERE age IN (SELECT age FROM singer", 20) + strings.Repeat(")", 20)
	if _, err := Parse(ok, concertSchema()); err != nil {
		t.Errorf("20 nested subqueries: %v", err)
	}
}

func TestNilSchema(t *testing.T) {
	if _, err := Parse("SELECT a FROM t", nil); !errors.Is(err, ErrUnknownTable) {
		t.Errorf("nil schema: error %v, want ErrUnknownTable", err)
	}
}

func TestSchema(t *testing.T) {
	s := concertSchema()
	if got := strings.Join(s.TableNames(), ","); got != "concert,singer,singer_in_concert,stadium" {
		t.Errorf("TableNames = %s", got)
	}
	cols, ok := s.Columns("singer")
	if !ok || strings.Join(cols, ",") != "singer_id,name,country,age,song_name" {
		t.Errorf("Columns(singer) = %v, %v", cols, ok)
	}
	for key, want := range map[string]string{"*": "__all__", "singer": "__singer__", "singer.name": "__singer.name__"} {
		if got, ok := s.ID(key); !ok || got != want {
			t.Errorf("ID(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
	if _, ok := s.ID("Singer"); ok {
		t.Error("ID takes lowercased keys; Singer should not be found")
	}
}
