package taskdb

import (
	"context"
	"errors"
	"sync"
)

// Pool hands out copies of a template made ahead of use: Size goroutines make copies
// concurrently and each waits, holding its copy, until a task takes it, so at most Size
// copies wait ready at any time, and at most 3*Size exist at once (made and not yet
// dropped). Release drops a used copy in the background (at most
// min(Size, 4) drops at once). Close stops the makers, drops the copies still waiting and waits
// for every drop; it returns the drops' errors.
//
// A copy costs its server a second or two of disk waits (CREATE DATABASE ... TEMPLATE,
// then DROP DATABASE), most of it spent waiting rather than working, so several made at
// once take little longer than one: the pool makes a run of tasks as fast as its judging,
// not as its copies.
type Pool struct {
	tmpl interface {
		Copy(context.Context) (Copy, error)
	}
	ready   chan pooled
	reuse   chan Copy // released copies that still hold the template's data
	cancel  context.CancelFunc
	makers  sync.WaitGroup
	drops   sync.WaitGroup
	dropSem chan struct{}
	// live bounds the copies that exist at once (made, waiting, in use, or being
	// dropped): a maker takes a slot before it makes a copy, a drop gives it back once
	// the copy is gone. A server drops copies more slowly than it makes them (each DROP
	// DATABASE waits for a checkpoint), so without it copies pile up.
	live chan struct{}
	mu   sync.Mutex
	errs []error
}

type pooled struct {
	c   Copy
	err error
}

// NewPool starts size makers of copies of tmpl (a *PGTemplate or *SQLiteTemplate).
func NewPool(ctx context.Context, tmpl interface {
	Copy(context.Context) (Copy, error)
}, size int) *Pool {
	size = max(size, 1)
	mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p := &Pool{tmpl: tmpl, ready: make(chan pooled), reuse: make(chan Copy, size), cancel: cancel, dropSem: make(chan struct{}, min(size, 4)), live: make(chan struct{}, 3*size)}
	for range size {
		p.makers.Add(1)
		go func() {
			defer p.makers.Done()
			for mctx.Err() == nil {
				select {
				case p.live <- struct{}{}:
				case <-mctx.Done():
					return
				}
				c, err := tmpl.Copy(mctx)
				if c == nil {
					<-p.live // nothing was made (or Copy dropped what it began)
				}
				if mctx.Err() != nil {
					if c != nil {
						p.drop(c)
					}
					return
				}
				select {
				case p.ready <- pooled{c, err}:
				case <-mctx.Done():
					if c != nil {
						p.drop(c)
					}
					return
				}
			}
		}()
	}
	return p
}

// Copy takes a ready copy (or the error its making met).
func (p *Pool) Copy(ctx context.Context) (Copy, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case c := <-p.reuse:
		return c, nil
	default:
	}
	select {
	case c := <-p.reuse:
		return c, nil
	case x := <-p.ready:
		return x.c, x.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Reusable is a copy that can tell whether it still holds its template's data
// (PostgreSQL's: only SELECTs ran on it and nothing was written).
type Reusable interface {
	Reusable(ctx context.Context) bool
}

// Release takes c back: a copy that still holds the template's data serves the next
// task (a task that only read costs no copy); any other is dropped in the background.
func (p *Pool) Release(c Copy) {
	if r, ok := c.(Reusable); ok && r.Reusable(context.Background()) {
		select {
		case p.reuse <- c:
			return
		default:
		}
	}
	p.drop(c)
}

func (p *Pool) drop(c Copy) {
	p.drops.Add(1)
	go func() {
		defer p.drops.Done()
		defer func() { <-p.live }()
		p.dropSem <- struct{}{}
		defer func() { <-p.dropSem }()
		if err := c.Drop(context.Background()); err != nil {
			p.mu.Lock()
			p.errs = append(p.errs, err)
			p.mu.Unlock()
		}
	}()
}

// Close stops making copies, drops those not taken and waits for every drop.
func (p *Pool) Close() error {
	p.cancel()
	done := make(chan struct{})
	go func() { p.makers.Wait(); close(done) }()
	for {
		select {
		case c := <-p.reuse:
			p.drop(c)
			continue
		case x := <-p.ready:
			if x.c != nil {
				p.drop(x.c)
			}
			continue
		case <-done:
		}
		break
	}
	for len(p.reuse) > 0 {
		p.drop(<-p.reuse)
	}
	p.drops.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return errors.Join(p.errs...)
}
