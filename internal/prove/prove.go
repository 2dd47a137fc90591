package prove

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sqlc-dev/meyer/ast"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// Status is a proof's answer.
type Status string

// The three answers.
const (
	Proven  Status = "proven"
	Refuted Status = "refuted"
	Unknown Status = "unknown"
)

// Compare is how two results are compared.
type Compare int

// The comparisons: a bag (Spider without ORDER BY: same rows, same multiplicities) or a
// set (BIRD: same distinct rows). Options.Ordered adds the order of rows.
const (
	Bag Compare = iota
	Set
)

// Options configure one proof.
type Options struct {
	Bound   int           // rows per table (default 3)
	Compare Compare       // bag or set
	Ordered bool          // compare as lists up to ties (Spider when the gold has ORDER BY)
	Budget  time.Duration // solver time (default 10 s)
	Solver  *Solver       // nil: the default solver (z3 on PATH)
	// Permute allows the prediction's columns in another order (Spider's comparison
	// tries column permutations): proven when some order is proven.
	Permute bool
}

// Result is one proof's answer.
type Result struct {
	Status  Status
	Reason  string // why Unknown (or what Refuted rests on)
	Bound   int
	Assumes []string      // the constraints every database considered satisfies
	Elapsed time.Duration // solver time
	// DB is the solver's counterexample when Status is Refuted: per schema table, its
	// rows (each value nil, int64, float64 or string). The caller must confirm it by
	// running both queries on it before calling the prediction wrong.
	DB [][][]any
}

// Prove asks whether gold and pred return the same result on every database of sc's
// shape with at most opt.Bound rows per table.
func Prove(ctx context.Context, sc *Schema, gold, pred string, opt Options) (res Result) {
	if opt.Bound <= 0 {
		opt.Bound = 3
	}
	if opt.Budget <= 0 {
		opt.Budget = 10 * time.Second
	}
	res = Result{Status: Unknown, Bound: opt.Bound, Assumes: sc.Facts()}
	if canonical(gold) == canonical(pred) {
		// One text, one plan: SQLite returns the same rows on every database.
		res.Status, res.Reason = Proven, "the same query up to case, spacing and ASC"
		return res
	}
	// A LIMIT n, or a count compared with n, tells queries apart only on more than n
	// rows: the bound grows to cover it, or the answer is unknown.
	if need := rowsNeeded(gold, pred); need > opt.Bound {
		if need > maxBound {
			res.Reason = fmt.Sprintf("a LIMIT or count of %d needs %d rows per table, over the largest bound (%d)", need-1, need, maxBound)
			return res
		}
		opt.Bound, res.Bound = need, need
	}
	// opt.Budget is the pair's solver time: the column orders tried after the first
	// share what the first left (six orders of three columns each given the whole budget
	// made one pair cost up to seven times it).
	deadline := time.Now().Add(opt.Budget)
	first := prove1(ctx, sc, gold, pred, opt, nil, res)
	if first.Status == Proven || !opt.Permute {
		return first
	}
	// Another column order may match: tried after a refutation or a kind mismatch only.
	if first.Status == Unknown && !strings.Contains(first.Reason, "in the other") {
		return first
	}
	for _, perm := range permutations(width(pred)) {
		left := time.Until(deadline)
		if left < minAttempt {
			if first.Status == Unknown {
				first.Reason = "solver: the budget was spent before every column order was tried"
			}
			break
		}
		opt.Budget = left
		r := prove1(ctx, sc, gold, pred, opt, perm, res)
		r.Elapsed += first.Elapsed
		if r.Status == Proven {
			r.Reason = fmt.Sprintf("with the prediction's columns in the order %v (Spider compares any order)", perm)
			return r
		}
		if first.Status == Unknown && r.Status == Refuted {
			first = r
		}
	}
	return first
}

// prove1 is one attempt, with the prediction's columns permuted by perm (nil: as they are).
func prove1(ctx context.Context, sc *Schema, gold, pred string, opt Options, perm []int, res Result) Result {
	script, lits, err := encode(sc, gold, pred, opt, perm)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	if limit := formulaLimit(opt.Budget); len(script) > limit {
		res.Reason = fmt.Sprintf("solver: not asked: a formula of %d KB, over the %d KB a %s budget solves (--proof-budget raises it)", len(script)>>10, limit>>10, opt.Budget)
		return res
	}
	s := opt.Solver
	if s == nil {
		s = DefaultSolver()
	}
	start := time.Now()
	out, err := s.Solve(ctx, script, opt.Budget)
	res.Elapsed = time.Since(start)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	switch out.Status {
	case "unsat":
		res.Status = Proven
	case "sat":
		db, err := decodeDB(sc, opt.Bound, out.Values, lits)
		if err != nil {
			res.Reason = "solver model: " + err.Error()
			return res
		}
		res.Status, res.DB = Refuted, db
	default:
		res.Reason = "solver: " + out.Status
	}
	return res
}

// encode builds the SMT-LIB script asking for a database on which the two differ.
func encode(sc *Schema, gold, pred string, opt Options, perm []int) (script string, lits []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok && errors.Is(e, ErrUnsupported) {
				err = e
				return
			}
			panic(r)
		}
	}()
	var stmts []*ast.SelectStmt
	for _, q := range []string{gold, pred} {
		p, err := sqlast.Parse(q)
		if err != nil {
			return "", nil, unsupported("parse: %v", err)
		}
		st, ok := p.Syntax().(*ast.SelectStmt)
		if !ok {
			return "", nil, unsupported("not a SELECT")
		}
		stmts = append(stmts, st)
	}
	en := &encoder{e: &emitter{}, s: sc, k: opt.Bound, texts: map[string]string{}, ctes: map[string]*relation{}}
	lits = withDomainTexts(textLiterals(stmts), sc)
	for i, l := range lits {
		en.texts[l] = intLit(symbolGap * (i + 1))
	}
	en.baseTables()
	var res [2]*result
	for i, st := range stmts {
		r, err := en.stmt(st, nil)
		if err != nil {
			return "", nil, err
		}
		res[i] = r
	}
	if perm != nil {
		if len(perm) != len(res[1].rel.cols) {
			return "", nil, unsupported("permutation of another width")
		}
		res[1] = permuted(res[1], perm)
	}
	eq, err := en.equal(res[0], res[1], opt)
	if err != nil {
		return "", nil, err
	}
	en.e.assert(not(eq))
	return en.e.b.String(), lits, nil
}

// withDomainTexts adds the closed domains' text values to the queries' literals (each
// gets its symbol, in BINARY order among the others), sorted.
func withDomainTexts(lits []string, sc *Schema) []string {
	set := map[string]bool{}
	for _, l := range lits {
		set[l] = true
	}
	for _, t := range sc.Tables {
		for _, c := range t.Columns {
			if c.Kind != KindText {
				continue
			}
			for _, d := range c.Domain {
				if s, ok := d.(string); ok && !set[s] {
					set[s] = true
					lits = append(lits, s)
				}
			}
		}
	}
	sort.Strings(lits)
	return lits
}

// inDomain is the condition that term v holds one of c's domain values. A value the
// kind cannot hold (never given by a careful caller) leaves the column open: "true".
func (en *encoder) inDomain(v string, c Column) string {
	var alts []string
	for _, d := range c.Domain {
		var t string
		switch x := d.(type) {
		case string:
			if c.Kind != KindText {
				return "true"
			}
			t = en.texts[x]
		case int64:
			if c.Kind != KindNum {
				return "true"
			}
			t = ratTerm(new(big.Rat).SetInt64(x))
		case float64:
			r := new(big.Rat)
			if c.Kind != KindNum || r.SetFloat64(x) == nil {
				return "true"
			}
			t = ratTerm(r)
		default:
			return "true"
		}
		alts = append(alts, "(= "+v+" "+t+")")
	}
	if len(alts) == 0 {
		return "false"
	}
	return or(alts...)
}

// symbolGap separates the text literals' symbols, leaving room for other texts between.
const symbolGap = 1000

// textLiterals collects every string literal and double-quoted name (which SQLite reads
// as a string when no column has that name), sorted as SQLite's BINARY collation sorts.
func textLiterals(stmts []*ast.SelectStmt) []string {
	set := map[string]bool{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		switch t := n.(type) {
		case *ast.Literal:
			if t.Kind == ast.LitString {
				set[t.Value] = true
			} else if txt, ok := numberText(t.Value, t.Kind); ok {
				set[txt] = true // a number may be compared with a text column (affinity.go)
			}
		case *ast.Ident:
			if t.Quote == ast.QuoteDouble {
				set[t.Name] = true
			}
		}
		for _, c := range n.Children() {
			if c != nil && !isNilNode(c) {
				walk(c)
			}
		}
	}
	for _, st := range stmts {
		walk(st)
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func isNilNode(n ast.Node) bool {
	v := reflect.ValueOf(n)
	return !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil()
}

// baseTables declares k rows per table and asserts the schema's constraints.
func (en *encoder) baseTables() {
	e := en.e
	for ti, t := range en.s.Tables {
		r := &relation{}
		for _, c := range t.Columns {
			r.cols = append(r.cols, colName{qual: strings.ToLower(t.Name), name: strings.ToLower(c.Name)})
			r.kinds = append(r.kinds, c.Kind)
		}
		var exs []string
		for ri := 0; ri < en.k; ri++ {
			ex := fmt.Sprintf("e_%d_%d", ti, ri)
			fmt.Fprintf(&e.b, "(declare-const %s Bool)\n", ex)
			tp := tuple{ex: ex}
			for ci, c := range t.Columns {
				v := fmt.Sprintf("v_%d_%d_%d", ti, ri, ci)
				fmt.Fprintf(&e.b, "(declare-const %s %s)\n", v, sortOf(c.Kind))
				null := "false"
				if !c.NotNull {
					null = fmt.Sprintf("n_%d_%d_%d", ti, ri, ci)
					fmt.Fprintf(&e.b, "(declare-const %s Bool)\n", null)
				}
				tp.vals = append(tp.vals, value{v: v, null: null, k: c.Kind, aff: affOf(c.Kind)}) // KindNone: refused when read
				if c.Domain != nil {
					e.assert("(=> " + and(ex, not(null)) + " " + en.inDomain(v, c) + ")")
				}
			}
			r.rows = append(r.rows, tp)
			exs = append(exs, ex)
			if ri > 0 { // rows are interchangeable: present ones first
				e.assert("(=> " + ex + " " + exs[ri-1] + ")")
			}
		}
		if t.NonEmpty {
			e.assert(or(exs...))
		}
		for _, key := range t.Keys {
			for a := 0; a < en.k; a++ {
				for b := a + 1; b < en.k; b++ {
					var same []string
					for _, ci := range key {
						x, y := r.rows[a].vals[ci], r.rows[b].vals[ci]
						same = append(same, and(not(x.null), not(y.null), "(= "+x.v+" "+y.v+")"))
					}
					e.assert(not(and(append([]string{r.rows[a].ex, r.rows[b].ex}, same...)...)))
				}
			}
		}
		en.base = append(en.base, r)
	}
	for _, in := range en.s.Incl {
		child, parent := en.base[in.Child], en.base[in.Parent]
		for _, cr := range child.rows {
			var known []string
			for _, ci := range in.Cols {
				known = append(known, not(cr.vals[ci].null))
			}
			var alts []string
			for _, pr := range parent.rows {
				m := []string{pr.ex}
				for x, ci := range in.Cols {
					pv := pr.vals[in.PCols[x]]
					m = append(m, not(pv.null), "(= "+cr.vals[ci].v+" "+pv.v+")")
				}
				alts = append(alts, and(m...))
			}
			e.assert("(=> " + and(append([]string{cr.ex}, known...)...) + " " + or(alts...) + ")")
		}
	}
}

// equal is the condition that the two results are equal under opt's comparison.
func (en *encoder) equal(a, b *result, opt Options) (string, error) {
	if len(a.rel.cols) != len(b.rel.cols) {
		return "", unsupported("results of %d and %d columns", len(a.rel.cols), len(b.rel.cols))
	}
	for i := range a.rel.kinds {
		if _, err := compatible(value{k: a.rel.kinds[i]}, value{k: b.rel.kinds[i]}); err != nil {
			return "", unsupported("column %d: text in one result, numbers in the other", i+1)
		}
		if a.rel.kinds[i] == KindNone || b.rel.kinds[i] == KindNone {
			return "", unsupported("a column of unmodelled type")
		}
	}
	ordered := opt.Ordered && opt.Compare == Bag
	if ordered && (!a.ordered || !b.ordered) {
		return "", unsupported("order compared but a query has no ORDER BY")
	}
	row := func(t tuple) []value {
		if !ordered {
			return t.vals
		}
		return append(slices.Clone(t.vals), value{v: t.rank, null: "false", k: kindRank})
	}
	if opt.Compare == Set {
		in := func(x, y *relation) string {
			var all []string
			for _, r := range x.rows {
				var alts []string
				for _, s := range y.rows {
					alts = append(alts, and(s.ex, en.rowEq(r.vals, s.vals)))
				}
				all = append(all, "(=> "+r.ex+" "+en.e.def("Bool", or(alts...))+")")
			}
			return en.e.def("Bool", and(all...))
		}
		return and(in(a.rel, b.rel), in(b.rel, a.rel)), nil
	}
	count := func(r []value, x *relation) string {
		var xs []string
		for _, s := range x.rows {
			xs = append(xs, ite(and(s.ex, en.rowEq(r, row(s))), "1", "0"))
		}
		return en.e.def("Int", isum(xs))
	}
	var all []string
	for _, side := range []*relation{a.rel, b.rel} {
		for _, r := range side.rows {
			all = append(all, "(=> "+r.ex+" (= "+count(row(r), a.rel)+" "+count(row(r), b.rel)+"))")
		}
	}
	return and(all...), nil
}

// permuted is r with its columns in the order perm names.
func permuted(r *result, perm []int) *result {
	rel := &relation{}
	for _, i := range perm {
		rel.cols = append(rel.cols, r.rel.cols[i])
		rel.kinds = append(rel.kinds, r.rel.kinds[i])
	}
	for _, t := range r.rel.rows {
		nt := t
		nt.vals = nil
		for _, i := range perm {
			nt.vals = append(nt.vals, t.vals[i])
		}
		rel.rows = append(rel.rows, nt)
	}
	return &result{rel: rel, ordered: r.ordered}
}

// width is how many columns the query's SELECT list names (0 when it cannot tell: *).
func width(q string) int {
	p, err := sqlast.Parse(q)
	if err != nil {
		return 0
	}
	st, ok := p.Syntax().(*ast.SelectStmt)
	if !ok || len(st.Cores) == 0 {
		return 0
	}
	c, ok := st.Cores[0].(*ast.SelectQuery)
	if !ok {
		return 0
	}
	for _, rc := range c.Columns {
		if _, star := rc.Expr.(*ast.Star); star {
			return 0
		}
	}
	return len(c.Columns)
}

// permutations lists the orders of n columns other than the identity (n of 2 or 3).
func permutations(n int) [][]int {
	switch n {
	case 2:
		return [][]int{{1, 0}}
	case 3:
		return [][]int{{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	}
	return nil
}

// canonical is q's code tokens with words lowercased, ASC and a final ";" dropped:
// two queries with the same canonical text are one query to SQLite.
func canonical(q string) string {
	var b strings.Builder
	toks := sqlscan.Code(q)
	for len(toks) > 0 && toks[len(toks)-1].Text(q) == ";" {
		toks = toks[:len(toks)-1]
	}
	for _, t := range toks {
		s := t.Text(q)
		if t.Kind == sqlscan.Word {
			s = strings.ToLower(s)
			if s == "asc" {
				continue
			}
		}
		b.WriteString(s)
		b.WriteByte(' ')
	}
	return b.String()
}

// minAttempt is the least solver time worth one more attempt within a pair's budget.
const minAttempt = 50 * time.Millisecond

// formulaBytesPerSecond scales the largest formula worth sending to the solver with the
// budget. On Spider dev DAIL (issue 43, round 51, bound 3, 1 s budget) no formula over
// 250 KB finished within its budget (44 of 335: each cost the whole budget in CPU, a
// third of z3's time; the few tried with 8 s needed 3.4-4.6 CPU-s), while 157 of the 158
// under 20 KB did. Skipping them is sound: the answer is unknown, as a timeout's.
const formulaBytesPerSecond = 256 << 10

// formulaLimit is the largest script, in bytes, sent to the solver with budget.
func formulaLimit(budget time.Duration) int {
	return int(budget.Seconds() * formulaBytesPerSecond)
}

// maxBound is the largest bound rowsNeeded may raise a proof to.
const maxBound = 6

// rowsNeeded is one more than the largest LIMIT, OFFSET or integer compared with a
// COUNT in either query (0 when none): the rows per table a difference may need.
func rowsNeeded(qs ...string) int {
	need := 0
	note := func(x ast.Expr) {
		for {
			if p, ok := x.(*ast.ParenExpr); ok {
				x = p.X
				continue
			}
			if u, ok := x.(*ast.UnaryExpr); ok {
				x = u.X
				continue
			}
			break
		}
		if l, ok := x.(*ast.Literal); ok && (l.Kind == ast.LitInteger || l.Kind == ast.LitFloat) {
			f, err := strconv.ParseFloat(l.Value, 64)
			if err != nil || f > 1e6 {
				need = 1 << 20
				return
			}
			need = max(need, int(math.Floor(f))+1)
		}
	}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		switch t := n.(type) {
		case *ast.Limit:
			note(t.Count)
			if t.Offset != nil {
				note(t.Offset)
			}
		case *ast.BinaryExpr:
			if t.Op >= ast.OpEq && t.Op <= ast.OpGe {
				if hasCount(t.X) {
					note(t.Y)
				}
				if hasCount(t.Y) {
					note(t.X)
				}
			}
		case *ast.BetweenExpr:
			if hasCount(t.X) {
				note(t.Lo)
				note(t.Hi)
			}
		}
		for _, c := range n.Children() {
			if c != nil && !isNilNode(c) {
				walk(c)
			}
		}
	}
	for _, q := range qs {
		p, err := sqlast.Parse(q)
		if err == nil {
			walk(p.Syntax())
		}
	}
	return need // LIMIT n: n+1 rows show the cut; a count against n: n+1 rows pass it
}

// hasCount reports whether x holds a COUNT (in it or in a subquery of it).
func hasCount(x ast.Node) bool {
	found := false
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		if f, ok := n.(*ast.FuncCall); ok && strings.EqualFold(f.Name.Name, "count") {
			found = true
		}
		for _, c := range n.Children() {
			if !found && c != nil && !isNilNode(c) {
				walk(c)
			}
		}
	}
	walk(x)
	return found
}
