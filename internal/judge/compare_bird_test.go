package judge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// res builds a result from rows.
func res(rows ...[]any) *engine.Result {
	r := &engine.Result{}
	if len(rows) > 0 {
		for i := range rows[0] {
			r.Columns = append(r.Columns, fmt.Sprintf("c%d", i))
		}
	}
	r = engine.NewResult(r.Columns, rows)
	return r
}

func row(v ...any) []any { return v }

func TestBirdEqual(t *testing.T) {
	tests := []struct {
		name       string
		pred, gold *engine.Result
		want       bool
	}{
		{"both empty", res(), res(), true},
		{"nil is empty", nil, res(), true},
		{"empty vs rows", res(), res(row(int64(1))), false},
		{"rows vs empty", res(row(int64(1))), res(), false},
		{"same", res(row(int64(1), "a")), res(row(int64(1), "a")), true},
		{"row order ignored", res(row(int64(1)), row(int64(2))), res(row(int64(2)), row(int64(1))), true},
		{"duplicates ignored", res(row(int64(1)), row(int64(1)), row(int64(2))), res(row(int64(2)), row(int64(1))), true},
		{"column order matters", res(row(int64(1), int64(2))), res(row(int64(2), int64(1))), false},
		{"width differs", res(row(int64(1), int64(2))), res(row(int64(1))), false},
		{"int equals float", res(row(int64(1))), res(row(1.0)), true},
		{"negative zero", res(row(math.Copysign(0, -1))), res(row(int64(0))), true},
		{"float exact", res(row(pointOne + 0.2)), res(row(0.3)), false},
		{"int vs rounded float", res(row(int64(1<<53 + 1))), res(row(float64(1 << 53))), false},
		{"text vs blob", res(row("a")), res(row([]byte("a"))), false},
		{"blob vs blob", res(row([]byte{0, 1})), res(row([]byte{0, 1})), true},
		{"text exact", res(row("a"), row("b")), res(row("a "), row("b")), false},
		{"text case", res(row("A")), res(row("a")), false},
		{"null", res(row(nil, "x")), res(row(nil, "x")), true},
		{"null vs empty text", res(row(nil)), res(row("")), false},
		{"null vs zero", res(row(nil)), res(row(int64(0))), false},
		{"int and float rows shuffled", res(row(1.0), row(int64(2)), row(int64(2))), res(row(2.0), row(int64(1))), true},
		{"set differs by one value", res(row(int64(1)), row(int64(2))), res(row(int64(1)), row(int64(3))), false},
		{"extra row", res(row(int64(1)), row(int64(2))), res(row(int64(1))), false},
		{"blob with invalid utf-8 is fine", res(row([]byte("\xff"))), res(row([]byte("\xff"))), true},
		// Quirk (BIRD-utf8): Python's default text_factory raises on invalid UTF-8.
		{"quirk: invalid utf-8 in pred", res(row("a\xff")), res(row("a")), false},
		{"quirk: invalid utf-8 in gold", res(row("a")), res(row("a\xff")), false},
		{"quirk: identical invalid utf-8", res(row("a\xff")), res(row("a\xff")), false},
		{"quirk: invalid utf-8 in an empty-vs-empty pair cannot occur", res(), res(), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BirdEqual(tc.pred, tc.gold); got != tc.want {
				t.Errorf("BirdEqual = %v, want %v", got, tc.want)
			}
		})
	}
}

// A shuffled copy with some rows repeated is the same set; dropping a distinct row is not.
func TestBirdEqualShuffled(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 300; n += 37 {
		gold := realisticResult(rng, n, 3)
		pred := &engine.Result{Columns: gold.Columns}
		for _, i := range rng.Perm(n) {
			pred = appendRow(pred, gold.Row(i))
			if i%5 == 0 {
				pred = appendRow(pred, gold.Row(i))
			}
		}
		if !BirdEqual(pred, gold) {
			t.Errorf("n=%d: shuffled copy not equal", n)
		}
		pred = appendRow(pred, row("new", int64(-1), nil))
		if BirdEqual(pred, gold) {
			t.Errorf("n=%d: extra row not noticed", n)
		}
	}
}

func TestBirdEqualAllocations(t *testing.T) {
	p, g := res(row(int64(3))), res(row(3.0))
	if n := testing.AllocsPerRun(100, func() { BirdEqual(p, g) }); n > 2 {
		t.Errorf("one-row comparison allocates %v times, want at most 2", n)
	}
}

// realisticResult makes rows like the ones Spider and BIRD queries return: a name, a
// count, a measure and sometimes a NULL.
func realisticResult(rng *rand.Rand, rows, width int) *engine.Result {
	r := &engine.Result{}
	for j := 0; j < width; j++ {
		r.Columns = append(r.Columns, fmt.Sprintf("c%d", j))
	}
	for i := 0; i < rows; i++ {
		rw := make([]any, width)
		for j := range rw {
			switch j % 3 {
			case 0:
				rw[j] = fmt.Sprintf("name %d", i)
			case 1:
				rw[j] = int64(rng.IntN(1000))
			default:
				if rng.IntN(10) == 0 {
					rw[j] = nil
				} else {
					rw[j] = float64(rng.IntN(100000)) / 100
				}
			}
		}
		r = appendRow(r, rw)
	}
	return r
}

func BenchmarkBirdEqual(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []struct{ rows, width int }{{1, 1}, {10, 2}, {100, 3}, {10000, 3}} {
		gold := realisticResult(rng, size.rows, size.width)
		pred := &engine.Result{Columns: gold.Columns}
		for _, i := range rng.Perm(size.rows) {
			pred = appendRow(pred, gold.Row(i))
		}
		b.Run(fmt.Sprintf("%dx%d", size.rows, size.width), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !BirdEqual(pred, gold) {
					b.Fatal("not equal")
				}
			}
		})
	}
}
