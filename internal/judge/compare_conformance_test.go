package judge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// These tests hold the comparators to the verdicts the official BIRD and Spider scripts
// gave on real predictions (../shared/data/*/reference), row by row.

// confExec runs queries for the conformance tests, once per (database, SQL).
type confExec struct {
	eng   *engine.SQLite
	mu    sync.Mutex
	cache map[[2]string]confOutcome
}

type confOutcome struct {
	res *engine.Result
	err error
}

func newConfExec(tb testing.TB) *confExec {
	tb.Helper()
	e := &confExec{eng: engine.NewSQLite(), cache: map[[2]string]confOutcome{}}
	tb.Cleanup(func() {
		if err := e.eng.Close(); err != nil {
			tb.Errorf("close engine: %v", err)
		}
	})
	return e
}

// run executes sql the way the reference scripts' Python sqlite3 would: an empty
// statement (nothing but white space, comments or semicolons) runs and fetches no rows.
func (e *confExec) run(db, sql string) (*engine.Result, error) {
	k := [2]string{db, sql}
	e.mu.Lock()
	o, ok := e.cache[k]
	e.mu.Unlock()
	if ok {
		return o.res, o.err
	}
	res, err := e.eng.Query(context.Background(), db, sql, engine.Limits{Timeout: 30 * time.Second})
	if errors.Is(err, engine.ErrEmptyQuery) {
		res, err = &engine.Result{}, nil
	}
	e.mu.Lock()
	e.cache[k] = confOutcome{res, err}
	e.mu.Unlock()
	return res, err
}

// stopwatch adds up durations from several goroutines.
type stopwatch struct {
	mu sync.Mutex
	d  time.Duration
}

func (s *stopwatch) add(d time.Duration) {
	s.mu.Lock()
	s.d += d
	s.mu.Unlock()
}

func (s *stopwatch) total() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.d
}

// confRow is one reference verdict.
type confRow struct {
	index int
	want  map[string]string
}

// readRefTSV reads a reference TSV into rows keyed by column name.
func readRefTSV(tb testing.TB, path string) []confRow {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("open reference: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var header []string
	var rows []confRow
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = fields
			continue
		}
		r := confRow{want: map[string]string{}}
		for i, h := range header {
			if i < len(fields) {
				r.want[h] = fields[i]
			}
		}
		r.index, err = strconv.Atoi(r.want["index"])
		if err != nil {
			tb.Fatalf("%s: bad index %q", path, r.want["index"])
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read reference: %v", err)
	}
	return rows
}

func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("parse %s: %v", path, err)
	}
}

// parallelRows calls check for every row on two workers (the machines have two cores).
func parallelRows(rows []confRow, check func(r confRow)) {
	var wg sync.WaitGroup
	ch := make(chan confRow)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range ch {
				check(r)
			}
		}()
	}
	for _, r := range rows {
		ch <- r
	}
	close(ch)
	wg.Wait()
}

func verdict(ok bool) string {
	if ok {
		return "1"
	}
	return "0"
}

// TestSpiderConformance checks BirdEqual against bird_ex and SpiderEqual against ts_exec
// for three systems' real predictions on Spider dev (972 executable questions each).
func TestSpiderConformance(t *testing.T) {
	root := testutil.Shared(t, "data/spider")
	dev := testutil.SpiderDev(t)
	ex := newConfExec(t)
	for _, sys := range []string{"DAIL", "C3", "DIN"} {
		t.Run(sys, func(t *testing.T) {
			lines := testutil.SpiderPredictions(t, sys)
			if len(lines) != len(dev) {
				t.Fatalf("%d predictions for %d questions", len(lines), len(dev))
			}
			rows := readRefTSV(t, filepath.Join(root, "reference", sys+".tsv"))
			if len(rows) != 972 {
				t.Errorf("reference has %d rows, want 972", len(rows))
			}
			var mu sync.Mutex
			var birdTime, spiderTime stopwatch
			agreeBird, agreeSpider := 0, 0
			parallelRows(rows, func(r confRow) {
				q := dev[r.index]
				db := testutil.SpiderDB(t, q.DBID)
				pred := lines[r.index] // evaluation.py: the line stripped, up to its first tab

				pr, perr := ex.run(db, pred)
				gr, gerr := ex.run(db, q.Query)
				if gerr != nil {
					t.Errorf("index %d: gold fails: %v\n  gold: %s", r.index, gerr, q.Query)
				}
				t0 := time.Now()
				bird := verdict(perr == nil && gerr == nil && BirdEqual(pr, gr))
				birdTime.add(time.Since(t0))

				sg, sp := SpiderRewriteGold(q.Query), SpiderRewritePred(pred)
				spr, sperr := ex.run(db, sp)
				sgr, sgerr := ex.run(db, sg)
				if sgerr != nil {
					t.Errorf("index %d: rewritten gold fails: %v\n  gold: %s", r.index, sgerr, sg)
				}
				t0 = time.Now()
				spider := verdict(sperr == nil && sgerr == nil && SpiderEqual(sgr, spr, SpiderOrderMatters(sg)))
				spiderTime.add(time.Since(t0))

				mu.Lock()
				defer mu.Unlock()
				if bird == r.want["bird_ex"] {
					agreeBird++
				} else {
					t.Errorf("index %d bird_ex: got %s want %s (pred err %v)\n  pred: %s\n  gold: %s",
						r.index, bird, r.want["bird_ex"], perr, pred, q.Query)
				}
				if spider == r.want["ts_exec"] {
					agreeSpider++
				} else {
					t.Errorf("index %d ts_exec: got %s want %s (pred err %v)\n  pred: %s\n  gold: %s",
						r.index, spider, r.want["ts_exec"], sperr, sp, sg)
				}
			})
			t.Logf("%s: bird_ex agrees on %d/%d, ts_exec on %d/%d (comparators: BirdEqual %v, SpiderEqual %v in all)",
				sys, agreeBird, len(rows), agreeSpider, len(rows), birdTime.total(), spiderTime.total())
		})
	}
}

// birdCase is one BIRD prediction set with its reference verdicts.
type birdCase struct {
	name  string
	ref   string
	preds func(tb testing.TB) map[int]string
	gold  []birdQuestion
}

type birdQuestion struct {
	SQL  string `json:"SQL"`
	DBID string `json:"db_id"`
}

// birdJSONPreds reads BIRD's prediction format {"i": "SQL\t----- bird -----\tdb_id"} the
// way evaluation_utils.py package_sqls does (the SQL is not stripped).
func birdJSONPreds(path string) func(tb testing.TB) map[int]string {
	return func(tb testing.TB) map[int]string {
		var raw map[string]any
		readJSON(tb, path, &raw)
		out := map[int]string{}
		for k, v := range raw {
			i, err := strconv.Atoi(k)
			if err != nil {
				tb.Fatalf("%s: key %q", path, k)
			}
			s, ok := v.(string)
			if !ok {
				out[i] = " " // package_sqls replaces a non-string with a blank query
				continue
			}
			if sql, _, found := strings.Cut(s, "\t----- bird -----\t"); found {
				out[i] = sql
			} else {
				out[i] = strings.TrimSpace(s)
			}
		}
		return out
	}
}

// birdLinePreds reads one SQL per line, line i answering question i.
func birdLinePreds(path string) func(tb testing.TB) map[int]string {
	return func(tb testing.TB) map[int]string {
		b, err := os.ReadFile(path)
		if err != nil {
			tb.Fatalf("read predictions: %v", err)
		}
		out := map[int]string{}
		for i, l := range strings.Split(string(b), "\n") {
			out[i] = l
		}
		return out
	}
}

// birdConformanceCases returns the BIRD data directory, the superhero database and the
// four prediction sets whose official verdicts are in data/bird/reference (skipping the
// test when ../shared is absent).
func birdConformanceCases(t *testing.T) (root, db string, cases []birdCase) {
	t.Helper()
	root = testutil.Shared(t, "data/bird")
	db = testutil.Shared(t, "data/bird/dev_databases/superhero/superhero.sqlite")
	var dev, mini []birdQuestion
	readJSON(t, filepath.Join(root, "dev.json"), &dev)
	readJSON(t, filepath.Join(root, "mini_dev_sqlite.json"), &mini)
	cases = []birdCase{
		{"dev_C3", "dev_C3.tsv", birdLinePreds(filepath.Join(root, "predictions/dev/C3.txt")), dev},
		{"dev_TA-SQL", "dev_TA-SQL.tsv", birdJSONPreds(filepath.Join(root, "predictions/dev/TA-SQL_predict_dev.json")), dev},
		{"mini_dev_gpt-4", "mini_dev_gpt-4_sqlite.tsv",
			birdJSONPreds(filepath.Join(root, "predictions/mini_dev/predict_mini_dev_gpt-4_sqlite.json")), mini},
		{"mini_dev_llama-3-70b", "mini_dev_meta-llama-3-70b-instruct-2_sqlite.tsv",
			birdJSONPreds(filepath.Join(root, "predictions/mini_dev/predict_mini_dev_meta-llama-3-70b-instruct-2_sqlite.json")), mini},
	}
	return root, db, cases
}

// eachBirdRow runs both queries of every reference row of every BIRD conformance case and
// hands them to check, which reports whether our value agrees with the reference row; the
// agreement per case is logged under metric's name.
func eachBirdRow(t *testing.T, metric string, check func(t *testing.T, r confRow, pred, gold string, pr, gr *engine.Result, perr, gerr error) bool) {
	root, db, cases := birdConformanceCases(t)
	ex := newConfExec(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			preds := c.preds(t)
			rows := readRefTSV(t, filepath.Join(root, "reference", c.ref))
			if len(rows) == 0 {
				t.Fatal("empty reference")
			}
			var mu sync.Mutex
			agree := 0
			parallelRows(rows, func(r confRow) {
				q := c.gold[r.index]
				if q.DBID != "superhero" {
					t.Errorf("index %d: reference row for db %s", r.index, q.DBID)
					return
				}
				pred, ok := preds[r.index]
				if !ok {
					t.Errorf("index %d: no prediction", r.index)
					return
				}
				pr, perr := ex.run(db, pred)
				gr, gerr := ex.run(db, q.SQL)
				mu.Lock()
				defer mu.Unlock()
				if check(t, r, pred, q.SQL, pr, gr, perr, gerr) {
					agree++
				}
			})
			t.Logf("%s: %s agrees on %d/%d", c.name, metric, agree, len(rows))
		})
	}
}

// TestBirdConformance checks BirdEqual against bird_ex on the BIRD superhero questions
// (the one BIRD database available) for two dev and two mini-dev prediction sets.
func TestBirdConformance(t *testing.T) {
	eachBirdRow(t, "bird_ex", func(t *testing.T, r confRow, pred, gold string, pr, gr *engine.Result, perr, gerr error) bool {
		got := verdict(perr == nil && gerr == nil && BirdEqual(pr, gr))
		if got == r.want["bird_ex"] {
			return true
		}
		t.Errorf("index %d bird_ex: got %s want %s (pred err %v, gold err %v)\n  pred: %s\n  gold: %s",
			r.index, got, r.want["bird_ex"], perr, gerr, pred, gold)
		return false
	})
}
