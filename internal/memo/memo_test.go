package memo

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestGetOnce: concurrent callers of one key share one compute, value or error.
func TestGetOnce(t *testing.T) {
	var m Map[string, int]
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			v, err := m.Get("k", func() (int, error) { calls.Add(1); return 7, nil })
			if v != 7 || err != nil {
				t.Errorf("Get = %d, %v", v, err)
			}
		})
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("compute ran %d times, want 1", calls.Load())
	}
	boom := errors.New("boom")
	for range 2 {
		if _, err := m.Get("bad", func() (int, error) { calls.Add(1); return 0, boom }); !errors.Is(err, boom) {
			t.Errorf("Get of a failing key: %v", err)
		}
	}
	if calls.Load() != 2 {
		t.Errorf("a remembered error was computed again (%d calls, want 2)", calls.Load())
	}
}

// TestGetRetry: an error is not remembered; the next caller computes again and its value
// is kept. Range sees only values.
func TestGetRetry(t *testing.T) {
	var m Map[int, string]
	fail := true
	compute := func() (string, error) {
		if fail {
			return "", errors.New("cancelled")
		}
		return "schema", nil
	}
	if _, err := m.GetRetry(1, compute); err == nil {
		t.Fatal("GetRetry: want the first compute's error")
	}
	fail = false
	if v, err := m.GetRetry(1, compute); v != "schema" || err != nil {
		t.Fatalf("GetRetry after an error = %q, %v, want a fresh compute", v, err)
	}
	fail = true
	if v, err := m.GetRetry(1, compute); v != "schema" || err != nil {
		t.Fatalf("GetRetry of a kept value = %q, %v", v, err)
	}
	_, _ = m.Get(2, func() (string, error) { return "", errors.New("x") })
	var seen []string
	m.Range(func(k int, v string) { seen = append(seen, v) })
	if len(seen) != 1 || seen[0] != "schema" {
		t.Errorf("Range saw %q, want just the computed value", seen)
	}
}
