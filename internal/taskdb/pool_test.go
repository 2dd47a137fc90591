package taskdb

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// slowTemplate makes fake copies, each taking d; it counts the copies made and dropped
// and the most made at once.
type slowTemplate struct {
	d                  time.Duration
	made, dropped, now atomic.Int64
	mu                 sync.Mutex
	most               int64
	fail               bool
}

type fakeCopy struct{ t *slowTemplate }

func (fakeCopy) Name() string { return "fake" }
func (fakeCopy) Exec(context.Context, string, ExecLimits) (*Result, error) {
	return &Result{}, nil
}
func (fakeCopy) Checksum(context.Context) (map[string]string, error) { return nil, nil }
func (c fakeCopy) Drop(context.Context) error                        { c.t.dropped.Add(1); return nil }

func (t *slowTemplate) Copy(ctx context.Context) (Copy, error) {
	n := t.now.Add(1)
	t.mu.Lock()
	t.most = max(t.most, n)
	t.mu.Unlock()
	defer t.now.Add(-1)
	select {
	case <-time.After(t.d):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if t.fail {
		return nil, errors.New("server gone")
	}
	t.made.Add(1)
	return fakeCopy{t}, nil
}

// TestPool: copies are made Size at a time ahead of use (8 copies of 50 ms each with 4
// makers take about 100 ms, not 400), at most Size wait ready, every copy made is
// dropped by Release or Close, and a making error reaches the task that takes it.
func TestPool(t *testing.T) {
	tmpl := &slowTemplate{d: 50 * time.Millisecond}
	p := NewPool(context.Background(), tmpl, 4)
	start := time.Now()
	for range 8 {
		c, err := p.Copy(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		p.Release(c)
	}
	if el := time.Since(start); el > 300*time.Millisecond {
		t.Errorf("8 copies of 50 ms with 4 makers took %s; want about 100 ms", el)
	}
	time.Sleep(120 * time.Millisecond) // the makers fill the pool again
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if made, dropped := tmpl.made.Load(), tmpl.dropped.Load(); made != dropped || made > 8+4+4 {
		t.Errorf("made %d, dropped %d; want every copy dropped and at most the 8 taken + 4 waiting + 4 in the making", made, dropped)
	}
	if tmpl.most > 4 {
		t.Errorf("%d copies made at once; want at most 4", tmpl.most)
	}

	bad := &slowTemplate{d: time.Millisecond, fail: true}
	p = NewPool(context.Background(), bad, 2)
	if _, err := p.Copy(context.Background()); err == nil {
		t.Error("a copy the server could not make: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Copy(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Copy after cancel: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}
