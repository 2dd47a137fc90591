package counterex

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/prove"
)

// This file runs the bounded proof (internal/prove) beside the search: after the
// sampler, the solver is asked whether any database within the bound tells the pair
// apart. A "proven" is kept only after both queries agree on crossChecks random
// databases within the same bound; a solver counterexample counts only once SQLite,
// running both queries on it, confirms it, and only a realistic one refutes.

// ProofOptions configure the bounded proof (eval --proof...).
type ProofOptions struct {
	On     bool          // run the proof (eval turns it on with --test-suite unless --proof=off)
	Bound  int           // rows per table (default DefaultProofBound)
	Budget time.Duration // solver time per pair (default DefaultProofBudget)
	Solver *prove.Solver // nil: z3 on PATH
}

// The proof's defaults.
const (
	DefaultProofBound  = 3
	DefaultProofBudget = time.Second
	crossChecks        = 100 // random databases a proof must survive
)

// ProofOutcome is one pair's proof.
type ProofOutcome struct {
	Status   prove.Status
	Result   prove.Result
	Checked  int    // random databases both queries agreed on (proven only)
	Reason   string // why unknown, or what a downgrade rests on
	BySolver bool   // the counterexample came from the solver
}

// proveSchema is the proof's view of the spec: its tables and columns in the same
// order (so a solver database loads as an instance), with the facts the realistic
// domain keeps (declared keys and NOT NULL, NULL never seen, text distinct in the data,
// tables with rows, enforced foreign keys and observed inclusions).
func proveSchema(sp *spec, rl *realism) *prove.Schema {
	sc := &prove.Schema{}
	for ti, ts := range sp.tables {
		t := prove.Table{Name: ts.t.Name, NonEmpty: rl.hasRows(ti)}
		for ci, c := range ts.cols {
			col := prove.Column{Name: c.name, NotNull: c.notNull || !rl.nullOK(ti, ci) || ci == ts.rowidPK}
			col.Kind = kindOf(c, rl, ti, ci)
			t.Columns = append(t.Columns, col)
		}
		t.Keys = append(t.Keys, ts.keys...)
		for _, ci := range rl.distinctCols(ti) {
			t.Keys = append(t.Keys, []int{ci})
		}
		sc.Tables = append(sc.Tables, t)
		for _, fk := range ts.fks {
			sc.Incl = append(sc.Incl, prove.Inclusion{Child: ti, Cols: fk.cols, Parent: fk.parent, PCols: fk.pcols})
		}
	}
	for _, is := range rl.incl {
		if is.parent >= 0 {
			sc.Incl = append(sc.Incl, prove.Inclusion{Child: is.child, Cols: []int{is.ccol}, Parent: is.parent, PCols: []int{is.pcol}})
		}
	}
	return sc
}

// kindOf models a column: text under BINARY collation, numbers where the data holds
// only numbers (or, with no profile, the affinity says so); anything else is not read
// by a proof.
func kindOf(c colSpec, rl *realism, ti, ci int) prove.Kind {
	if c.collate != "" && !strings.EqualFold(c.collate, "binary") {
		return prove.KindNone
	}
	switch c.aff {
	case dbschema.AffinityText:
		return prove.KindText
	case dbschema.AffinityInteger, dbschema.AffinityReal, dbschema.AffinityNumeric:
		tp := rl.tps[ti]
		if tp == nil || ci >= len(tp.cols) || tp.cols[ci].nonNull == 0 || tp.cols[ci].numeric {
			return prove.KindNum
		}
	}
	return prove.KindNone
}

// proof runs the solver on the pair and checks its answer on SQLite. found is the
// sampler's best finding (nil when none); the returned Found replaces it when the
// solver's counterexample ranks better.
func (s *Searcher) proof(ctx context.Context, sp *spec, rl *realism, p *pair, gen *generator, seed int64, found *Found, golds []string, pred string) (*ProofOutcome, *Found) {
	po := s.opt.Proof
	if found != nil && found.Refutes() {
		return &ProofOutcome{Status: prove.Refuted, Reason: "the sampler's counterexample"}, found
	}
	opt := prove.Options{Bound: po.Bound, Budget: po.Budget, Solver: po.Solver, Compare: prove.Set}
	if opt.Bound <= 0 {
		opt.Bound = DefaultProofBound
	}
	if opt.Budget <= 0 {
		opt.Budget = DefaultProofBudget
	}
	if p.sem == judge.Spider {
		opt.Compare, opt.Ordered, opt.Permute = prove.Bag, p.order[0], true
	}
	res := prove.Prove(ctx, proveSchema(sp, rl), p.golds[0], p.pred, opt)
	out := &ProofOutcome{Status: res.Status, Result: res, Reason: res.Reason}
	err := withSandbox(ctx, sp, func(sb *sandbox) error {
		switch res.Status {
		case prove.Proven:
			s.crossCheck(ctx, sb, p, rl, gen, seed, res.Bound, out)
		case prove.Refuted:
			found = s.confirm(ctx, sb, sp, p, rl, res, out, found, golds, pred)
		}
		return nil
	})
	if err != nil && out.Status != prove.Unknown {
		out.Status, out.Reason = prove.Unknown, "sandbox: "+err.Error()
	}
	return out, found
}

// crossCheck runs both queries on random databases within the bound; a proof that
// any of them contradicts is a bug in the encoding, and the answer falls to unknown
// (or refuted, when the database is a realistic counterexample).
func (s *Searcher) crossCheck(ctx context.Context, sb *sandbox, p *pair, rl *realism, gen *generator, seed int64, bound int, out *ProofOutcome) {
	r := rand.New(rand.NewSource(seed ^ 0x5eed))
	for try := 0; try < 4*crossChecks && out.Checked < crossChecks; try++ {
		if ctx.Err() != nil {
			break
		}
		in := gen.random(r)
		for ti := range in {
			if len(in[ti]) > bound {
				in[ti] = in[ti][:bound]
			}
		}
		got, err := sb.load(in, false)
		if err != nil {
			continue
		}
		if len(rl.assumes(got)) > 0 { // outside the proof's constraints (an emptied table, say)
			sb.rollback()
			continue
		}
		o, err := p.run(ctx, sb)
		sb.rollback()
		if err != nil {
			continue
		}
		out.Checked++
		if p.differs(o) {
			out.Status = prove.Unknown
			out.Reason = fmt.Sprintf("proof contradicted by a random database of %d rows (an encoding bug): %v", got.rows(), got)
			return
		}
	}
	if out.Checked < crossChecks {
		out.Status = prove.Unknown
		out.Reason = fmt.Sprintf("cross-check ran only %d of %d random databases", out.Checked, crossChecks)
	}
}

// confirm runs the solver's database on SQLite: only a difference SQLite shows counts,
// only a realistic one not resting on a gold tie refutes.
func (s *Searcher) confirm(ctx context.Context, sb *sandbox, sp *spec, p *pair, rl *realism, res prove.Result, out *ProofOutcome, found *Found, golds []string, pred string) *Found {
	in := instance(res.DB)
	ok, got, tie := p.check(ctx, sb, in)
	if !ok {
		out.Status, out.Reason = prove.Unknown, "the solver's counterexample does not differ on SQLite (a value the model cannot express, or a tie)"
		return found
	}
	as := rl.assumes(got)
	switch {
	case tie != "":
		out.Status, out.Reason = prove.Unknown, "the solver's counterexample rests on a tie under the gold's LIMIT: "+tie
	case len(as) > 0:
		out.Status, out.Reason = prove.Unknown, "the solver's counterexample departs from the data profile: "+strings.Join(as, "; ")
	}
	k := rank(as, tie)
	if found != nil && rank(found.Assumes, found.GoldTie) <= k {
		return found
	}
	loaded, err := sb.load(got, false)
	if err != nil {
		return found
	}
	o, err := p.run(ctx, sb)
	sb.rollback()
	if err != nil {
		return found
	}
	out.BySolver = true
	return &Found{Script: script(sp, loaded, golds, pred, s.opt.Semantics, s.opt.SpiderMode), Gold: o.golds[0], Pred: o.pred, Rows: loaded.rows(), Assumes: as, GoldTie: tie}
}

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
