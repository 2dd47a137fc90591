package audit

import (
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

const heroes = "CREATE TABLE hero(id INTEGER PRIMARY KEY, name TEXT, height INTEGER, gender TEXT, publisher TEXT, born TEXT)"

// heroRows: heights 0 stand for unknown (2 of 6), the rest positive.
const heroRows = `INSERT INTO hero VALUES (1, 'a', 180, 'Female', 'Marvel', '1980-01-01'), (2, 'b', 0, 'Male', 'Marvel', '1990-01-01'),
	(3, 'c', 200, 'Male', 'DC', '1985-01-01'), (4, 'd', 0, 'Female', 'DC', '1970-01-01'), (5, 'e', 160, 'Female', 'Marvel', '1975-01-01'),
	(6, 'f', 150, 'Male', 'DC', '1960-01-01')`

// TestGoldProblemChecks: each of sentinel_value, partial_answer and ratio_scope on a
// database and question that trigger it, and on one that does not.
func TestGoldProblemChecks(t *testing.T) {
	tests := []struct {
		name, question, gold string
		stmts                []string
		want                 string
		evidence             string
	}{
		{"sentinel zero in an average", "Average height of all heroes?", "SELECT CAST(SUM(height) AS REAL) / COUNT(id) FROM hero",
			[]string{heroes, heroRows}, "sentinel_value", "hero.height holds 0 in 2 of 6 rows (33.3%), a placeholder for a missing value; the gold uses it in SUM; without them the result is (172.5) instead of (115)"},
		{"sentinel zero under MAX beside another aggregate", "Total id and tallest height?", "SELECT SUM(id), MAX(height) FROM hero",
			[]string{heroes, heroRows}, "", ""},
		{"sentinel zero under MIN", "Shortest height?", "SELECT SUM(id), MIN(height) FROM hero",
			[]string{heroes, heroRows}, "sentinel_value", "the gold uses it in MIN; without them the result is (21, 150) instead of (21, 0)"},
		{"a filter moving only another SUM", "Total id and total height?", "SELECT SUM(height), SUM(id) FROM hero",
			[]string{heroes, heroRows}, "", ""},
		{"sentinel already excluded", "Average height of heroes with a known height?", "SELECT AVG(height) FROM hero WHERE height > 0",
			[]string{heroes, heroRows}, "", ""},
		{"zero is a real value among negatives", "Average score?", "SELECT AVG(height) FROM hero",
			[]string{heroes, "INSERT INTO hero VALUES (1, 'a', -5, 'F', 'M', ''), (2, 'b', 0, 'F', 'M', ''), (3, 'c', 5, 'F', 'M', ''), (4, 'd', 0, 'F', 'M', '')"}, "", ""},
		{"sentinel text in a comparison under ORDER BY LIMIT", "Earliest born?", "SELECT name FROM hero ORDER BY born LIMIT 1",
			[]string{heroes, heroRows, "INSERT INTO hero VALUES (7, 'g', 170, 'Male', 'DC', '1000-01-01'), (8, 'h', 170, 'Male', 'DC', '0001-01-01')"}, "sentinel_value", "far-off dates"},
		{"ORDER BY without LIMIT is not a sentinel problem", "Heroes by height?", "SELECT name FROM hero ORDER BY height",
			[]string{heroes, heroRows}, "", ""},
		{"partial answer: which and the difference", "Which publisher has more heroes? Find the difference.",
			"SELECT SUM(publisher = 'Marvel') - SUM(publisher = 'DC') FROM hero", []string{heroes, heroRows}, "partial_answer", "the question asks for 2 things"},
		{"partial answer: name and height", "List the name and height of female heroes.",
			"SELECT name FROM hero WHERE gender = 'Female'", []string{heroes, heroRows}, "partial_answer", `"name"; "height"`},
		{"a later sentence restating the names", "Which heroes are female? List the hero names.",
			"SELECT name FROM hero WHERE gender = 'Female'", []string{heroes, heroRows}, "", ""},
		{"and list their names", "Identify female heroes and list their names in order.",
			"SELECT name FROM hero WHERE gender = 'Female' ORDER BY name", []string{heroes, heroRows}, "", ""},
		{"which and list both", "Which publisher has the most heroes? List the publisher and the number of heroes.",
			"SELECT publisher, COUNT(*) FROM hero GROUP BY publisher ORDER BY COUNT(*) DESC LIMIT 1", []string{heroes, heroRows}, "limit_tie", ""},
		{"and inside a value", "What is the height of the hero with the first name a and the last name b?",
			"SELECT height FROM hero WHERE name = 'a'", []string{heroes, heroRows}, "", ""},
		{"what are the A and B", "What are the name and height of the tallest hero?",
			"SELECT name FROM hero ORDER BY height DESC LIMIT 1", []string{heroes, heroRows}, "partial_answer", `"name"; "height"`},
		{"complete answer: both columns", "List the name and height of female heroes.",
			"SELECT name, height FROM hero WHERE gender = 'Female'", []string{heroes, heroRows}, "", ""},
		{"one request with a conjunction of conditions", "How many heroes are female and published by Marvel?",
			"SELECT COUNT(*) FROM hero WHERE gender = 'Female' AND publisher = 'Marvel'", []string{heroes, heroRows}, "", ""},
		{"ratio scope: population filtered in the numerator only", "What percent of female heroes were published by Marvel?",
			"SELECT CAST(COUNT(CASE WHEN gender = 'Female' AND publisher = 'Marvel' THEN 1 END) AS REAL) * 100 / COUNT(CASE WHEN publisher = 'Marvel' THEN 1 END) FROM hero",
			[]string{heroes, heroRows}, "ratio_scope", `divides by "female heroes", but the gold filters by 'Female' only in the numerator`},
		{"ratio scope right", "What percent of female heroes were published by Marvel?",
			"SELECT CAST(COUNT(CASE WHEN publisher = 'Marvel' THEN 1 END) AS REAL) * 100 / COUNT(*) FROM hero WHERE gender = 'Female'",
			[]string{heroes, heroRows}, "", ""},
		{"ratio scope: numerator outside the denominator", "What percentage of heroes are female?",
			"SELECT CAST(SUM(CASE WHEN gender = 'Female' THEN 1 ELSE 0 END) AS REAL) * 100 / SUM(CASE WHEN publisher = 'Marvel' THEN 1 ELSE 0 END) FROM hero",
			[]string{heroes, heroRows}, "ratio_scope", "1 rows count in the numerator (gender = 'Female') but not in the denominator (publisher = 'Marvel')"},
		{"a ratio of two sets is not a share", "What is the ratio of female to male heroes?",
			"SELECT CAST(SUM(CASE WHEN gender = 'Female' THEN 1 ELSE 0 END) AS REAL) / SUM(CASE WHEN gender = 'Male' THEN 1 ELSE 0 END) FROM hero",
			[]string{heroes, heroRows}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := audit(t, tt.question, tt.gold, nil, tt.stmts...)
			if got := checks(fs); got != tt.want {
				t.Fatalf("checks %q, want %q: %+v", got, tt.want, fs)
			}
			if tt.evidence != "" && !strings.Contains(fs[0].Evidence, tt.evidence) {
				t.Errorf("evidence %q does not contain %q", fs[0].Evidence, tt.evidence)
			}
			for _, f := range fs {
				if f.Confidence == "" {
					t.Errorf("%s has no confidence", f.Check)
				}
			}
		})
	}
}

// TestWidenedConsensus: systems that agree up to an extra column, rounding, column order
// and duplicates make a consensus; every system differing without a majority is the
// weaker all_differ; a system that is loosely the gold's answer breaks both.
func TestWidenedConsensus(t *testing.T) {
	stmts := []string{heroes, heroRows}
	gold := "SELECT CAST(SUM(height) AS REAL) / COUNT(id) FROM hero"
	sys := func(pairs ...string) []System {
		var out []System
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, System{Name: pairs[i], Records: rec(record.Incorrect, pairs[i+1])})
		}
		return out
	}
	fs := audit(t, "Average height?", gold, sys(
		"s1", "SELECT AVG(height) FROM hero WHERE height > 0",
		"s2", "SELECT ROUND(AVG(height), 2), 'cm' FROM hero WHERE height <> 0",
		"s3", "SELECT 'cm', AVG(height) FROM hero WHERE height > 0 UNION ALL SELECT 'cm', AVG(height) FROM hero WHERE height > 0",
		"s4", "SELECT 1"), stmts...)
	got := checkOf(fs, CheckConsensus)
	if got == nil || !strings.Contains(got.Evidence, "3 of 4 judged systems (s1, s2, s3) agree (up to extra columns") || got.Confidence != Medium {
		t.Fatalf("widened consensus: %+v", fs)
	}
	// Systems agreeing on nothing (no rows, a lone 0) are no consensus.
	fs = audit(t, "Average height?", gold, sys("s1", "SELECT 1 WHERE 0", "s2", "SELECT 2 WHERE 0", "s3", "SELECT 0"), stmts...)
	if checkOf(fs, CheckConsensus) != nil {
		t.Fatalf("consensus on empty results: %+v", fs)
	}
	// No majority: all_differ.
	fs = audit(t, "Average height?", gold, sys("s1", "SELECT 1", "s2", "SELECT 2", "s3", "SELECT 3"), stmts...)
	if got := checkOf(fs, CheckAllDiffer); got == nil || got.Confidence != Low || checkOf(fs, CheckConsensus) != nil {
		t.Fatalf("all_differ: %+v", fs)
	}
	// A system judged incorrect that returns the gold's value beside a name column is the
	// gold's answer loosely: no all_differ.
	fs = audit(t, "Average height?", gold, sys("s1", "SELECT 1", "s2", "SELECT 2", "s3", "SELECT 'avg', CAST(SUM(height) AS REAL) / COUNT(id) FROM hero"), stmts...)
	if checkOf(fs, CheckAllDiffer) != nil || checkOf(fs, CheckConsensus) != nil {
		t.Fatalf("near-gold system: %+v", fs)
	}
}

func checkOf(fs []Finding, check string) *Finding {
	for i := range fs {
		if fs[i].Check == check {
			return &fs[i]
		}
	}
	return nil
}

func TestAgree(t *testing.T) {
	tests := []struct {
		a, b [][]any
		ok   bool
		how  string
	}{
		{[][]any{{int64(1)}, {int64(2)}}, [][]any{{int64(2)}, {int64(1)}, {int64(1)}}, true, ""},
		{[][]any{{1.2345}}, [][]any{{"x", 1.23}}, true, "loose"},
		{[][]any{{1.2345}}, [][]any{{"x", 1.24}}, false, ""},
		{[][]any{{"a", int64(1)}, {"b", int64(2)}}, [][]any{{int64(1), "a"}, {int64(2), "b"}}, true, "loose"},
		{[][]any{{"a", int64(1)}, {"b", int64(2)}}, [][]any{{int64(2), "a"}, {int64(1), "b"}}, false, ""},
		{[][]any{{"a"}}, [][]any{}, false, ""},
	}
	for i, tt := range tests {
		ok, how := agree(tt.a, tt.b)
		if ok != tt.ok || how != tt.how {
			t.Errorf("%d: agree = %v %q, want %v %q", i, ok, how, tt.ok, tt.how)
		}
	}
}

func TestWithFilter(t *testing.T) {
	tests := []struct{ sql, want string }{
		{"SELECT a FROM t", "SELECT a FROM t WHERE x "},
		{"SELECT a FROM t WHERE b = 1 OR c = 2 ORDER BY a LIMIT 1", "SELECT a FROM t WHERE (b = 1 OR c = 2) AND (x) ORDER BY a LIMIT 1"},
		{"SELECT a FROM t GROUP BY a", "SELECT a FROM t WHERE x GROUP BY a"},
		{"SELECT a FROM (SELECT a FROM t WHERE b) WHERE a > 1;", "SELECT a FROM (SELECT a FROM t WHERE b) WHERE (a > 1) AND (x) ;"},
	}
	for _, tt := range tests {
		if got, ok := withFilter(tt.sql, "x"); !ok || got != tt.want {
			t.Errorf("withFilter(%q) = %q %v, want %q", tt.sql, got, ok, tt.want)
		}
	}
	if _, ok := withFilter("SELECT a FROM t UNION SELECT b FROM u", "x"); ok {
		t.Error("a compound SELECT got a filter")
	}
}
