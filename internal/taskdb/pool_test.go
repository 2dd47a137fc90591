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

// TestReusable: a PostgreSQL copy on which only SELECTs ran is still the template's data
// and may serve another task; a write, a failed write, DDL, a temporary table, a
// sequence advanced by nextval, a SELECT INTO or a COMMIT inside the SQL make it dirty.
func TestReusable(t *testing.T) {
	if testing.Short() {
		t.Skip("copy reuse on every engine is slow for -short; go test ./... runs it")
	}
	t.Parallel() // ten copies, each waiting on the server (issue 44)
	b := pgBackend(t)
	ctx := context.Background()
	setup := uniqueSetup(t)
	setup.Steps[0].SQL += "CREATE SEQUENCE s;\n"
	tmpl, err := b.Template(ctx, setup)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.dropDatabase(context.Background(), tmpl.name) })
	cases := []struct {
		sql      string
		reusable bool
	}{
		{"SELECT id FROM t ORDER BY id", true},
		{"SELECT nope FROM t", true}, // an error rolls back what nothing wrote
		{"WITH x AS (SELECT 1) SELECT * FROM x; SELECT 2", true},
		{"UPDATE t SET name = name", false},
		{"INSERT INTO t VALUES (9, 'x', 1); SELECT nope", false}, // rolled back, but counted as a write: conservative
		{"CREATE TABLE v (a int)", false},
		{"CREATE TEMP TABLE v AS SELECT 1", false},
		{"SELECT nextval('s')", false},
		{"SELECT * INTO w FROM t", false},
		{"COMMIT; SELECT 1", false},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			t.Parallel() // a copy each
			cp, err := tmpl.Copy(ctx)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = cp.Exec(ctx, c.sql, ExecLimits{})
			if got := cp.(Reusable).Reusable(ctx); got != c.reusable {
				t.Errorf("%q: reusable %v, want %v", c.sql, got, c.reusable)
			}
			if err := cp.Drop(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}
