package engine

import (
	"context"
	"sync/atomic"
	"testing"
)

// TestOnCancel: a statement whose context ends before it returns is always killed, and
// its stop returns only after the kill has finished; one that returns first is never
// killed. With context.AfterFunc and its stop alone, the first loop found kills that had
// not finished (or never ran) when stop returned: the cancelled MariaDB statement that
// then ran for minutes.
func TestOnCancel(t *testing.T) {
	t.Parallel()
	const n = 2_000
	missed := 0
	for i := 0; i < n; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		var kills atomic.Int32
		stop := OnCancel(ctx, func() { kills.Add(1) })
		if i%2 == 0 {
			cancel() // the cancel is over before the statement returns
		} else {
			go cancel() // the driver sees ctx end while the cancel is still under way
			<-ctx.Done()
		}
		stop()
		if kills.Load() != 1 {
			missed++
		}
		cancel()
	}
	if missed > 0 {
		t.Errorf("%d of %d statements whose context had ended were not killed (or their kill had not finished) when stop returned", missed, n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var kills atomic.Int32
	stop := OnCancel(ctx, func() { kills.Add(1) })
	stop() // the statement returned first
	cancel()
	if kills.Load() != 0 {
		t.Errorf("a statement that returned before its context ended was killed %d times", kills.Load())
	}
}
