package counterex

import (
	"context"
	"errors"
	"fmt"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"hash/fnv"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/memo"
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

// Domain says which databases the search may build (--test-suite-domain).
type Domain string

const (
	// DomainRealistic builds only databases the original data's profile allows
	// (profile.go): no NULL where the data has none, values from each column's domain and
	// the queries' literals, lookup tables' real rows, the data's inclusions. The default
	// (the zero Domain means it).
	DomainRealistic Domain = "realistic"
	// DomainDeclared builds any database the declared schema allows (after trying
	// realistic ones first, so a found counterexample is labelled as precisely as can be).
	DomainDeclared Domain = "declared"
)

// ParseDomain reads --test-suite-domain.
func ParseDomain(s string) (Domain, error) {
	switch Domain(strings.ToLower(strings.TrimSpace(s))) {
	case "", DomainRealistic:
		return DomainRealistic, nil
	case DomainDeclared:
		return DomainDeclared, nil
	}
	return "", fmt.Errorf("test-suite domain %q: want realistic or declared", s)
}

// Options configure a Searcher. The zero value searches realistically under BIRD's
// semantics with the default budget.
type Options struct {
	Seed      int64
	Budget    Budget
	Semantics judge.Semantics // the run's: bird (default) or spider
	Domain    Domain          // realistic (default) or declared
	Proof     ProofOptions    // the bounded proof beside the search (proof.go)
	// SpiderMode is the run's --spider-mode: under corrected, the pair is compared
	// without the official rewrite's corners, as the verdict was.
	SpiderMode judge.SpiderMode
	// TablesJSON is the dataset's tables.json (Spider, BIRD), whose foreign keys are
	// added to those the SQLite file declares ("" when none).
	TablesJSON string
}

// Searcher finds counterexamples. It is safe for concurrent use: each original
// database is read once and each question's neighbour suite built once, shared by all
// systems.
type Searcher struct {
	opt    Options
	dbs    memo.Map[string, *dbInfo]
	suites sync.Map // suiteKey -> *suiteEntry
	tables memo.Map[string, map[string]*dbschema.Schema]
}

// declared is the tables.json entry of the database at path (its db_id is the file's
// name without extension), or nil.
func (s *Searcher) declared(path string) *dbschema.Schema {
	if s.opt.TablesJSON == "" {
		return nil
	}
	m, err := s.tables.Get(s.opt.TablesJSON, func() (map[string]*dbschema.Schema, error) { return dbschema.ReadTablesJSON(s.opt.TablesJSON) })
	if err != nil {
		return nil
	}
	base := filepath.Base(path)
	return m[strings.TrimSuffix(base, filepath.Ext(base))]
}

// New returns a Searcher.
func New(opt Options) *Searcher {
	if opt.Semantics == "" {
		opt.Semantics = judge.Bird
	}
	if opt.Domain == "" {
		opt.Domain = DomainRealistic
	}
	if opt.Budget == (Budget{}) {
		opt.Budget = DefaultBudget
	}
	return &Searcher{opt: opt}
}

// Close releases the original databases' read-only connections.
func (s *Searcher) Close() error {
	s.dbs.Range(func(_ string, d *dbInfo) { d.Close() })
	return nil
}

// Found is a counterexample: a standalone SQL script and both results on it (the first
// gold's when there are several), and what it assumes.
type Found struct {
	Script     string
	Gold, Pred *engine.Result
	Rows       int // rows in the script
	// Assumes lists the data-profile facts the database departs from (none: realistic).
	Assumes []string
	// GoldTie, when set, says the difference rests on a tie under the gold's LIMIT: the
	// gold is suspect rather than the prediction wrong.
	GoldTie string
}

// Realistic reports whether f departs from nothing the data shows.
func (f *Found) Realistic() bool { return len(f.Assumes) == 0 }

// Refutes reports whether f proves the prediction wrong: realistic and not resting on a
// tie under the gold's LIMIT. Only such a counterexample sets ts_ex to 0.
func (f *Found) Refutes() bool { return f.Realistic() && f.GoldTie == "" }

// rank orders findings, best first: realistic, realistic on a gold tie, robustness
// findings (departing from the profile), and those on a gold tie.
func rank(assumes []string, tie string) int {
	r := 0
	if tie != "" {
		r++
	}
	if len(assumes) > 0 {
		r += 2
	}
	return r
}

// Outcome is one search: how many variants were tried and the counterexample, if any.
type Outcome struct {
	Tried int
	Found *Found
	Proof *ProofOutcome // nil when the proof is off
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
	pctx := ctx // the proof has its own budget
	if s.opt.Budget.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opt.Budget.Time)
		defer cancel()
	}
	queries := append(append([]string(nil), golds...), pred)
	p := newPair(s.opt.Semantics, s.opt.SpiderMode, golds, pred)
	declared := &generator{s: sp, p: buildPools(ctx, d, sp, queries)}
	for _, ts := range sp.tables {
		declared.samples = append(declared.samples, d.sample(ctx, ts.t))
	}
	rl := newRealism(d.profile(ctx), sp, queries)
	realistic := &generator{s: sp, p: buildPools(ctx, d, sp, queries), samples: declared.samples, real: rl}
	rl.restrict(realistic.p)
	r := rand.New(rand.NewSource(seedOf(s.opt.Seed, question, pred)))
	out := &Outcome{}
	start, best := time.Now(), 4
	relaxed := func() bool { // declared mode: the second half of the budget
		return s.opt.Domain == DomainDeclared && (s.opt.Budget.DBs > 0 && out.Tried >= s.opt.Budget.DBs/2 ||
			s.opt.Budget.Time > 0 && time.Since(start) >= s.opt.Budget.Time/2)
	}
	err = withSandbox(ctx, sp, func(sb *sandbox) error {
		next := candidates(suite, sp, realistic, declared, r, relaxed, s.opt.Domain == DomainDeclared)
		for s.opt.Budget.DBs <= 0 || out.Tried < s.opt.Budget.DBs {
			if ctx.Err() != nil {
				return nil
			}
			in := next()
			out.Tried++
			ok, got, tie := p.check(ctx, sb, in)
			if !ok {
				continue
			}
			as := rl.assumes(got)
			k := rank(as, tie)
			if k >= best {
				continue
			}
			keep := func(x instance, t string) bool {
				xs := rl.assumes(x)
				return rank(xs, t) <= k && subsetStrings(xs, as)
			}
			small := shrink(context.WithoutCancel(ctx), p, sb, got, keep)
			if k >= 2 { // as few assumptions as the difference needs, then rows again
				small = relax(context.WithoutCancel(ctx), p, sb, small, rl, realistic.p, keep)
				as = rl.assumes(small)
				small = shrink(context.WithoutCancel(ctx), p, sb, small, keep)
			}
			got, _ = sb.load(small, false)
			o, err := p.run(ctx, sb)
			sb.rollback()
			if err != nil { // cannot happen after check; keep the unshrunk evidence
				return nil
			}
			best = k
			out.Found = &Found{Script: script(sp, got, golds, pred, s.opt.Semantics, s.opt.SpiderMode), Gold: o.golds[0], Pred: o.pred, Rows: got.rows(),
				Assumes: rl.assumes(got), GoldTie: tie}
			if k == 0 {
				return nil
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrUnsupported) && ctx.Err() == nil {
		return nil, err
	}
	if err == nil && s.opt.Proof.On && pctx.Err() == nil {
		out.Proof, out.Found = s.proof(pctx, sp, rl, p, realistic, seedOf(s.opt.Seed, question, pred), out.Found, golds, pred)
	}
	return out, err
}

func subsetStrings(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// candidates yields the suite's variants first, then random ones, every fourth drawn
// from the original rows; realistic ones only, or in declared mode, realistic ones until
// relaxed says so, then the suite and any the declared schema allows.
func candidates(suite *suiteEntry, sp *spec, realistic, declared *generator, r *rand.Rand, relaxed func() bool, declMode bool) func() instance {
	k, si := 0, 0
	return func() instance {
		k++
		g := realistic
		if declMode {
			if !relaxed() {
				if k%4 == 0 {
					return g.fromData(r)
				}
				return g.random(r)
			}
			g = declared
		}
		if suite != nil && si < len(suite.ins) {
			si++
			return suite.mapTo(sp, si-1)
		}
		if k%4 == 0 {
			return g.fromData(r)
		}
		return g.random(r)
	}
}

func (s *Searcher) db(ctx context.Context, path string) (*dbInfo, error) {
	return s.dbs.Get(path, func() (*dbInfo, error) {
		return openDBInfo(context.WithoutCancel(ctx), path, s.declared(path))
	})
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
