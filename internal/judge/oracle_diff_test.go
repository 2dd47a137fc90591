package judge

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// diffPool holds the values that stress Python's equality: ints and the floats equal to
// them, -0.0, NaN and the infinities, ints beyond 2^53 against the nearest float, the
// int64 limits, texts against blobs with the same bytes, and text that is not UTF-8.
var diffPool = []any{
	nil, int64(0), int64(1), int64(-1), 1.0, 0.0, math.Copysign(0, -1), 0.5, -2.5,
	math.NaN(), math.Inf(1), math.Inf(-1),
	int64(1<<53 + 1), float64(1 << 53), int64(1 << 53), int64(math.MaxInt64), float64(math.MaxInt64),
	int64(math.MinInt64), float64(math.MinInt64),
	"a", "", "1", "1.0", "ab", "a\xffb", "\xff", []byte("a"), []byte{}, []byte("1"), []byte("\xff"),
}

// diffPair generates a gold result and a prediction related to it (a copy, its rows
// shuffled, its columns permuted, values swapped for equal ones of another type, a
// row duplicated or changed) or unrelated, from one seed.
func diffPair(seed uint64) (gold, pred [][]any) {
	rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	width := 1 + rng.IntN(4)
	pool := diffPool[:4+rng.IntN(len(diffPool)-3)] // small pools repeat values
	val := func() any { return pool[rng.IntN(len(pool))] }
	nrows := rng.IntN(7)
	for range nrows {
		row := make([]any, width)
		for j := range row {
			row[j] = val()
		}
		gold = append(gold, row)
	}
	if rng.IntN(5) == 0 { // unrelated, possibly of another width
		w := width
		if rng.IntN(3) == 0 {
			w = 1 + rng.IntN(4)
		}
		for range rng.IntN(7) {
			row := make([]any, w)
			for j := range row {
				row[j] = val()
			}
			pred = append(pred, row)
		}
		return gold, pred
	}
	perm := rng.Perm(width)
	permute := rng.IntN(3) == 0
	for _, i := range rng.Perm(nrows) {
		if rng.IntN(2) == 0 {
			i = len(pred) % max(nrows, 1) // keep the order for part of the pairs
		}
		row := make([]any, width)
		for j := range row {
			c := j
			if permute {
				c = perm[j]
			}
			row[j] = retype(gold[i][c], rng)
		}
		pred = append(pred, row)
	}
	switch rng.IntN(6) {
	case 0:
		if len(pred) > 0 {
			pred = append(pred, pred[rng.IntN(len(pred))]) // a duplicate
		}
	case 1:
		if len(pred) > 0 {
			pred[rng.IntN(len(pred))][rng.IntN(width)] = val()
		}
	case 2:
		if len(pred) > 0 {
			pred = pred[:len(pred)-1]
		}
	}
	return gold, pred
}

// retype sometimes swaps a value for an equal one of another type (1 for 1.0, a text
// for the blob of its bytes) or a near one (2^53 + 1 for 2^53).
func retype(v any, rng *rand.Rand) any {
	if rng.IntN(3) != 0 {
		return v
	}
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			return int64(x)
		}
	case string:
		return []byte(x)
	case []byte:
		return string(x)
	}
	return v
}

// checkAgainstOracle compares every comparator that changed with its [][]any oracle.
func checkAgainstOracle(t *testing.T, gold, pred [][]any) {
	t.Helper()
	g, p := engine.NewResult(nil, gold), engine.NewResult(nil, pred)
	if got, want := BirdEqual(p, g), oldBirdEqual(pred, gold); got != want {
		t.Fatalf("BirdEqual = %v, oracle %v\npred %v\ngold %v", got, want, pred, gold)
	}
	for _, ordered := range []bool{false, true} {
		if got, want := SpiderEqual(g, p, ordered), oldSpiderEqual(gold, pred, ordered); got != want {
			t.Fatalf("SpiderEqual(ordered %v) = %v, oracle %v\npred %v\ngold %v", ordered, got, want, pred, gold)
		}
	}
	got, want := SoftF1(p, g), oldSoftF1(pred, gold)
	if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Fatalf("SoftF1 = %v, oracle %v\npred %v\ngold %v", got, want, pred, gold)
	}
}

// TestComparatorsMatchOracle runs the differential check on 50,000 generated pairs and
// on the nil and empty results.
func TestComparatorsMatchOracle(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing: beside the package's other slow tests (issue 44)
	for seed := range uint64(50000) {
		gold, pred := diffPair(seed)
		checkAgainstOracle(t, gold, pred)
	}
	one := [][]any{{int64(1)}}
	for _, pair := range [][2][][]any{{nil, nil}, {one, nil}, {nil, one}, {{}, one}} {
		checkAgainstOracle(t, pair[0], pair[1])
	}
	if !BirdEqual(nil, &engine.Result{}) || SoftF1(nil, nil) != 1 || !SpiderEqual(nil, nil, true) {
		t.Error("nil results must be empty ones")
	}
}

// FuzzCompareOracle: the comparators on engine.Result give the verdicts and Soft-F1
// scores of the former [][]any comparators (oracle_old_test.go) on generated pairs.
func FuzzCompareOracle(f *testing.F) {
	for _, s := range []uint64{0, 1, 7, 42, 1 << 40} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		gold, pred := diffPair(seed)
		checkAgainstOracle(t, gold, pred)
	})
}
