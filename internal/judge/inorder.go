package judge

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ordered says which questions a pool judges and for whom: system s's records are
// emitted from question from[s] on (a resumed system skips what it already has), and
// the pool starts at the smallest of them.
type ordered struct {
	n        int   // questions in the dataset
	from     []int // per system, the first question whose record is emitted
	workers  int   // questions judged at once; 0: number of CPUs
	progress func(done, total int)
}

// judgeOneFunc gives question i's records, one per system. A non-nil error halts the
// run at question i. A nil slice with a nil error means ctx was cancelled first.
type judgeOneFunc func(ctx context.Context, i int) ([]*record.Record, error)

// judgeInOrder is the one worker pool behind Run and RunSpider2. Questions are judged
// in parallel and emitted in dataset order, so records.jsonl reads the same whatever
// order the workers finish in, and a stopped run leaves a prefix it can resume from.
// An error from judgeOne halts the pool: questions not started are left alone, those in
// flight finish, records are emitted up to the failing question, and its error is
// returned. An emit error or ctx's cancellation stops the pool too.
func judgeInOrder(ctx context.Context, o ordered, judgeOne judgeOneFunc, emit Emit) error {
	start := o.n
	for _, f := range o.from {
		start = min(start, max(f, 0))
	}
	workers := o.workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancel(ctx)
	results := make([][]*record.Record, o.n)
	errs := make([]error, o.n)
	done := make([]chan struct{}, o.n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	halt := make(chan struct{})
	var haltOnce sync.Once
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				select {
				case <-halt:
				default:
					results[i], errs[i] = judgeOne(ctx, i)
					if errs[i] != nil {
						haltOnce.Do(func() { close(halt) })
					}
				}
				close(done[i])
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := start; i < o.n; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	// On any return, stop the workers and wait for them: none outlives the run.
	defer func() {
		cancel()
		wg.Wait()
	}()

	for i := start; i < o.n; i++ {
		select {
		case <-done[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if errs[i] != nil {
			return errs[i]
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if results[i] == nil {
			// Skipped because an earlier question halted the pool: that question's
			// error was returned above, so this is only a safeguard.
			return fmt.Errorf("question at position %d: %w: not judged after an earlier fault", i, engine.ErrInfrastructure)
		}
		for s, rec := range results[i] {
			if i < o.from[s] {
				continue
			}
			if err := emit(s, rec); err != nil {
				return err
			}
		}
		results[i] = nil
		if o.progress != nil {
			o.progress(i+1, o.n)
		}
	}
	return nil
}
