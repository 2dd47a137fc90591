package counterex

import (
	"context"
	"errors"
	"hash/fnv"
	"math/rand"
	"strings"
	"sync"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// Budget bounds the search for one prediction: at most DBs variants tried (0: no
// count bound) and at most Time spent (0: no time bound). Shrinking a found
// counterexample is bounded apart (shrinkChecks), so a found one is always reported.
type Budget struct {
	DBs  int
	Time time.Duration
}

// DefaultBudget is --test-suite-budget's default.
var DefaultBudget = Budget{DBs: 200, Time: 2 * time.Second}

// Options configure a Searcher.
type Options struct {
	Seed      int64
	Budget    Budget
	Semantics judge.Semantics // the run's: bird (default) or spider
}

// Searcher finds counterexamples. It is safe for concurrent use: each original
// database is read once and each question's neighbour suite built once, shared by all
// systems.
type Searcher struct {
	opt    Options
	dbs    sync.Map // path -> *dbEntry
	suites sync.Map // suiteKey -> *suiteEntry
}

type dbEntry struct {
	once sync.Once
	d    *dbInfo
	err  error
}

// New returns a Searcher.
func New(opt Options) *Searcher {
	if opt.Semantics == "" {
		opt.Semantics = judge.Bird
	}
	return &Searcher{opt: opt}
}

// Close releases the original databases' read-only connections.
func (s *Searcher) Close() error {
	s.dbs.Range(func(_, v any) bool {
		if e := v.(*dbEntry); e.d != nil {
			e.d.Close()
		}
		return true
	})
	return nil
}

// Found is a counterexample: a standalone SQL script and both results on it (the first
// gold's when there are several).
type Found struct {
	Script     string
	Gold, Pred *engine.Result
	Rows       int // rows in the script
}

// Outcome is one search: how many variants were tried and the counterexample, if any.
type Outcome struct {
	Tried int
	Found *Found
}

// Search looks for a variant of the database at dbPath on which pred matches none of
// golds under the Searcher's semantics. question seeds the search (with the Searcher's
// seed and pred's text) and names the neighbour suite shared by predictions of the same
// question. An error wrapping ErrUnsupported means no variant could be built.
func (s *Searcher) Search(ctx context.Context, dbPath string, question int, golds []string, pred string) (*Outcome, error) {
	d, err := s.db(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	sp, err := buildSpec(d, append(append([]string(nil), golds...), pred))
	if err != nil {
		return &Outcome{}, err
	}
	suite := s.suite(ctx, d, question, golds)
	if s.opt.Budget.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opt.Budget.Time)
		defer cancel()
	}
	p := newPair(s.opt.Semantics, golds, pred)
	g := &generator{s: sp, p: buildPools(ctx, d, sp, append(append([]string(nil), golds...), pred))}
	for _, ts := range sp.tables {
		g.samples = append(g.samples, d.sample(ctx, ts.t))
	}
	r := rand.New(rand.NewSource(seedOf(s.opt.Seed, question, pred)))
	out := &Outcome{}
	err = withSandbox(ctx, sp, func(sb *sandbox) error {
		next := candidates(suite, sp, g, r)
		for s.opt.Budget.DBs <= 0 || out.Tried < s.opt.Budget.DBs {
			if ctx.Err() != nil {
				return nil
			}
			in := next()
			out.Tried++
			ok, got, _ := p.check(ctx, sb, in)
			if !ok {
				continue
			}
			small := shrink(context.WithoutCancel(ctx), p, sb, got)
			got, _ = sb.load(small, false)
			o, err := p.run(ctx, sb)
			sb.rollback()
			if err != nil { // cannot happen after check; keep the unshrunk evidence
				return nil
			}
			out.Found = &Found{Script: script(sp, got, golds, pred, s.opt.Semantics), Gold: o.golds[0], Pred: o.pred, Rows: got.rows()}
			return nil
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrUnsupported) && ctx.Err() == nil {
		return nil, err
	}
	return out, err
}

// candidates yields the suite's variants first, then random ones, every fourth drawn
// from the original rows.
func candidates(suite *suiteEntry, sp *spec, g *generator, r *rand.Rand) func() instance {
	k := 0
	return func() instance {
		k++
		if suite != nil && k <= len(suite.ins) {
			return suite.mapTo(sp, k-1)
		}
		if k%4 == 0 {
			return g.fromData(r)
		}
		return g.random(r)
	}
}

func (s *Searcher) db(ctx context.Context, path string) (*dbInfo, error) {
	v, _ := s.dbs.LoadOrStore(path, &dbEntry{})
	e := v.(*dbEntry)
	e.once.Do(func() { e.d, e.err = openDBInfo(context.WithoutCancel(ctx), path) })
	return e.d, e.err
}

// seedOf mixes the run's seed, the question and the prediction's text into one seed,
// so a search does not depend on which worker runs it or in what order.
func seedOf(seed int64, question int, pred string) int64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(pred)))
	x := uint64(seed)*0x9E3779B97F4A7C15 ^ uint64(question)*0xBF58476D1CE4E5B9 ^ h.Sum64()
	x ^= x >> 31
	return int64(x)
}
