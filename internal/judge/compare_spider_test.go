package judge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

func TestSpiderEqual(t *testing.T) {
	i := func(v int64) any { return v }
	tests := []struct {
		name       string
		gold, pred *engine.Result
		ordered    bool
		want       bool
		birdAgrees bool // BirdEqual(pred, gold) == want as well
	}{
		{name: "both empty", gold: res(), pred: res(), want: true, birdAgrees: true},
		{name: "empty widths ignored", gold: &engine.Result{Columns: []string{"a"}}, pred: &engine.Result{Columns: []string{"a", "b"}}, want: true, birdAgrees: true},
		{name: "gold empty", gold: res(), pred: res(row(i(1))), want: false, birdAgrees: true},
		{name: "pred empty", gold: res(row(i(1))), pred: res(), want: false, birdAgrees: true},
		{name: "row count", gold: res(row(i(1)), row(i(2))), pred: res(row(i(1))), want: false},
		{name: "column count", gold: res(row(i(1), i(2))), pred: res(row(i(1))), want: false, birdAgrees: true},
		{name: "same", gold: res(row(i(1), "a")), pred: res(row(i(1), "a")), want: true, birdAgrees: true},
		{name: "columns swapped", gold: res(row(i(1), "a"), row(i(2), "b")), pred: res(row("a", i(1)), row("b", i(2))), want: true},
		{name: "columns swapped, ordered", gold: res(row(i(1), "a"), row(i(2), "b")), pred: res(row("a", i(1)), row("b", i(2))), ordered: true, want: true},
		{name: "rows swapped", gold: res(row(i(1)), row(i(2))), pred: res(row(i(2)), row(i(1))), want: true, birdAgrees: true},
		{name: "rows swapped, ordered", gold: res(row(i(1)), row(i(2))), pred: res(row(i(2)), row(i(1))), ordered: true, want: false},
		{name: "bag, not set", gold: res(row(i(1)), row(i(1)), row(i(2))), pred: res(row(i(1)), row(i(2)), row(i(2))), want: false},
		{name: "duplicates kept", gold: res(row(i(1)), row(i(1))), pred: res(row(i(1)), row(i(1))), want: true, birdAgrees: true},
		{name: "columns must be permuted together", gold: res(row(i(1), i(2)), row(i(3), i(4))), pred: res(row(i(2), i(1)), row(i(3), i(4))), want: false, birdAgrees: true},
		{name: "int equals float", gold: res(row(i(3))), pred: res(row(3.0)), want: true, birdAgrees: true},
		{name: "text vs blob", gold: res(row("a")), pred: res(row([]byte("a"))), want: false, birdAgrees: true},
		{name: "null", gold: res(row(nil, "x")), pred: res(row("x", nil)), want: true},
		// Quirk (Spider-utf8): text decoded with errors="ignore".
		{name: "quirk: invalid utf-8 dropped", gold: res(row("ab")), pred: res(row("a\xffb")), want: true},
		{name: "quirk: identical invalid utf-8", gold: res(row("a\xff")), pred: res(row("a\xff")), want: true},
		{name: "ordered, one permutation for all rows", gold: res(row(i(1), i(1)), row(i(1), i(2))), pred: res(row(i(1), i(1)), row(i(2), i(1))), ordered: true, want: true},
		{name: "ordered, no single permutation", gold: res(row(i(1), i(2)), row(i(3), i(4))), pred: res(row(i(2), i(1)), row(i(3), i(4))), ordered: true, want: false},
		// Quirk (Spider-quickrej): 2 sorts after 2.5 by str(), 2.0 before it, so the
		// sorted rows differ although a permutation would match.
		{name: "quirk: int/float reorder the row", gold: res(row(i(2), 2.5)), pred: res(row(2.0, 2.5)), want: false, birdAgrees: false},
		{name: "quirk: same with equal types", gold: res(row(2.0, 2.5)), pred: res(row(2.0, 2.5)), want: true, birdAgrees: true},
		{name: "quirk: reorder also when ordered", gold: res(row(i(2), 2.5)), pred: res(row(2.0, 2.5)), ordered: true, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SpiderEqual(tc.gold, tc.pred, tc.ordered); got != tc.want {
				t.Errorf("SpiderEqual = %v, want %v", got, tc.want)
			}
			if tc.birdAgrees {
				if got := BirdEqual(tc.pred, tc.gold); got != tc.want {
					t.Errorf("BirdEqual = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestUnorderRows(t *testing.T) {
	tests := []struct {
		in, want []any
	}{
		{row(int64(2), 2.5), row(2.5, int64(2))},
		{row(2.0, 2.5), row(2.0, 2.5)},
		{row("b", "a"), row("a", "b")},
		{row(nil, int64(1)), row(int64(1), nil)},
		{row(int64(10), int64(9)), row(int64(10), int64(9))},
		{row([]byte("a"), "a"), row("a", []byte("a"))},
		{row(1.0, int64(1)), row(1.0, int64(1))},
	}
	for _, tc := range tests {
		in, _ := pyTableOf(res(tc.in), textIgnore)
		want, _ := pyTableOf(res(tc.want), textIgnore)
		got := unorderRows(&in)
		for j := range got.cells {
			if got.cells[j].kind != want.cells[j].kind || got.cells[j].key != want.cells[j].key {
				t.Errorf("unorder_row(%v): got %v, want %v", tc.in, got.cells, want.cells)
				break
			}
		}
	}
}

func TestSpiderOrderMatters(t *testing.T) {
	tests := []struct {
		sql  string
		want bool
	}{
		{"SELECT a FROM t ORDER BY a", true},
		{"select a from t order by a desc limit 1", true},
		{"SELECT a FROM t", false},
		{"SELECT a FROM t GROUP BY a", false},
		// Quirk (Spider-orderby): a substring test on the text.
		{"SELECT a FROM t ORDER  BY a", false},
		{"SELECT a FROM t ORDER\nBY a", false},
		{"SELECT a FROM t WHERE b = 'order by'", true},
		{"SELECT reorder by FROM t", true},
		{"SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3)", true},
	}
	for _, tc := range tests {
		if got := SpiderOrderMatters(tc.sql); got != tc.want {
			t.Errorf("SpiderOrderMatters(%q) = %v, want %v", tc.sql, got, tc.want)
		}
	}
}

// bruteSpider is the permutation search done the slow way: every column permutation,
// rows compared as lists or as sorted bags. The quick rejection comes from the code
// under test, which TestSpiderEqual and TestUnorderRows pin down separately.
func bruteSpider(gold, pred *engine.Result, ordered bool) bool {
	g, _ := pyTableOf(gold, textIgnore)
	p, _ := pyTableOf(pred, textIgnore)
	if g.rows == 0 && p.rows == 0 {
		return true
	}
	if g.rows != p.rows || g.width != p.width || !spiderQuickAccept(&g, &p, ordered) {
		return false
	}
	rowKey := func(t *pyTable, r int, perm []int) string {
		s := ""
		for _, c := range perm {
			k := t.row(r)[c].key
			s += fmt.Sprintf("%d:%d:%q|", k.kind, k.n, k.s)
		}
		return s
	}
	id := make([]int, g.width)
	for j := range id {
		id[j] = j
	}
	var gk []string
	for r := 0; r < g.rows; r++ {
		gk = append(gk, rowKey(&g, r, id))
	}
	if !ordered {
		slices.Sort(gk)
	}
	found := false
	var permute func(k int)
	permute = func(k int) {
		if found {
			return
		}
		if k == len(id) {
			var pk []string
			for r := 0; r < p.rows; r++ {
				pk = append(pk, rowKey(&p, r, id))
			}
			if !ordered {
				slices.Sort(pk)
			}
			found = slices.Equal(gk, pk)
			return
		}
		for j := k; j < len(id); j++ {
			id[k], id[j] = id[j], id[k]
			permute(k + 1)
			id[k], id[j] = id[j], id[k]
		}
	}
	permute(0)
	return found
}

// Random small tables over a value pool full of near-collisions (1 and 1.0, 2 and 2.5,
// "1" and 1, NULL) agree with the brute-force search.
func TestSpiderEqualMatchesBruteForce(t *testing.T) {
	pool := []any{int64(1), 1.0, int64(2), 2.5, "1", "a", nil, []byte("a")}
	rng := rand.New(rand.NewPCG(5, 6))
	randRes := func(rows, width int) *engine.Result {
		r := &engine.Result{}
		for i := 0; i < rows; i++ {
			rw := make([]any, width)
			for j := range rw {
				rw[j] = pool[rng.IntN(3+rng.IntN(len(pool)-2))]
			}
			r = appendRow(r, rw)
		}
		return r
	}
	agreeTrue := 0
	for n := 0; n < 20000; n++ {
		rows, width := 1+rng.IntN(4), 1+rng.IntN(4)
		gold := randRes(rows, width)
		var pred *engine.Result
		if rng.IntN(2) == 0 { // a permuted copy, sometimes with one value changed
			pred = &engine.Result{}
			cols := rng.Perm(width)
			for _, ri := range rng.Perm(rows) {
				rw := make([]any, width)
				for j, c := range cols {
					rw[j] = gold.Value(ri, c)
				}
				pred = appendRow(pred, rw)
			}
			if rng.IntN(3) == 0 {
				rows := pred.BoxedRows()
				rows[0][rng.IntN(width)] = pool[rng.IntN(len(pool))]
				pred = engine.NewResult(pred.Columns, rows)
			}
		} else {
			pred = randRes(rows, width)
		}
		ordered := rng.IntN(2) == 0
		want := bruteSpider(gold, pred, ordered)
		if got := SpiderEqual(gold, pred, ordered); got != want {
			t.Fatalf("SpiderEqual(%v, %v, %v) = %v, brute force says %v", gold.BoxedRows(), pred.BoxedRows(), ordered, got, want)
		}
		if want {
			agreeTrue++
		}
	}
	if agreeTrue < 1000 {
		t.Errorf("only %d equal pairs generated; the test is too weak", agreeTrue)
	}
}

// Many interchangeable columns must not blow up the permutation search.
func TestSpiderEqualWideInterchangeableColumns(t *testing.T) {
	const width, rows = 10, 200
	gold := &engine.Result{}
	for r := 0; r < rows; r++ {
		rw := make([]any, width)
		for j := range rw {
			rw[j] = int64((r * (j + 1)) % 7) // columns share values, rows differ
		}
		gold = appendRow(gold, rw)
	}
	pred := &engine.Result{}
	perm := []int{3, 1, 4, 0, 5, 9, 2, 6, 8, 7}
	for _, rw := range gold.BoxedRows() {
		p := make([]any, width)
		for j, c := range perm {
			p[j] = rw[c]
		}
		pred = appendRow(pred, p)
	}
	if !SpiderEqual(gold, pred, false) || !SpiderEqual(gold, pred, true) {
		t.Error("permuted columns not matched")
	}
	prows := pred.BoxedRows()
	prows[17][0], prows[17][1] = prows[17][1], prows[17][0]
	pred = engine.NewResult(pred.Columns, prows)
	if pred.Value(17, 0) != pred.Value(17, 1) && (SpiderEqual(gold, pred, false) || SpiderEqual(gold, pred, true)) {
		t.Error("one row with two values swapped still matched")
	}
}

// BenchmarkSpiderEqual: "shuffled" is a correct prediction with its rows in another
// order (the fast path); "reversed" also has its columns reversed, so quick_rej and the
// permutation search run in full.
func BenchmarkSpiderEqual(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range []struct{ rows, width int }{{1, 1}, {10, 2}, {100, 3}, {10000, 3}} {
		gold := realisticResult(rng, size.rows, size.width)
		shuffled, reversed := &engine.Result{}, &engine.Result{}
		for _, i := range rng.Perm(size.rows) {
			shuffled = appendRow(shuffled, gold.Row(i))
			rw := slices.Clone(gold.Row(i))
			slices.Reverse(rw)
			reversed = appendRow(reversed, rw)
		}
		for _, c := range []struct {
			name string
			pred *engine.Result
		}{{"shuffled", shuffled}, {"reversed", reversed}} {
			b.Run(fmt.Sprintf("%s/%dx%d", c.name, size.rows, size.width), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if !SpiderEqual(gold, c.pred, false) {
						b.Fatal("not equal")
					}
				}
			})
		}
	}
}

// Quirk (Spider-quickrej) in one line: BIRD's set comparison accepts the pair that
// Spider's quick rejection refuses.
func TestSpiderQuickRejQuirkVersusBird(t *testing.T) {
	gold, pred := res(row(int64(2), 2.5)), res(row(2.0, 2.5))
	if !BirdEqual(pred, gold) {
		t.Error("BirdEqual: (2.0, 2.5) should equal (2, 2.5)")
	}
	if SpiderEqual(gold, pred, false) {
		t.Error("SpiderEqual: quick_rej should refuse (2.0, 2.5) against (2, 2.5)")
	}
	g, _ := pyTableOf(gold, textIgnore)
	p, _ := pyTableOf(pred, textIgnore)
	if !bagColumnMatch(&g, &p) {
		t.Error("the permutation search alone accepts the pair")
	}
}
