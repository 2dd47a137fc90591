package counterex

import (
	"context"
	"math/rand"
	"strings"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// Suite sizes: how many random variants a question's distillation draws at most, and how
// many neighbours it tries to tell apart.
const (
	suiteDraws      = 32
	suiteNeighbours = 24
)

type suiteKey struct {
	question int
	db       string
}

// suiteEntry is a question's distilled suite: the variants that told the gold apart from
// at least one of its neighbours no earlier variant had (Spider's test-suite idea, built
// on the fly and kept for every system's prediction of the question).
type suiteEntry struct {
	once sync.Once
	sp   *spec
	ins  []instance
}

func (s *Searcher) suite(ctx context.Context, d *dbInfo, question int, golds []string) *suiteEntry {
	v, _ := s.suites.LoadOrStore(suiteKey{question, d.path}, &suiteEntry{})
	e := v.(*suiteEntry)
	e.once.Do(func() {
		ctx := context.WithoutCancel(ctx) // shared by every system: not one record's to cancel
		if s.opt.Budget.Time > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.opt.Budget.Time/2)
			defer cancel()
		}
		e.build(ctx, d, s.opt, question, golds)
	})
	return e
}

func (e *suiteEntry) build(ctx context.Context, d *dbInfo, opt Options, question int, golds []string) {
	sp, err := buildSpec(d, golds)
	if err != nil {
		return
	}
	e.sp = sp
	nbs := neighbours(golds[0])
	if len(nbs) > suiteNeighbours {
		nbs = nbs[:suiteNeighbours]
	}
	pairs := make([]*pair, len(nbs))
	for i, nb := range nbs {
		pairs[i] = newPair(opt.Semantics, opt.SpiderMode, golds, nb)
	}
	g := &generator{s: sp, p: buildPools(ctx, d, sp, golds)}
	for _, ts := range sp.tables {
		g.samples = append(g.samples, d.sample(ctx, ts.t))
	}
	if opt.Domain != DomainDeclared { // realistic mode: the suite is realistic too
		g.real = newRealism(d.profile(ctx), sp, golds)
		g.real.restrict(g.p)
	}
	r := rand.New(rand.NewSource(seedOf(opt.Seed, question, "\x00suite")))
	alive := len(pairs)
	goldSQL := newPair(opt.Semantics, opt.SpiderMode, golds, "").golds
	draws := suiteDraws
	if opt.Budget.DBs > 0 {
		draws = min(draws, opt.Budget.DBs)
	}
	_ = withSandbox(ctx, sp, func(sb *sandbox) error {
		for k := 1; k <= draws && alive > 0 && ctx.Err() == nil; k++ {
			in := g.random(r)
			if k%4 == 0 {
				in = g.fromData(r)
			}
			got, err := sb.load(in, false)
			if err != nil {
				return nil
			}
			var gres []*engine.Result
			for _, q := range goldSQL {
				res, err := engine.QueryConn(ctx, sb.c, q, queryLimits)
				if err != nil {
					break
				}
				gres = append(gres, res)
			}
			killed := false
			for i, p := range pairs {
				if p == nil || len(gres) != len(p.golds) {
					continue
				}
				res, err := engine.QueryConn(ctx, sb.c, p.pred, queryLimits)
				if err != nil {
					continue
				}
				if p.differs(&outcome{golds: gres, pred: res}) {
					pairs[i] = nil
					alive--
					killed = true
				}
			}
			sb.rollback()
			if killed {
				e.ins = append(e.ins, got)
			}
		}
		return nil
	})
}

// mapTo is suite variant k laid out for sp: tables matched by name, those the suite lacks
// left empty.
func (e *suiteEntry) mapTo(sp *spec, k int) instance {
	out := make(instance, len(sp.tables))
	for ti, ts := range sp.tables {
		for si, st := range e.sp.tables {
			if strings.EqualFold(st.t.Name, ts.t.Name) {
				out[ti] = e.ins[k][si]
			}
		}
	}
	return out
}
