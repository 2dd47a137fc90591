package benchrun

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
)

// countingLLM answers after a pause and records the most requests it had in flight.
type countingLLM struct {
	in, most atomic.Int64
}

func (c *countingLLM) Chat(ctx context.Context, _ collect.ChatRequest) (*collect.ChatResponse, error) {
	n := c.in.Add(1)
	defer c.in.Add(-1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(5 * time.Millisecond)
	return &collect.ChatResponse{}, nil
}

func TestEndpointGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		lim       EndpointLimit
		minMillis int64
	}{
		{"concurrency 2", EndpointLimit{Concurrency: 2}, 0},
		{"600 a second", EndpointLimit{Concurrency: 8, RequestsPerMinute: 36000}, 25}, // 16 calls 1.67 ms apart
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gate := newEndpointGate(tt.lim)
			inner := &countingLLM{}
			var cellA, cellB atomic.Int64
			start := time.Now()
			var wg sync.WaitGroup
			for i := range 16 {
				calls := &cellA
				if i%2 == 1 {
					calls = &cellB
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					(&gatedLLM{inner: inner, gate: gate, calls: calls}).Chat(context.Background(), collect.ChatRequest{})
				}()
			}
			wg.Wait()
			if most := inner.most.Load(); most > int64(tt.lim.Concurrency) {
				t.Errorf("%d requests in flight at once across the cells, the endpoint allows %d", most, tt.lim.Concurrency)
			}
			if cellA.Load() != 8 || cellB.Load() != 8 || gate.calls.Load() != 16 {
				t.Errorf("counts: cell A %d, cell B %d, endpoint %d; want 8, 8, 16", cellA.Load(), cellB.Load(), gate.calls.Load())
			}
			if d := time.Since(start).Milliseconds(); d < tt.minMillis {
				t.Errorf("16 requests took %d ms; the rate limit spaces them over at least %d ms", d, tt.minMillis)
			}
		})
	}
}
