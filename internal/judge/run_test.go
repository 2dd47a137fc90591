package judge

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// countingEngine counts how often each SQL text is executed.
type countingEngine struct {
	engine.Engine
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingEngine) Query(ctx context.Context, db, q string, lim engine.Limits) (*engine.Result, error) {
	c.mu.Lock()
	c.calls[q]++
	c.mu.Unlock()
	return c.Engine.Query(ctx, db, q, lim)
}

var _ engine.Engine = (*countingEngine)(nil)

// testDataset builds a one-database dataset in a temp dir.
func testDataset(tb testing.TB) *dataset.Dataset {
	tb.Helper()
	root := tb.TempDir()
	dir := filepath.Join(root, "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, "shop.sqlite"))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL)`,
		`INSERT INTO item VALUES (1, 'pen', 1.5), (2, 'ink', 3.0), (3, 'pad', 3.0)`,
	} {
		if _, err := db.Exec(s); err != nil {
			tb.Fatal(err)
		}
	}
	return &dataset.Dataset{Kind: "jsonl", DBRoot: root, Questions: []dataset.Question{
		{Index: 0, ID: "a", DBID: "shop", Gold: []string{"SELECT count(*) FROM item"}, Difficulty: "simple"},
		{Index: 1, ID: "b", DBID: "shop", Gold: []string{"SELECT name FROM item ORDER BY id"}, Difficulty: "simple"},
		{Index: 2, ID: "c", DBID: "gone", Gold: []string{"SELECT 1"}, Difficulty: "moderate"},
		{Index: 3, ID: "d", DBID: "shop", Gold: []string{"SELECT nope FROM item"}, Difficulty: "moderate"},
		{Index: 4, ID: "e", DBID: "shop", Gold: []string{"SELECT price FROM item WHERE id = 1", "SELECT 1.5"}, Difficulty: "challenging"},
	}}
}

func preds(sqls ...string) []*predict.Prediction {
	out := make([]*predict.Prediction, len(sqls))
	for i, s := range sqls {
		out[i] = &predict.Prediction{SQL: s}
	}
	return out
}

func runAll(tb testing.TB, eng engine.Engine, ds *dataset.Dataset, systems []System, opt Options) [][]*record.Record {
	tb.Helper()
	got := make([][]*record.Record, len(systems))
	err := Run(context.Background(), eng, ds, systems, opt, func(s int, r *record.Record) error {
		got[s] = append(got[s], r)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return got
}

func TestRunVerdicts(t *testing.T) {
	ds := testDataset(t)
	eng := &countingEngine{Engine: engine.NewSQLite(), calls: map[string]int{}}
	defer eng.Close()
	systems := []System{
		{Name: "good", Preds: preds("SELECT count(id) FROM item", "SELECT name FROM item ORDER BY id", "SELECT 1", "SELECT 1", "SELECT 1.5")},
		{Name: "bad", Preds: preds("SELECT count(*) FROM items", "SELECT name FROM item ORDER BY id DESC", "SELECT 1", "SELECT 1", "SELECT 1.50")},
		{Name: "same", Preds: preds("SELECT count(id) FROM item", "SELECT name FROM item ORDER BY name", "", "", "DELETE FROM item")},
	}
	got := runAll(t, eng, ds, systems, Options{Workers: 3, Timeout: 5 * time.Second})
	type want struct {
		verdict  record.Verdict
		cat      record.ErrorCategory
		bird, sp int
	}
	wants := [][]want{
		{{record.Correct, "", 1, 1}, {record.Correct, "", 1, 1}, {record.Skipped, "", 0, 0}, {record.GoldError, "", 0, 0}, {record.Correct, "", 1, 1}},
		// ORDER BY reversed: BIRD's sets agree, Spider's ordered lists do not.
		{{record.Error, record.NoSuchTable, 0, 0}, {record.Correct, "", 1, 0}, {record.Skipped, "", 0, 0}, {record.GoldError, "", 0, 0}, {record.Correct, "", 1, 1}},
		{{record.Correct, "", 1, 1}, {record.Correct, "", 1, 0}, {record.Skipped, "", 0, 0}, {record.GoldError, "", 0, 0}, {record.Error, record.Other, 0, 0}},
	}
	for s := range systems {
		if len(got[s]) != len(ds.Questions) {
			t.Fatalf("system %d: %d records", s, len(got[s]))
		}
		for i, r := range got[s] {
			w := wants[s][i]
			if r.Index != i || r.Verdict != w.verdict || r.ErrorCategory != w.cat || r.ExBird != w.bird || r.ExSpider != w.sp {
				t.Errorf("system %s question %d: got index %d %s/%s bird=%d spider=%d (%s), want %s/%s bird=%d spider=%d",
					systems[s].Name, i, r.Index, r.Verdict, r.ErrorCategory, r.ExBird, r.ExSpider, r.ErrorMessage, w.verdict, w.cat, w.bird, w.sp)
			}
		}
	}
	// Gold SQL runs once per question however many systems there are, and the same
	// prediction text once per question however many systems produced it.
	for q, n := range eng.calls {
		if n != 1 {
			t.Errorf("%q executed %d times, want once", q, n)
		}
	}
}

func TestRunSpiderSemanticsDecidesVerdict(t *testing.T) {
	ds := testDataset(t)
	ds.Questions = ds.Questions[1:2]
	eng := engine.NewSQLite()
	defer eng.Close()
	got := runAll(t, eng, ds, []System{{Name: "x", Preds: preds("SELECT name FROM item ORDER BY id DESC")}}, Options{Semantics: Spider})
	if r := got[0][0]; r.Verdict != record.Incorrect || r.ExBird != 1 || r.ExSpider != 0 {
		t.Errorf("got %s bird=%d spider=%d, want incorrect under spider semantics with bird=1 spider=0", r.Verdict, r.ExBird, r.ExSpider)
	}
}

func TestRunResumeFrom(t *testing.T) {
	ds := testDataset(t)
	eng := engine.NewSQLite()
	defer eng.Close()
	p := preds("SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1")
	got := runAll(t, eng, ds, []System{{Name: "a", Preds: p, From: 3}, {Name: "b", Preds: p, From: 1}}, Options{})
	if len(got[0]) != 2 || got[0][0].Index != 3 {
		t.Errorf("system a resumed from 3: got %d records starting at %v", len(got[0]), got[0])
	}
	if len(got[1]) != 4 || got[1][0].Index != 1 {
		t.Errorf("system b resumed from 1: got %d records", len(got[1]))
	}
}

func TestRunCancelled(t *testing.T) {
	ds := testDataset(t)
	eng := engine.NewSQLite()
	defer eng.Close()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	p := preds("SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1")
	err := Run(ctx, eng, ds, []System{{Name: "a", Preds: p}}, Options{Workers: 1}, func(int, *record.Record) error {
		n++
		if n == 2 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if n > 3 {
		t.Errorf("%d records emitted after cancelling at the second", n)
	}
}

func TestRunMissingPrediction(t *testing.T) {
	ds := testDataset(t)
	eng := engine.NewSQLite()
	defer eng.Close()
	p := preds("SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1")
	p[0] = nil
	got := runAll(t, eng, ds, []System{{Name: "a", Preds: p}}, Options{})
	if r := got[0][0]; r.Verdict != record.Error || r.ErrorCategory != record.Other {
		t.Errorf("missing prediction: got %s/%s", r.Verdict, r.ErrorCategory)
	}
	if err := Run(context.Background(), eng, ds, []System{{Name: "short", Preds: p[:2]}}, Options{}, func(int, *record.Record) error { return nil }); err == nil {
		t.Error("a system with fewer predictions than questions was accepted")
	}
}

// TestRunEmptyPrediction: an empty prediction is judged as an empty result (a quirk of
// both official scripts), so it is correct only when the gold result is empty.
func TestRunEmptyPrediction(t *testing.T) {
	ds := testDataset(t)
	ds.Questions = []dataset.Question{
		{Index: 0, ID: "a", DBID: "shop", Gold: []string{"SELECT name FROM item WHERE price > 100"}},
		{Index: 1, ID: "b", DBID: "shop", Gold: []string{"SELECT name FROM item"}},
	}
	eng := engine.NewSQLite()
	defer eng.Close()
	got := runAll(t, eng, ds, []System{{Name: "x", Preds: preds("  -- nothing", "")}}, Options{})
	want := []record.Verdict{record.Correct, record.Incorrect}
	for i, r := range got[0] {
		if r.Verdict != want[i] || r.ErrorMessage != emptyPredictionNote {
			t.Errorf("question %d: %s %q, want %s with the empty-prediction note", i, r.Verdict, r.ErrorMessage, want[i])
		}
	}
}

// annotatorFunc adapts a function to Annotator.
type annotatorFunc func(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error

func (f annotatorFunc) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	return f(ctx, q, dbPath, rec)
}

func TestRunAnnotators(t *testing.T) {
	ds := testDataset(t)
	eng := engine.NewSQLite()
	defer eng.Close()
	p := preds("SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1")
	mark := annotatorFunc(func(_ context.Context, q *dataset.Question, dbPath string, r *record.Record) error {
		if (dbPath == "") != (q.DBID == "gone") {
			t.Errorf("question %d: dbPath %q", q.Index, dbPath)
		}
		r.ErrorMessage += "|annotated " + q.ID
		return nil
	})
	got := runAll(t, eng, ds, []System{{Name: "a", Preds: p}}, Options{Annotators: []Annotator{mark}})
	for i, r := range got[0] {
		if !strings.HasSuffix(r.ErrorMessage, "|annotated "+ds.Questions[i].ID) {
			t.Errorf("record %d not annotated: %q", i, r.ErrorMessage)
		}
	}
	boom := errors.New("boom")
	fail := annotatorFunc(func(context.Context, *dataset.Question, string, *record.Record) error { return boom })
	err := Run(context.Background(), eng, ds, []System{{Name: "a", Preds: p}}, Options{Annotators: []Annotator{fail}}, func(int, *record.Record) error { return nil })
	if !errors.Is(err, boom) {
		t.Errorf("annotator error: got %v, want boom", err)
	}
}

// dbRecorder records which database names an engine was asked for.
type dbRecorder struct {
	countingEngine
	dbs map[string]bool
}

func (d *dbRecorder) Query(ctx context.Context, db, q string, lim engine.Limits) (*engine.Result, error) {
	d.mu.Lock()
	d.dbs[db] = true
	d.mu.Unlock()
	return d.countingEngine.Query(ctx, db, q, lim)
}

// TestRunGoldTarget: with Options.Gold, gold SQL runs only on the gold engine and
// predictions only on the prediction engine, each with its own database names, and a
// prediction identical to the gold runs on both (the caches are per engine).
func TestRunGoldTarget(t *testing.T) {
	ds := testDataset(t)
	sqlite := engine.NewSQLite()
	defer sqlite.Close()
	pred := &dbRecorder{countingEngine: countingEngine{Engine: sqlite, calls: map[string]int{}}, dbs: map[string]bool{}}
	gold := &dbRecorder{countingEngine: countingEngine{Engine: sqlite, calls: map[string]int{}}, dbs: map[string]bool{}}
	// The prediction side names databases its own way (here: through a lookup table that
	// has no "gone", so that question is skipped for lack of a prediction database).
	shop, _ := ds.DBPath("shop")
	locate := func(id string) (string, bool) {
		if id == "shop" {
			return shop, true
		}
		return "", false
	}
	systems := []System{{Name: "s", Preds: preds("SELECT count(*) FROM item", "SELECT name FROM item ORDER BY id", "SELECT 1", "SELECT 1", "SELECT 2")}}
	got := runAll(t, pred, ds, systems, Options{Workers: 2, Locate: locate, Gold: &Target{Engine: gold}})
	verdicts := make([]record.Verdict, len(got[0]))
	for i, r := range got[0] {
		verdicts[i] = r.Verdict
	}
	want := []record.Verdict{record.Correct, record.Correct, record.Skipped, record.GoldError, record.Incorrect}
	if fmt.Sprint(verdicts) != fmt.Sprint(want) {
		t.Errorf("verdicts %v, want %v", verdicts, want)
	}
	if !strings.Contains(got[0][2].ErrorMessage, `database "gone" not found`) {
		t.Errorf("skipped message %q", got[0][2].ErrorMessage)
	}
	if pred.calls["SELECT count(*) FROM item"] != 1 || gold.calls["SELECT count(*) FROM item"] != 1 {
		t.Errorf("identical gold and prediction: pred engine ran it %d times, gold engine %d; want 1 and 1",
			pred.calls["SELECT count(*) FROM item"], gold.calls["SELECT count(*) FROM item"])
	}
	if gold.calls["SELECT 2"] != 0 || pred.calls["SELECT nope FROM item"] != 0 {
		t.Errorf("a query ran on the wrong side: gold engine %v, pred engine %v", gold.calls, pred.calls)
	}
	if len(pred.dbs) != 1 || !pred.dbs[shop] {
		t.Errorf("prediction engine asked for %v, want only %s", pred.dbs, shop)
	}
}
