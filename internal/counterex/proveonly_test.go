package counterex

import "context"

// proveOnly runs the proof without the sampler (the corpus tests measure the proof
// alone): found is what the solver's counterexample became, if anything.
func (s *Searcher) proveOnly(ctx context.Context, dbPath string, question int, golds []string, pred string) (*ProofOutcome, *Found, error) {
	d, err := s.db(ctx, dbPath)
	if err != nil {
		return nil, nil, err
	}
	queries := append(append([]string(nil), golds...), pred)
	sp, err := buildSpec(d, queries)
	if err != nil {
		return nil, nil, err
	}
	p := newPair(s.opt.Semantics, s.opt.SpiderMode, golds, pred)
	rl := newRealism(d.profile(ctx), sp, queries)
	gen := &generator{s: sp, p: buildPools(ctx, d, sp, queries), real: rl}
	for _, ts := range sp.tables {
		gen.samples = append(gen.samples, d.sample(ctx, ts.t))
	}
	rl.restrict(gen.p)
	po, found := s.proof(ctx, sp, rl, p, gen, seedOf(s.opt.Seed, question, pred), nil, golds, pred)
	return po, found, nil
}
