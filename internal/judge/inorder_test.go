package judge

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// twoSystems gives question i one record per system, after a random pause so that
// workers finish out of order.
func twoSystems(calls *atomic.Int32) judgeOneFunc {
	return func(ctx context.Context, i int) ([]*record.Record, error) {
		calls.Add(1)
		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
		return []*record.Record{{Index: i}, {Index: i}}, nil
	}
}

type emitted struct{ system, index int }

func collect(out *[]emitted) Emit {
	return func(s int, rec *record.Record) error {
		*out = append(*out, emitted{s, rec.Index})
		return nil
	}
}

func TestJudgeInOrderEmitsInDatasetOrder(t *testing.T) {
	tests := []struct {
		name string
		from []int
	}{
		{"fresh", []int{0, 0}},
		{"system 1 resumed at 7", []int{0, 7}},
		{"both resumed", []int{5, 3}},
		{"both complete", []int{40, 40}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			var got []emitted
			var progress []int
			o := ordered{n: 40, from: tt.from, workers: 4, progress: func(done, total int) { progress = append(progress, done) }}
			if err := judgeInOrder(context.Background(), o, twoSystems(&calls), collect(&got)); err != nil {
				t.Fatal(err)
			}
			var want []emitted
			start := min(tt.from[0], tt.from[1])
			for i := start; i < 40; i++ {
				for s := range 2 {
					if i >= tt.from[s] {
						want = append(want, emitted{s, i})
					}
				}
			}
			if len(got) != len(want) {
				t.Fatalf("emitted %d records, want %d", len(got), len(want))
			}
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("record %d: got %+v, want %+v", k, got[k], want[k])
				}
			}
			if int(calls.Load()) != 40-start {
				t.Errorf("judged %d questions, want %d (none before the earliest resume point)", calls.Load(), 40-start)
			}
			if len(progress) != 40-start || (len(progress) > 0 && progress[len(progress)-1] != 40) {
				t.Errorf("progress calls %v", progress)
			}
		})
	}
}

func TestJudgeInOrderHaltsAtTheFirstError(t *testing.T) {
	errFault := errors.New("fault at 12")
	var calls atomic.Int32
	judgeOne := func(ctx context.Context, i int) ([]*record.Record, error) {
		calls.Add(1)
		if i == 12 {
			return nil, errFault
		}
		time.Sleep(200 * time.Microsecond)
		return []*record.Record{{Index: i}}, nil
	}
	var got []emitted
	err := judgeInOrder(context.Background(), ordered{n: 1000, from: []int{0}, workers: 3}, judgeOne, collect(&got))
	if !errors.Is(err, errFault) {
		t.Fatalf("error %v, want the fault", err)
	}
	if len(got) != 12 || got[11].index != 11 {
		t.Fatalf("emitted %v, want questions 0-11 exactly", got)
	}
	if c := calls.Load(); c > 100 {
		t.Errorf("%d questions judged after a halt at 12: the pool kept going", c)
	}
}

func TestJudgeInOrderStopsOnEmitErrorAndCancel(t *testing.T) {
	errDisk := errors.New("disk full")
	t.Run("emit error", func(t *testing.T) {
		var calls atomic.Int32
		emit := func(s int, rec *record.Record) error {
			if rec.Index == 5 {
				return errDisk
			}
			return nil
		}
		err := judgeInOrder(context.Background(), ordered{n: 100000, from: []int{0, 0}, workers: 2}, twoSystems(&calls), emit)
		if !errors.Is(err, errDisk) {
			t.Fatalf("error %v, want the emit error", err)
		}
		if c := calls.Load(); c > 1000 {
			t.Errorf("%d questions judged after the emit error: the workers were not stopped", c)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var calls atomic.Int32
		emit := func(s int, rec *record.Record) error {
			if rec.Index == 3 {
				cancel()
			}
			return nil
		}
		err := judgeInOrder(ctx, ordered{n: 100000, from: []int{0, 0}, workers: 2}, twoSystems(&calls), emit)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		if c := calls.Load(); c > 1000 {
			t.Errorf("%d questions judged after cancellation", c)
		}
	})
}
