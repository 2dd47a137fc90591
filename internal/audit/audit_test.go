package audit

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// makeDB writes a small database root/db/db.sqlite from statements.
func makeDB(tb testing.TB, root, db string, stmts ...string) {
	tb.Helper()
	dir := filepath.Join(root, db)
	if err := mkdir(dir); err != nil {
		tb.Fatal(err)
	}
	h, err := sql.Open("sqlite3", filepath.Join(dir, db+".sqlite"))
	if err != nil {
		tb.Fatal(err)
	}
	defer h.Close()
	for _, s := range stmts {
		if _, err := h.Exec(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

var lim = engine.Limits{Timeout: 5 * time.Second, MaxRows: 10_000}

// audit runs one gold (and systems' records) on a database made of stmts.
func audit(tb testing.TB, question, gold string, systems []System, stmts ...string) []Finding {
	tb.Helper()
	root := tb.TempDir()
	makeDB(tb, root, "db", stmts...)
	ds := &dataset.Dataset{Kind: "jsonl", DBRoot: root, Questions: []dataset.Question{{Index: 0, ID: "q0", DBID: "db", Text: question, Gold: []string{gold}}}}
	e := engine.NewSQLite()
	defer e.Close()
	res, err := Run(context.Background(), e, ds, Options{Limits: lim, Systems: systems})
	if err != nil {
		tb.Fatal(err)
	}
	if res.Audited != 1 {
		tb.Fatalf("audited %d questions, want 1", res.Audited)
	}
	return res.Findings
}

func checks(fs []Finding) string {
	var out []string
	for _, f := range fs {
		c := f.Check
		if f.Target == TargetPrediction {
			c += "@" + f.System
		}
		out = append(out, c)
	}
	return strings.Join(out, ",")
}

const scores = "CREATE TABLE t(name TEXT, score INTEGER, v TEXT)"

func TestChecks(t *testing.T) {
	tests := []struct {
		name, question, gold string
		stmts                []string
		want                 string // comma-separated checks, in order
		evidence             string // a part of the first finding's evidence
	}{
		{"limit tie", "Who scored highest?", "SELECT name FROM t ORDER BY score DESC LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 3, '1'), ('b', 3, '1'), ('c', 1, '1')"},
			"limit_tie", "LIMIT 1 cuts through a tie: 2 rows share ORDER BY score = (3), 1 of them kept"},
		{"no tie", "Who scored highest?", "SELECT name FROM t ORDER BY score DESC LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 3, '1'), ('b', 2, '1'), ('c', 1, '1')"}, "", ""},
		{"tie on rows that read the same", "Who scored highest?", "SELECT name FROM t ORDER BY score DESC LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 3, '1'), ('a', 3, '2'), ('c', 1, '1')"}, "", ""},
		{"tie through an alias and a position", "top?", "SELECT name, score * 2 AS s FROM t ORDER BY s DESC, 1 LIMIT 1 OFFSET 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 3, '1'), ('b', 2, '1'), ('c', 2, '1')"}, "", ""},
		{"offset cuts a tie", "second?", "SELECT name FROM t ORDER BY score DESC LIMIT 1 OFFSET 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 3, '1'), ('b', 2, '1'), ('c', 2, '1')"}, "limit_tie", "LIMIT 1 OFFSET 1 cuts through a tie"},
		{"nulls first", "Lowest score?", "SELECT name FROM t ORDER BY score LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', NULL, '1'), ('b', 2, '1'), ('c', 5, '1')"},
			"nulls_first", "ORDER BY score ASC sorts NULLs first: 1 of the 1 rows LIMIT 1 keeps have score NULL"},
		{"nulls last with DESC", "Highest score?", "SELECT name FROM t ORDER BY score DESC LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', NULL, '1'), ('b', 2, '1'), ('c', 5, '1')"}, "", ""},
		{"numbers as text", "Largest v?", "SELECT name FROM t ORDER BY v DESC LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 1, '9'), ('b', 2, '10'), ('c', 3, '2')"},
			"text_number", "as text '10' sorts before '2', as numbers after"},
		{"numbers as numbers", "Largest score?", "SELECT name FROM t ORDER BY score DESC LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 9, 'x'), ('b', 10, 'y'), ('c', 2, 'z')"}, "", ""},
		{"reverse scan", "Any name?", "SELECT name FROM t LIMIT 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 1, '1'), ('b', 2, '1')"},
			"reverse_scan", "only in the normal scan: (\"a\"); only in the reversed: (\"b\")"},
		{"group_concat follows the scan", "Which names?", "SELECT group_concat(name) FROM t",
			[]string{scores, "INSERT INTO t VALUES ('a', 1, '1'), ('b', 1, '1'), ('c', 2, '1')"},
			"reverse_scan", "only in the normal scan: (\"a,b,c\"); only in the reversed: (\"c,b,a\")"},
		{"scan-independent", "Names?", "SELECT name FROM t WHERE score > 1",
			[]string{scores, "INSERT INTO t VALUES ('a', 1, '1'), ('b', 2, '1'), ('c', 3, '1')"}, "", ""},
		{"gold fails", "x?", "SELECT nope FROM t", []string{scores}, "gold_error", "no such column: nope"},
		{"gold empty", "x?", "SELECT name FROM t WHERE score > 10",
			[]string{scores, "INSERT INTO t VALUES ('a', 1, '1')"}, "gold_empty", "no rows"},
		{"gold only NULLs", "x?", "SELECT max(score) FROM t WHERE name = 'zz'",
			[]string{scores, "INSERT INTO t VALUES ('a', 1, '1')"}, "gold_all_null", "every value"},
		{"id for a name", "What is the name of the hero with the most power?", "SELECT hero_id FROM h WHERE power > 5",
			[]string{"CREATE TABLE h(hero_id INTEGER, hero_name TEXT, power INTEGER)", "INSERT INTO h VALUES (1, 'x', 9)"},
			"id_for_name", "heuristic: the question says \"name\""},
		{"name for a name", "What is the name of the hero with the most power?", "SELECT hero_name FROM h WHERE power > 5",
			[]string{"CREATE TABLE h(hero_id INTEGER, hero_name TEXT, power INTEGER)", "INSERT INTO h VALUES (1, 'x', 9)"}, "", ""},
		{"who as a relative pronoun, id asked for", "Find the id of heroes who have power.", "SELECT hero_id FROM h WHERE power > 5",
			[]string{"CREATE TABLE h(hero_id INTEGER, hero_name TEXT, power INTEGER)", "INSERT INTO h VALUES (1, 'x', 9)"}, "", ""},
		{"who asks for a person", "Who has the most power?", "SELECT hero_id FROM h ORDER BY power DESC LIMIT 1",
			[]string{"CREATE TABLE h(hero_id INTEGER, hero_name TEXT, power INTEGER)", "INSERT INTO h VALUES (1, 'x', 9)"}, "id_for_name", "the question says \"Who\""},
		{"id asked for", "What is the id of the hero with the most power?", "SELECT hero_id FROM h WHERE power > 5",
			[]string{"CREATE TABLE h(hero_id INTEGER, hero_name TEXT, power INTEGER)", "INSERT INTO h VALUES (1, 'x', 9)"}, "", ""},
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
		})
	}
}

func rec(verdict record.Verdict, sql string) []record.Record {
	return []record.Record{{Index: 0, Verdict: verdict, PredSQL: sql}}
}

func TestConsensusAndPredictions(t *testing.T) {
	stmts := []string{scores, "INSERT INTO t VALUES ('a', 3, '1'), ('b', 3, '1'), ('c', 1, '1')"}
	gold := "SELECT name FROM t WHERE score = 1"
	// Two of three systems return a and b: a majority against the gold; the third is
	// correct with a query whose answer rests on a tie.
	systems := []System{
		{Name: "s1", Records: rec(record.Incorrect, "SELECT name FROM t WHERE score = 3")},
		{Name: "s2", Records: rec(record.Incorrect, "SELECT name FROM t WHERE score > 2 ORDER BY name DESC")},
		{Name: "s3", Records: rec(record.Correct, "SELECT name FROM t LIMIT 1")},
	}
	fs := audit(t, "Which?", gold, systems, stmts...)
	if got := checks(fs); got != "consensus,reverse_scan@s3" {
		t.Fatalf("checks %q: %+v", got, fs)
	}
	if !strings.Contains(fs[0].Evidence, "2 of 3 judged systems (s1, s2) agree") {
		t.Errorf("consensus evidence: %s", fs[0].Evidence)
	}
	// One wrong system alone is no consensus; a correct prediction without order
	// dependence has no finding.
	systems = []System{
		{Name: "s1", Records: rec(record.Incorrect, "SELECT name FROM t WHERE score = 3")},
		{Name: "s2", Records: rec(record.Incorrect, "SELECT name FROM t WHERE score = 2")},
		{Name: "s3", Records: rec(record.Correct, "SELECT name FROM t WHERE score < 2")},
	}
	if got := checks(audit(t, "Which?", gold, systems, stmts...)); got != "" {
		t.Errorf("checks %q, want none", got)
	}
	// A correct prediction whose LIMIT cuts through a tie.
	systems = []System{{Name: "p", Records: rec(record.Correct, "SELECT name FROM t ORDER BY score DESC LIMIT 1")}}
	if got := checks(audit(t, "Which?", "SELECT name FROM t WHERE name = 'a'", systems, stmts...)); got != "limit_tie@p" {
		t.Errorf("checks %q, want limit_tie@p", got)
	}
}

func TestAnalyse(t *testing.T) {
	tests := []struct {
		sql           string
		probe         bool
		keys          string // Expr|Desc|NullsFirst; ...
		limit, offset int
	}{
		{"SELECT a FROM t ORDER BY b DESC LIMIT 3", true, "b|true|false", 3, 0},
		{"SELECT a, count(*) AS c FROM t GROUP BY a ORDER BY c DESC, 1 LIMIT 2, 5;", true, "count(*)|true|false; a|false|true", 5, 2},
		{"SELECT a, CAST(x AS REAL) r FROM t ORDER BY r NULLS LAST LIMIT 1 OFFSET 4", true, "CAST(x AS REAL)|false|false", 1, 4},
		{"SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 1", false, "", 1, 0},
		{"SELECT DISTINCT a FROM t ORDER BY b LIMIT 1", false, "b|false|true", 1, 0},
		{"SELECT DISTINCT a FROM t ORDER BY a LIMIT 1", true, "a|false|true", 1, 0},
		{"SELECT a FROM t ORDER BY b LIMIT (SELECT 1)", false, "b|false|true", -1, 0},
		{"WITH w AS (SELECT a FROM t ORDER BY a LIMIT 9) SELECT a FROM w -- ORDER BY x\n", false, "", -1, 0},
		{"SELECT CASE WHEN a THEN 1 ELSE 0 END FROM t ORDER BY 1 LIMIT 1", true, "CASE WHEN a THEN 1 ELSE 0 END|false|true", 1, 0},
	}
	for _, tt := range tests {
		sh := analyse(tt.sql)
		var ks []string
		for _, k := range sh.Keys {
			ks = append(ks, strings.Join([]string{k.Expr, boolText(k.Desc), boolText(k.NullsFirst)}, "|"))
		}
		if got := strings.Join(ks, "; "); got != tt.keys || sh.Probe != tt.probe || sh.Limit != tt.limit || sh.Offset != tt.offset {
			t.Errorf("%s:\n got keys %q probe %v limit %d offset %d\nwant keys %q probe %v limit %d offset %d", tt.sql, got, sh.Probe, sh.Limit, sh.Offset, tt.keys, tt.probe, tt.limit, tt.offset)
		}
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func mkdir(dir string) error { return os.MkdirAll(dir, 0o755) }
