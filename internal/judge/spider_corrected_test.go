package judge

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestSpiderRewriteCorners: each corner of the official rewrite is a pair, the text the
// official rewrite executes and the text corrected mode executes, and is named; where
// the two texts agree no corner is named.
func TestSpiderRewriteCorners(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		pred, ran bool // a prediction (its "value" replacement applies); it ran as written
		official  string
		corrected string
		corners   []string
	}{
		{"value inside a longer name", "SELECT attribute_value FROM hero_attribute", true, true,
			"SELECT attribute_1 FROM hero_attribute", "SELECT attribute_value FROM hero_attribute", []string{CornerValueInName}},
		{"qualified column value", "SELECT T.value FROM t AS T", true, true,
			"SELECT T.1 FROM t AS T", "SELECT T.value FROM t AS T", []string{CornerValueColumn}},
		{"bare column value of a query that runs", "SELECT value FROM t", true, true,
			"SELECT 1 FROM t", "SELECT value FROM t", []string{CornerValueColumn}},
		{"real placeholder: plugged by both", "SELECT a FROM t WHERE b > value", true, false,
			"SELECT a FROM t WHERE b > 1", "SELECT a FROM t WHERE b > 1", nil},
		{"backticked name", "SELECT `value` FROM t", true, false,
			"SELECT `1` FROM t", "SELECT `value` FROM t", []string{CornerValueQuoted}},
		{"double-quoted name", `SELECT "market value" FROM t`, true, true,
			`SELECT "market 1" FROM t`, `SELECT "market value" FROM t`, []string{CornerValueQuoted}},
		{"bracketed name", "SELECT [value] FROM t", true, true,
			"SELECT [1] FROM t", "SELECT [value] FROM t", []string{CornerValueQuoted}},
		{"string literal", "SELECT a FROM t WHERE kind = 'value'", true, true,
			"SELECT a FROM t WHERE kind = '1'", "SELECT a FROM t WHERE kind = 'value'", []string{CornerValueInString}},
		{"placeholder beside a string literal", "SELECT a FROM t WHERE b = value AND c = 'value'", true, false,
			"SELECT a FROM t WHERE b = 1 AND c = '1'", "SELECT a FROM t WHERE b = 1 AND c = 'value'", []string{CornerValueInString}},
		{"comment", "SELECT a FROM t -- value", true, true,
			"SELECT a FROM t -- 1", "SELECT a FROM t -- value", []string{CornerValueInComment}},
		{"gold keeps value", "SELECT attribute_value FROM t", false, true,
			"SELECT attribute_value FROM t", "SELECT attribute_value FROM t", nil},
		{"DISTINCT inside an aggregate", "SELECT count(DISTINCT a) FROM t", false, true,
			"SELECT count( a) FROM t", "SELECT count(DISTINCT a) FROM t", []string{CornerDistinctInAgg}},
		{"DISTINCT of a subquery", "SELECT count(*) FROM (SELECT DISTINCT a FROM t)", false, true,
			"SELECT count(*) FROM (SELECT  a FROM t)", "SELECT count(*) FROM (SELECT DISTINCT a FROM t)", []string{CornerDistinctNested}},
		{"column spelled distinct", "SELECT t.distinct FROM t", false, true,
			"SELECT t. FROM t", "SELECT t.distinct FROM t", []string{CornerDistinctName}},
		{"top-level DISTINCT: dropped by both", "SELECT DISTINCT a FROM t", false, true,
			"SELECT  a FROM t", "SELECT  a FROM t", nil},
		{"top-level DISTINCT after a comment", "SELECT /* c */ DISTINCT a FROM t", false, true,
			"SELECT /* c */  a FROM t", "SELECT /* c */  a FROM t", nil},
		{"DISTINCT in each branch of a UNION", "SELECT DISTINCT a FROM t UNION SELECT distinct b FROM u", false, true,
			"SELECT  a FROM t UNION SELECT  b FROM u", "SELECT  a FROM t UNION SELECT  b FROM u", nil},
		{"double-quoted distinct: kept by both", `SELECT "distinct" FROM t`, false, true,
			`SELECT "distinct" FROM t`, `SELECT "distinct" FROM t`, nil},
		{"operator inside a string", "SELECT a FROM t WHERE b > = 1 AND c = 'x > = y'", false, true,
			"SELECT a FROM t WHERE b >= 1 AND c = 'x >= y'", "SELECT a FROM t WHERE b >= 1 AND c = 'x > = y'", []string{CornerOperatorLiteral}},
		{"current year before a keyword", "SELECT a FROM t WHERE y = YEAR(CURDATE()) AND b = 1", false, true,
			"SELECT a FROM t WHERE y = 2020AND b = 1", "SELECT a FROM t WHERE y = 2020 AND b = 1", []string{CornerCurdateSpace}},
		{"current year inside a string", "SELECT a FROM t WHERE b = 'YEAR(CURDATE())'", false, true,
			"SELECT a FROM t WHERE b = '2020'", "SELECT a FROM t WHERE b = 'YEAR(CURDATE())'", []string{CornerCurdateLiteral}},
		{"current year at the end: same", "SELECT a FROM t WHERE y = YEAR(CURDATE())", false, true,
			"SELECT a FROM t WHERE y = 2020", "SELECT a FROM t WHERE y = 2020", nil},
		{"first statement kept by both", "SELECT DISTINCT a FROM t; SELECT 2", false, true,
			"SELECT  a FROM t; ", "SELECT  a FROM t; ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			official, corrected := SpiderRewriteGold(tc.in), SpiderCorrectGold(tc.in)
			if tc.pred {
				official, corrected = SpiderRewritePred(tc.in), SpiderCorrectPred(tc.in, tc.ran)
			}
			if official != tc.official {
				t.Errorf("official %q, want %q", official, tc.official)
			}
			if corrected != tc.corrected {
				t.Errorf("corrected %q, want %q", corrected, tc.corrected)
			}
			corners := SpiderRewriteCorners(tc.in, tc.pred, tc.ran)
			if !slices.Equal(corners, tc.corners) {
				t.Errorf("corners %q, want %q", corners, tc.corners)
			}
			if (len(corners) == 0) != (official == corrected) {
				t.Errorf("corners %q, but official == corrected is %v", corners, official == corrected)
			}
		})
	}
}

func TestParseSpiderMode(t *testing.T) {
	for in, want := range map[string]SpiderMode{"": SpiderOfficial, "official": SpiderOfficial, " Corrected ": SpiderCorrected} {
		if got, err := ParseSpiderMode(in); err != nil || got != want {
			t.Errorf("ParseSpiderMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseSpiderMode("strict"); err == nil {
		t.Error("ParseSpiderMode(strict): no error")
	}
}

// rewriteDataset is a database whose names and data the official rewrite breaks, and
// golds that meet each kind of break.
func rewriteDataset(tb testing.TB) *dataset.Dataset {
	tb.Helper()
	root := tb.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "hero"), 0o755); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(root, "hero", "hero.sqlite"))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT, attribute_value INTEGER, value TEXT, kind TEXT)`,
		`INSERT INTO hero VALUES (1, 'a', 10, 'x', 'value'), (2, 'b', 20, 'y', 'other'), (3, 'b', 20, 'y', 'other')`,
		`CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)`,
		`INSERT INTO item VALUES (1, 'pen'), (2, 'ink')`,
	} {
		if _, err := db.Exec(s); err != nil {
			tb.Fatal(err)
		}
	}
	golds := []string{
		"SELECT name FROM hero WHERE attribute_value > 15",
		"SELECT count(DISTINCT name) FROM hero",
		"SELECT DISTINCT name FROM hero",
		"SELECT id FROM hero WHERE kind = 'value'",
		"SELECT value FROM hero ORDER BY id",
		"SELECT name FROM item WHERE id > 1",
	}
	ds := &dataset.Dataset{Kind: "jsonl", DBRoot: root}
	for i, g := range golds {
		ds.Questions = append(ds.Questions, dataset.Question{Index: i, ID: string(rune('a' + i)), DBID: "hero", Gold: []string{g}})
	}
	return ds
}

// TestRunSpiderModes: golds scored against themselves are not all correct under the
// official rewrite, each break is noted on the record, and corrected mode scores them
// all correct, keeping the official verdict where it differs. A real placeholder is
// plugged in both modes and noted in neither.
func TestRunSpiderModes(t *testing.T) {
	ds := rewriteDataset(t)
	var self []string
	for _, q := range ds.Questions {
		self = append(self, q.Gold[0])
	}
	placeholder := slices.Clone(self)
	placeholder[5] = "SELECT name FROM item WHERE id > value"
	type want struct {
		changed, corners []string
		official         int // ex_spider under the official rewrite
	}
	wants := []want{
		{[]string{"pred"}, []string{CornerValueInName}, 0},
		{[]string{"gold", "pred"}, []string{CornerDistinctInAgg}, 1},
		{nil, nil, 1},
		{[]string{"pred"}, []string{CornerValueInString}, 0},
		{[]string{"pred"}, []string{CornerValueColumn}, 0},
		{nil, nil, 1},
	}
	eng := engine.NewSQLite()
	defer eng.Close()
	for _, mode := range []SpiderMode{SpiderOfficial, SpiderCorrected} {
		systems := []System{{Name: "self", Preds: preds(self...)}, {Name: "placeholder", Preds: preds(placeholder...)}}
		got := runAll(t, eng, ds, systems, Options{Semantics: Spider, SpiderMode: mode, Timeout: 5 * time.Second})
		for i, w := range wants {
			r := got[0][i]
			if !slices.Equal(r.SpiderRewriteChanged, w.changed) || !slices.Equal(r.SpiderRewriteCorners, w.corners) {
				t.Errorf("%s, question %d: changed %q corners %q, want %q %q", mode, i, r.SpiderRewriteChanged, r.SpiderRewriteCorners, w.changed, w.corners)
			}
			ex, official := r.ExSpider, r.ExSpiderOfficial
			switch {
			case mode == SpiderOfficial && (ex != w.official || official != nil):
				t.Errorf("official, question %d: ex_spider %d, ex_spider_official %v; want %d, none", i, ex, official, w.official)
			case mode == SpiderCorrected && ex != 1:
				t.Errorf("corrected, question %d: ex_spider %d (%s: %s), want 1", i, ex, r.Verdict, r.ErrorMessage)
			case mode == SpiderCorrected && (w.official == 1) != (official == nil):
				t.Errorf("corrected, question %d: ex_spider_official %v, want official %d kept only where it differs", i, official, w.official)
			}
			if wantV := record.Correct; ex == 1 && r.Verdict != wantV {
				t.Errorf("%s, question %d: verdict %s with ex_spider 1 under spider semantics", mode, i, r.Verdict)
			}
		}
		if r := got[1][5]; r.ExSpider != 1 || r.SpiderRewriteChanged != nil || r.ExSpiderOfficial != nil {
			t.Errorf("%s, placeholder: ex_spider %d, changed %q, official %v; want 1, none, none", mode, r.ExSpider, r.SpiderRewriteChanged, r.ExSpiderOfficial)
		}
	}
}

// TestSpiderCornersExplainDifferences: wherever corrected mode executes another text than
// the official rewrite, a corner names why, and nowhere else, over the Spider train
// golds and the seven systems' Spider dev predictions when ../shared has them.
func TestSpiderCornersExplainDifferences(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing: beside the package's other slow tests (issue 44)
	corpus := []string{"SELECT value FROM t", "SELECT a FROM t WHERE b = 'YEAR(CURDATE())'", "SELECT count(DISTINCT a) FROM t"}
	if spider, ok := testutil.SharedIfPresent(t, "data/spider"); ok && !testing.Short() {
		for _, line := range readLines(t, filepath.Join(spider, "train_gold.sql")) {
			sql, _, _ := strings.Cut(line, "\t")
			corpus = append(corpus, sql)
		}
		for _, s := range []string{"DAIL", "C3", "DIN", "RESDSQL", "SuperSQL", "codeS", "RASAT+PICARD"} {
			corpus = append(corpus, readLines(t, filepath.Join(spider, "predictions", s+".txt"))...)
		}
	}
	differ := 0
	for _, s := range corpus {
		for _, c := range []struct{ pred, ran bool }{{false, true}, {true, true}, {true, false}} { // ran matters to a prediction only
			official, corrected := SpiderRewriteGold(s), SpiderCorrectGold(s)
			if c.pred {
				official, corrected = SpiderRewritePred(s), SpiderCorrectPred(s, c.ran)
			}
			corners := SpiderRewriteCorners(s, c.pred, c.ran)
			if (official != corrected) != (len(corners) > 0) {
				t.Errorf("%q (pred %v, ran %v): official %q, corrected %q, corners %q", s, c.pred, c.ran, official, corrected, corners)
			}
			if official != corrected {
				differ++
			}
		}
	}
	t.Logf("%d texts, %d rewrites differ between the modes", len(corpus), differ)
}
