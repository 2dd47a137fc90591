// Package memo holds values computed once per key and shared by concurrent callers: a
// database's schema, a rebuilt gold query, a counterexample suite. It is the one form of
// the sync.Map-of-sync.Once pattern the packages use.
package memo

import (
	"sync"
	"sync/atomic"
)

// Map computes a value per key once. The zero value is ready; safe for concurrent use.
type Map[K comparable, V any] struct {
	m sync.Map // K -> *entry[V]
}

type entry[V any] struct {
	once sync.Once
	done atomic.Bool // compute has returned (for Range, which does not wait)
	v    V
	err  error
}

func (m *Map[K, V]) entry(k K) *entry[V] {
	if e, ok := m.m.Load(k); ok {
		return e.(*entry[V])
	}
	e, _ := m.m.LoadOrStore(k, &entry[V]{})
	return e.(*entry[V])
}

// Get returns k's value, calling compute for the first caller only; callers that come
// while it runs wait for it. An error is remembered as a value is.
func (m *Map[K, V]) Get(k K, compute func() (V, error)) (V, error) {
	e := m.entry(k)
	e.once.Do(func() { e.v, e.err = compute(); e.done.Store(true) })
	return e.v, e.err
}

// GetRetry is Get that remembers only a value: an error goes to the caller whose compute
// returned it, and every other caller (those that waited for it included) computes again,
// so one caller's cancelled context never becomes another's error.
func (m *Map[K, V]) GetRetry(k K, compute func() (V, error)) (V, error) {
	e := m.entry(k)
	ran := false
	e.once.Do(func() {
		ran = true
		e.v, e.err = compute()
		e.done.Store(true)
	})
	if e.err == nil {
		return e.v, nil
	}
	m.m.CompareAndDelete(k, e)
	if ran {
		return e.v, e.err
	}
	return compute()
}

// Range calls fn with every value computed without error so far (one still being
// computed is left out).
func (m *Map[K, V]) Range(fn func(K, V)) {
	m.m.Range(func(k, v any) bool {
		if e := v.(*entry[V]); e.done.Load() && e.err == nil {
			fn(k.(K), e.v)
		}
		return true
	})
}
