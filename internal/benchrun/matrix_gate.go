package benchrun

import (
	"context"
	"sort"
	"sync/atomic"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
)

// endpointGate caps what every cell calling one endpoint (a base_url) asks of it
// together: at most Concurrency requests in flight and RequestsPerMinute spaced evenly.
// Each cell's collect still applies its own model's llm.concurrency inside that.
type endpointGate struct {
	slots chan struct{}
	rate  *collect.Limiter // the same spacing collect applies to one model's requests
	calls atomic.Int64     // requests sent through the gate (cache hits never reach it)
}

func newEndpointGate(lim EndpointLimit) *endpointGate {
	return &endpointGate{slots: make(chan struct{}, max(lim.Concurrency, 1)), rate: collect.NewLimiter(lim.RequestsPerMinute)}
}

func (g *endpointGate) acquire(ctx context.Context) error {
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := g.rate.Wait(ctx); err != nil {
		<-g.slots
		return err
	}
	return nil
}

func (g *endpointGate) release() { <-g.slots }

// gatedLLM sends a cell's requests through its endpoint's gate and counts them.
type gatedLLM struct {
	inner collect.LLM
	gate  *endpointGate
	calls *atomic.Int64 // the cell's own count
}

func (l *gatedLLM) Chat(ctx context.Context, req collect.ChatRequest) (*collect.ChatResponse, error) {
	if err := l.gate.acquire(ctx); err != nil {
		return nil, err
	}
	defer l.gate.release()
	l.gate.calls.Add(1)
	l.calls.Add(1)
	return l.inner.Chat(ctx, req)
}

// endpointGates builds one gate per base_url the plan's models call: the plan's
// endpoints section, else the largest llm.concurrency and the smallest
// llm.requests_per_minute of the models sharing it.
func endpointGates(p *MatrixPlan) map[string]*endpointGate {
	lims := map[string]EndpointLimit{}
	keys := make([]string, 0, len(p.Configs))
	for k := range p.Configs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		l := p.Configs[k].LLM
		cur, seen := lims[l.BaseURL]
		cur.Concurrency = max(cur.Concurrency, l.Concurrency)
		if l.RequestsPerMinute > 0 && (!seen || cur.RequestsPerMinute == 0 || l.RequestsPerMinute < cur.RequestsPerMinute) {
			cur.RequestsPerMinute = l.RequestsPerMinute
		}
		lims[l.BaseURL] = cur
	}
	gates := map[string]*endpointGate{}
	for url, lim := range lims {
		if set, ok := p.Endpoints[url]; ok {
			if set.Concurrency > 0 {
				lim.Concurrency = set.Concurrency
			}
			if set.RequestsPerMinute > 0 {
				lim.RequestsPerMinute = set.RequestsPerMinute
			}
		}
		gates[url] = newEndpointGate(lim)
	}
	return gates
}
