package report

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3" // the fixture database is written with the plain driver

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// sys is one system of a fixture run: records as JSON objects (so they may carry fields
// record.Record does not name).
type sys struct {
	name string
	recs []map[string]any
}

// writeRun writes a run directory: summary.json and each system's records.jsonl.
func writeRun(tb testing.TB, dir, dbRoot string, systems ...sys) {
	tb.Helper()
	sum := rundir.Summary{Tool: "nl2sqlbench", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Dataset:  rundir.DatasetInfo{Kind: "jsonl", Path: filepath.Join(dir, "missing-questions.jsonl"), DBRoot: dbRoot},
		Settings: rundir.Settings{Semantics: "bird", TimeoutS: 5, MaxRows: 1000}}
	var all []metrics.SystemRecords
	for _, s := range systems {
		var buf bytes.Buffer
		var recs []record.Record
		for _, m := range s.recs {
			b, err := json.Marshal(m)
			if err != nil {
				tb.Fatal(err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
			var r record.Record
			if err := json.Unmarshal(b, &r); err != nil {
				tb.Fatal(err)
			}
			recs = append(recs, r)
		}
		sum.Dataset.Questions = len(recs)
		sum.Systems = append(sum.Systems, metrics.Summarize(metrics.SystemRecords{Name: s.name, Records: recs}))
		all = append(all, metrics.SystemRecords{Name: s.name, Records: recs})
		if err := os.MkdirAll(filepath.Join(dir, record.SystemDir(s.name)), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, record.SystemDir(s.name), "records.jsonl"), buf.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	// The summary sections come from their one definition, as eval computes them.
	sum.Metrics = metrics.Aggregate(metrics.Declared(metrics.Options{}), all)
	sum.Modules = metrics.BuildModules(all, nil, nil, "", metrics.DefaultPassK)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sum); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// rec builds a fixture record.
func rec(i int, diff, verdict, gold, pred string, extra ...any) map[string]any {
	m := map[string]any{"index": i, "question_id": "q" + string(rune('a'+i)), "db_id": "shop", "difficulty": diff,
		"question": "question " + string(rune('A'+i)), "gold_sql": gold, "pred_sql": pred, "verdict": verdict,
		"error_category": "", "error_message": ""}
	if verdict == "correct" {
		m["ex_bird"], m["ex_spider"] = 1, 1
	}
	if verdict == "error" {
		m["error_category"], m["error_message"] = "no_such_column", "no such column: nope"
	}
	for k := 0; k+1 < len(extra); k += 2 {
		m[extra[k].(string)] = extra[k+1]
	}
	return m
}

// shopDB writes root/shop/shop.sqlite with a table of n items.
func shopDB(tb testing.TB, root string, n int) {
	tb.Helper()
	dir := filepath.Join(root, "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, "shop.sqlite"))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL)`); err != nil {
		tb.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if _, err := db.Exec(`INSERT INTO items VALUES (?, ?, ?)`, i, "item"+strings.Repeat("x", i%3), float64(i)*1.5); err != nil {
			tb.Fatal(err)
		}
	}
}

const hostile = `SELECT '</textarea><script>alert(1)</script><a href="javascript:alert(2)">x</a>' FROM items`

func fixtureRun(tb testing.TB) (dir string) {
	tb.Helper()
	root := tb.TempDir()
	dbRoot := filepath.Join(root, "db")
	shopDB(tb, dbRoot, 40)
	dir = filepath.Join(root, "run")
	all := "SELECT id, name FROM items"
	writeRun(tb, dir, dbRoot,
		sys{"alpha", []map[string]any{
			rec(0, "simple", "correct", all, all, "total_tokens", 1000, "etm", 1, "esm", 1),
			rec(1, "simple", "incorrect", "SELECT count(*) FROM items", hostile, "total_tokens", 1200, "etm", 1, "etm_rules", []string{"R1 <b>", "R7"}, "esm", 0),
			rec(2, "challenging", "error", "SELECT name FROM items WHERE id < 3", "SELECT nope FROM items", "total_tokens", 900, "etm", 0, "esm", 0),
			rec(3, "challenging", "incorrect", "SELECT name FROM items WHERE id < 3", "SELECT name FROM items WHERE id < 4", "total_tokens", 800, "etm", 0, "esm", 0),
		}},
		sys{"beta<i>", []map[string]any{
			rec(0, "simple", "correct", all, all, "total_tokens", 3000),
			rec(1, "simple", "correct", "SELECT count(*) FROM items", "SELECT count(id) FROM items", "total_tokens", 3100),
			rec(2, "challenging", "incorrect", "SELECT name FROM items WHERE id < 3", "SELECT name FROM items", "total_tokens", 2900),
			rec(3, "challenging", "error", "SELECT name FROM items WHERE id < 3", "SELEC name", "total_tokens", 2500),
		}},
	)
	return dir
}

func loadFixture(tb testing.TB, dir string) *rundir.Run {
	tb.Helper()
	run, err := rundir.Load(context.Background(), dir)
	if err != nil {
		tb.Fatal(err)
	}
	return run
}

func renderHTML(tb testing.TB, run *rundir.Run, opt HTMLOptions) string {
	tb.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(context.Background(), &buf, run, opt); err != nil {
		tb.Fatal(err)
	}
	return buf.String()
}

// TestHTMLEscapesHostileText: a prediction with </textarea>, <script> and a javascript: URL,
// a system name with markup and an ETM rule with markup all render as text.
func TestHTMLEscapesHostileText(t *testing.T) {
	out := renderHTML(t, loadFixture(t, fixtureRun(t)), HTMLOptions{})
	for _, bad := range []string{"<script>alert", "</textarea>", `href="javascript:`, "<i>", "R1 <b>"} {
		if strings.Contains(out, bad) {
			t.Errorf("output contains %q unescaped", bad)
		}
	}
	for _, want := range []string{"&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;", "beta&lt;i&gt;", "R1 &lt;b&gt;"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks the escaped text %q", want)
		}
	}
	// The only scripts are the report's own.
	if n := strings.Count(out, "<script"); n != 1 {
		t.Errorf("%d <script> elements, want only the report's filter script", n)
	}
	// Nothing is fetched from the network.
	if m := regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).FindString(out); m != "" {
		t.Errorf("the report loads %q from the network", m)
	}
}

// TestHTMLChartsPresentAndAbsent: charts with data are drawn, the others are left out with a
// one-line note, never drawn empty.
func TestHTMLChartsPresentAndAbsent(t *testing.T) {
	run := loadFixture(t, fixtureRun(t))
	byID := map[string]Chart{}
	for _, c := range Charts(run) {
		byID[c.ID] = c
	}
	drawn := []string{"verdicts", "errors", "ex-etm-esm", "solved-by", "overlap", "tokens"}
	absent := []string{"pass-at-k", "schema", "revision", "cost", "efficiency"}
	for _, id := range drawn {
		if c := byID[id]; c.SVG == "" || c.Note != "" {
			t.Errorf("chart %s: want drawn, got note %q", id, c.Note)
		}
	}
	for _, id := range absent {
		if c := byID[id]; c.SVG != "" || c.Note == "" {
			t.Errorf("chart %s: want left out with a note, got svg=%v note=%q", id, c.SVG != "", c.Note)
		}
	}
	out := renderHTML(t, run, HTMLOptions{NoExec: true})
	if n := strings.Count(out, `<svg `); n != len(drawn) {
		t.Errorf("%d svg charts in the page, want %d", n, len(drawn))
	}
	if n := strings.Count(out, "not shown."); n != len(absent) {
		t.Errorf("%d notes for absent charts, want %d", n, len(absent))
	}
	// ETM is present, so the disagreement filter is offered; question 1 disagrees for alpha
	// (EX incorrect, ETM 1) and question 2 does not (both wrong).
	if !strings.Contains(out, `id="f-dis"`) {
		t.Error("no EX/ETM disagreement filter although records carry etm")
	}
	if !regexp.MustCompile(`id="q1"[^>]*data-dis="0 "`).MatchString(out) {
		t.Error("question 1 not marked as an EX/ETM disagreement for system 0")
	}
	if !regexp.MustCompile(`id="q2"[^>]*data-dis=""`).MatchString(out) {
		t.Error("question 2 marked as a disagreement")
	}
}

func TestChartValues(t *testing.T) {
	run := loadFixture(t, fixtureRun(t))
	// Overlap: alpha wrong on {1,2,3}, beta on {2,3}: Jaccard 2/3.
	if c := chartOverlap(&run.Summary); !strings.Contains(string(c.SVG), ">66.67<") {
		t.Errorf("overlap heatmap lacks 66.67:\n%s", c.SVG)
	}
	// Tokens: alpha (25% correct, 975 tokens) and beta (50%, 2875) are both on the frontier.
	c := chartTokens(&run.Summary)
	for _, want := range []string{"alpha", "beta&lt;i&gt;"} {
		if !strings.Contains(string(c.SVG), want+" *") {
			t.Errorf("tokens chart does not mark %s on the frontier:\n%s", want, c.SVG)
		}
	}
}

func TestPassAtKFromCandidates(t *testing.T) {
	c := func(v string) map[string]any { return map[string]any{"sql": "x", "verdict": v} }
	dir := filepath.Join(t.TempDir(), "run")
	writeRun(t, dir, "",
		sys{"s", []map[string]any{
			rec(0, "simple", "incorrect", "g", "p", "candidates", []any{c("incorrect"), c("correct"), c("incorrect")}),
			rec(1, "simple", "correct", "g", "p", "candidates", []any{c("correct")}),
			rec(2, "simple", "error", "g", "p", "candidates", []any{c("error"), c("error"), c("error")}),
			rec(3, "simple", "correct", "g", "p"), // no candidates: its judged SQL is its one candidate
		}})
	run := loadFixture(t, dir)
	// Pass@1: questions 1 and 3; Pass@5 also question 0 (its second candidate).
	tests := []struct {
		k    string
		want float64
	}{{"pass@1", 0.5}, {"pass@5", 0.75}, {"pass@20", 0.75}}
	for _, tt := range tests {
		if got := metricValue(&run.Summary, "s", tt.k, "all"); got != tt.want {
			t.Errorf("%s = %v, want %v", tt.k, got, tt.want)
		}
	}
	if c := chartPassAtK(&run.Summary); c.SVG == "" {
		t.Errorf("Pass@k not drawn: %s", c.Note)
	}
}

func TestRevisionTransitions(t *testing.T) {
	c := func(v string) []any { return []any{map[string]any{"sql": "x", "verdict": v}} }
	dir := filepath.Join(t.TempDir(), "run")
	writeRun(t, dir, "",
		sys{"r", []map[string]any{
			rec(0, "simple", "correct", "g", "p", "revision_applied", true, "candidates", c("incorrect"),
				"pre_revision_verdict", "incorrect", "post_revision_verdict", "correct"),
			rec(1, "simple", "correct", "g", "p", "revision_applied", true, "pre_revision_verdict", "error", "post_revision_verdict", "correct"),
			rec(2, "simple", "error", "g", "p", "revision_applied", true, "candidates", c("correct"),
				"pre_revision_verdict", "correct", "post_revision_verdict", "error"),
			rec(3, "simple", "correct", "g", "p"),
		}})
	c2 := chartRevision(&loadFixture(t, dir).Summary)
	svg := string(c2.SVG)
	// I2C 1, E2C 1, C2I 0, C2E 1 over 3 revised questions.
	for _, want := range []string{"r (3 revised), I2C: 1", "r (3 revised), E2C: 1", "r (3 revised), C2I: 0", "r (3 revised), C2E: 1"} {
		if !strings.Contains(svg, want) {
			t.Errorf("revision chart lacks %q", want)
		}
	}
}

// TestDrillDownResults: the drill-down re-executes gold and prediction, shows the first rows
// with a note, marks rows missing from the other result, and says when a result is too
// large or the database is unavailable.
func TestDrillDownResults(t *testing.T) {
	ctx := context.Background()
	run := loadFixture(t, fixtureRun(t))
	eng := engine.NewSQLite()
	defer eng.Close()
	x := newExecutor(run, eng, ExecOptions{Rows: 5, MaxRows: 30, DBRoot: trustedRoot(run)})

	g, p := x.pair(ctx, "shop", "SELECT name FROM items WHERE id < 3", "SELECT name FROM items WHERE id < 4")
	if g.Note != "2 rows" || p.Note != "3 rows" {
		t.Errorf("notes %q, %q; want 2 rows, 3 rows", g.Note, p.Note)
	}
	var marked []string
	for _, row := range p.Rows {
		if row[0].Diff {
			marked = append(marked, row[0].Text)
		}
	}
	if len(marked) != 1 || marked[0] != "item" {
		t.Errorf("marked prediction rows %v, want only the row gold lacks (item)", marked)
	}
	for _, row := range g.Rows {
		if row[0].Diff {
			t.Errorf("gold row %v marked though the prediction has it", row)
		}
	}

	tests := []struct{ name, pred, wantNote string }{
		{"cut to the row limit", "SELECT id FROM items WHERE id <= 20", "first 5 of 20 rows"},
		{"larger than the read cap", "SELECT id FROM items", "more than 30 rows: not shown"},
		{"engine error", "SELECT nope FROM items", "no such column: nope"},
		{"empty prediction", "", "empty query"},
		// SQL that SQLite prepares to no statement crashed go-sqlite3 (a segfault).
		{"NUL byte", "\x00", "query contains a NUL byte"},
		{"white space with a vertical tab", "\r\r\v\r", "empty query"},
		{"larger than the byte cap", "SELECT zeroblob(999000000)", "larger than the byte limit: not shown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := x.pair(ctx, "shop", "SELECT 1", tt.pred)
			if !strings.Contains(p.Note, tt.wantNote) {
				t.Errorf("note %q, want it to contain %q", p.Note, tt.wantNote)
			}
			if tt.wantNote == "first 5 of 20 rows" && len(p.Rows) != 5 {
				t.Errorf("%d rows shown, want 5", len(p.Rows))
			}
		})
	}
	if _, p := x.pair(ctx, "warehouse", "SELECT 1", "SELECT 1"); !strings.Contains(p.Note, "database not available: warehouse not found under "+trustedRoot(run)) {
		t.Errorf("missing database: note %q", p.Note)
	}

	out := renderHTML(t, run, HTMLOptions{Exec: ExecOptions{Rows: 5, MaxRows: 30, DBRoot: trustedRoot(run)}})
	for _, want := range []string{"more than 30 rows: not shown", `<td class="diff">item</td>`, "re-executed read-only"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestHTMLWithoutDatabases: a root given that lacks the run's database says so per
// query, naming the database and the root.
func TestHTMLWithoutDatabases(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	writeRun(t, dir, filepath.Join(t.TempDir(), "gone"), sys{"s", []map[string]any{rec(0, "simple", "correct", "SELECT 1", "SELECT 1")}})
	empty := t.TempDir()
	out := renderHTML(t, loadFixture(t, dir), HTMLOptions{Exec: ExecOptions{DBRoot: empty}})
	if !strings.Contains(out, "not executed: database not available: shop not found under "+empty) {
		t.Error("a root without the run's database does not say so")
	}
	if strings.Contains(out, `class="result"`) {
		t.Error("result tables drawn without databases")
	}
}

// trustedRoot is the database root a test's own run recorded, given as --db-root.
func trustedRoot(run *rundir.Run) string { return run.Summary.Dataset.DBRoot }

func TestFormatSQL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT a FROM t WHERE x = 1", "SELECT a\nFROM t\nWHERE x = 1"},
		{"select a from t left join u on t.id=u.id group by a order by a limit 3",
			"select a\nfrom t\nleft join u on t.id=u.id\ngroup by a\norder by a\nlimit 3"},
		{"SELECT 'from where' FROM t", "SELECT 'from where'\nFROM t"},
		{"SELECT a FROM (SELECT b FROM u) WHERE c IN (SELECT d FROM v)", "SELECT a\nFROM (\n  SELECT b\n  FROM u)\nWHERE c IN (\n  SELECT d\n  FROM v)"},
		{"SELECT fromage, t.where_x FROM t", "SELECT fromage, t.where_x\nFROM t"},
		{"SELECT  a\n\n  FROM   t", "SELECT a\nFROM t"},
	}
	for _, tt := range tests {
		if got := FormatSQL(tt.in); got != tt.want {
			t.Errorf("FormatSQL(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestLoadRunErrors(t *testing.T) {
	if _, err := rundir.Load(context.Background(), t.TempDir()); !errors.Is(err, rundir.ErrNotRunDir) {
		t.Errorf("empty dir: err %v, want rundir.ErrNotRunDir", err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	writeRun(t, dir, "", sys{"s", []map[string]any{rec(0, "simple", "correct", "g", "p"), rec(1, "simple", "correct", "g", "p")}})
	path := filepath.Join(dir, "s", "records.jsonl")
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(b), "\n")
	// A torn last line (interrupted run) is a warning; a bad middle line is an error naming it.
	os.WriteFile(path, []byte(lines[0]+lines[1][:10]), 0o644)
	run, err := rundir.Load(context.Background(), dir)
	if err != nil || len(run.Systems[0].Records) != 1 || len(run.Warnings) != 1 {
		t.Errorf("torn line: err %v, warnings %v", err, run.Warnings)
	}
	os.WriteFile(path, []byte(lines[0]+"garbage\n"+lines[1]), 0o644)
	if _, err := rundir.Load(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad line: err %v, want one naming line 2", err)
	}
}

// TestHTMLFlex: records with the NL2SQL++ flexible comparison get a Flex headline column,
// a Flex series in the EX/ETM/ESM chart and their verdict in the drill-down.
func TestHTMLFlex(t *testing.T) {
	root := t.TempDir()
	dbRoot := filepath.Join(root, "db")
	shopDB(t, dbRoot, 5)
	dir := filepath.Join(root, "run")
	all := "SELECT id, name FROM items"
	writeRun(t, dir, dbRoot, sys{"flexy", []map[string]any{
		rec(0, "simple", "correct", all, all, "flex", 1, "flex_verdict", "exact"),
		rec(1, "simple", "incorrect", all, "SELECT name, id, 7 FROM items", "flex", 1, "flex_verdict", "column_flexible"),
	}})
	run := loadFixture(t, dir)
	if !Scores(&run.Summary).has("flex") {
		t.Errorf("no Flex headline column: %+v", Scores(&run.Summary).Columns)
	}
	for _, c := range Charts(run) {
		if c.ID == "ex-etm-esm" && (c.SVG == "" || !strings.Contains(string(c.SVG), "Flex")) {
			t.Errorf("EX/ETM/ESM chart lacks the Flex series (note %q)", c.Note)
		}
	}
	if out := renderHTML(t, run, HTMLOptions{NoExec: true}); !strings.Contains(out, "column_flexible") {
		t.Error("the drill-down does not show the flex verdict")
	}
}

// TestLoadRunBeforeRegistry: a summary.json written before the metrics section existed
// gets it from the registry when read, equal to what eval would have written.
func TestLoadRunBeforeRegistry(t *testing.T) {
	dir := fixtureRun(t)
	want := loadFixture(t, dir).Summary.Metrics
	path := filepath.Join(dir, "summary.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	delete(raw, "metrics")
	if b, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	got := loadFixture(t, dir).Summary.Metrics
	if got == nil || len(got.Definitions) == 0 {
		t.Fatal("no metrics section for an old run")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-written +recomputed):\n%s", d)
	}
}

// TestDrillDownSkipsTimedOut: a prediction that timed out when judged is not run again
// for the drill-down (it would hold a core until the timeout to show nothing), unless the
// drill-down was given a longer timeout than the run's.
func TestDrillDownSkipsTimedOut(t *testing.T) {
	ctx := context.Background()
	run := loadFixture(t, fixtureRun(t))
	run.Summary.Settings.TimeoutS = 0.3
	eng := engine.NewSQLite()
	defer eng.Close()
	const forever = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
	q := func(category string) *QuestionView {
		return &QuestionView{Index: 0, DBID: "shop", Answers: []AnswerView{{ErrorCategory: category}}}
	}
	golds, preds := map[int]string{0: "SELECT 1"}, map[int][]string{0: {forever}}
	tests := []struct {
		name     string
		timeout  time.Duration // the drill-down's; 0: the run's
		category string
		note     string
	}{
		{"timed out when judged", 0, "timeout", "not run again"},
		{"a longer drill-down timeout runs it", 400 * time.Millisecond, "timeout", "timed out"},
		{"another error runs it", 0, "other", "timed out"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := newExecutor(run, eng, ExecOptions{Rows: 5, Timeout: tc.timeout, DBRoot: trustedRoot(run)})
			view := q(tc.category)
			start := time.Now()
			fillResults(ctx, x, view, golds, preds)
			took := time.Since(start)
			if got := view.Answers[0].Result.Note; !strings.Contains(got, tc.note) {
				t.Errorf("note %q, want it to say %q", got, tc.note)
			}
			if ran := took >= 250*time.Millisecond; ran != (tc.note != "not run again") {
				t.Errorf("took %s: ran the prediction %v, want %v", took, ran, !ran)
			}
		})
	}
}
