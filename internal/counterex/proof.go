package counterex

import (
	"cmp"
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
// tables with rows, enforced foreign keys and observed inclusions, closed domains).
func proveSchema(sp *spec, rl *realism) *prove.Schema {
	sc := &prove.Schema{}
	for ti, ts := range sp.tables {
		t := prove.Table{Name: ts.t.Name, NonEmpty: rl.hasRows(ti)}
		for ci, c := range ts.cols {
			col := prove.Column{Name: c.name, NotNull: c.notNull || !rl.nullOK(ti, ci) || ci == ts.rowidPK}
			col.Kind = kindOf(c, rl, ti, ci)
			if col.Kind != prove.KindNone {
				col.Domain = rl.closedDomain(ti, ci, col.Kind)
			}
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
		// An inclusion with exceptions (a reference table's) is not assumed: the proof
		// covers more databases, so it is sound, merely less often proven.
		if is.parent >= 0 && !ownKey(sp.tables[is.child], is.ccol) && len(is.except) == 0 {
			sc.Incl = append(sc.Incl, prove.Inclusion{Child: is.child, Cols: []int{is.ccol}, Parent: is.parent, PCols: []int{is.pcol}})
		}
	}
	return sc
}

// ownKey reports whether column ci is its table's own single-column key. An inclusion
// observed from such a column is not assumed by a proof: ids numbered 1..n in two tables
// include each other by coincidence (Spider's orchestra: every Orchestra_ID is also a
// Conductor_ID, and every conductor conducts), and with those facts a join on the wrong
// key was proven equal to the right one. Declared foreign keys are kept (above).
func ownKey(ts *tableSpec, ci int) bool {
	if ci == ts.rowidPK {
		return true
	}
	for _, k := range ts.keys {
		if len(k) == 1 && k[0] == ci {
			return true
		}
	}
	return false
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
	skipped := "" // why the first random database that was not checked was not
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
		// Cutting a parent table to the bound orphans children that pointed past it:
		// pointed again at kept parents, the database stays inside the proof's
		// constraints (on BIRD's superhero, with seven lookup tables, no random database
		// survived the cut before).
		// A table the data has rows in that the draw left empty (its parents came later
		// in the draw) takes some of its real rows: realistic by definition.
		for ti := range in {
			if len(in[ti]) == 0 && rl.hasRows(ti) && ti < len(gen.samples) && len(gen.samples[ti]) > 0 {
				rows := gen.samples[ti]
				for _, k := range r.Perm(len(rows))[:1+r.Intn(min(len(rows), bound))] {
					in[ti] = append(in[ti], append([]any(nil), rows[k]...))
				}
			}
		}
		repointKeys(r, rl.sp, in)
		rl.repairJointly(r, in)
		got, err := sb.load(in, false)
		if err != nil {
			skipped = cmp.Or(skipped, "load: "+err.Error())
			continue
		}
		if as := rl.assumes(got); len(as) > 0 { // outside the proof's constraints (an emptied table, say)
			sb.rollback()
			skipped = cmp.Or(skipped, "outside the constraints: "+strings.Join(as, "; "))
			continue
		}
		o, err := p.run(ctx, sb)
		sb.rollback()
		if err != nil {
			skipped = cmp.Or(skipped, "run: "+err.Error())
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
		out.Reason = fmt.Sprintf("cross-check ran only %d of %d random databases (first skipped: %s)", out.Checked, crossChecks, skipped)
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

// repointKeys points every declared foreign key of in that names no row of its parent
// at a random parent row (NULL when the parent is empty and the key may be NULL), so
// that loading the database, which enforces foreign keys, drops no child row.
func repointKeys(r *rand.Rand, sp *spec, in instance) {
	for ti, ts := range sp.tables {
		for _, fk := range ts.fks {
			parents := in[fk.parent]
			have := map[string]bool{}
			for _, pr := range parents {
				have[tupleKey(pr, fk.pcols)] = true
			}
			for ri, row := range in[ti] {
				if hasNull(row, fk.cols) || have[tupleKey(row, fk.cols)] {
					continue
				}
				row = append([]any(nil), row...)
				if len(parents) > 0 {
					pr := parents[r.Intn(len(parents))]
					for j, ci := range fk.cols {
						row[ci] = pr[fk.pcols[j]]
					}
				} else {
					for _, ci := range fk.cols {
						row[ci] = nil // refused at load when NOT NULL: that database is skipped
					}
				}
				in[ti][ri] = row
			}
		}
	}
}

func tupleKey(row []any, cols []int) string {
	var b strings.Builder
	for _, ci := range cols {
		b.WriteString(valKey(row[ci]))
		b.WriteByte(0)
	}
	return b.String()
}

func hasNull(row []any, cols []int) bool {
	for _, ci := range cols {
		if row[ci] == nil {
			return true
		}
	}
	return false
}

// repairJointly points every child value that some inclusion of the profile does not
// hold at a value every inclusion on that column allows (the data often shows a column
// inside several parents: superhero.gender_id's 1-3 are ids of gender, colour, race and
// more, and re-pointing one inclusion at a time broke the others). With no such value
// the value becomes NULL where NULL is realistic, else the row is dropped. The
// sampler keeps its own repair (its draws, and so its seeded verdicts, stay as they were).
func (rl *realism) repairJointly(r *rand.Rand, in instance) {
	type col struct{ t, c int }
	var order []col
	allowed := map[col][]any{} // values every inclusion on the column holds, in a fixed order
	excepted := map[col]map[string]bool{}
	for _, is := range rl.incl {
		if is.parent < 0 {
			continue
		}
		k := col{is.child, is.ccol}
		var vals []any
		seen := map[string]bool{}
		for _, p := range in[is.parent] {
			if v := p[is.pcol]; v != nil && !seen[valKey(v)] {
				seen[valKey(v)] = true
				vals = append(vals, v)
			}
		}
		prev, ok := allowed[k]
		if !ok {
			order = append(order, k)
			allowed[k] = vals
			excepted[k] = is.except
			continue
		}
		both := map[string]bool{}
		for v := range excepted[k] {
			if is.except[v] {
				both[v] = true
			}
		}
		excepted[k] = both
		keep := prev[:0:0]
		for _, v := range prev {
			if seen[valKey(v)] {
				keep = append(keep, v)
			}
		}
		allowed[k] = keep
	}
	for _, k := range order {
		vals := allowed[k]
		ok := map[string]bool{}
		for _, v := range vals {
			ok[valKey(v)] = true
		}
		for v := range excepted[k] { // a value the data itself leaves dangling in every inclusion
			ok[v] = true
		}
		var kept [][]any
		for _, row := range in[k.t] {
			v := row[k.c]
			switch {
			case v == nil || ok[valKey(v)]:
			case rl.tps[k.t] != nil && rl.tps[k.t].reference:
				continue // a reference table's row is a fact: dropped, never re-pointed
			case len(vals) > 0:
				row = append([]any(nil), row...)
				row[k.c] = vals[r.Intn(len(vals))]
			case rl.nullOK(k.t, k.c) && !rl.sp.tables[k.t].cols[k.c].notNull:
				row = append([]any(nil), row...)
				row[k.c] = nil
			default:
				continue
			}
			kept = append(kept, row)
		}
		in[k.t] = kept
	}
}
