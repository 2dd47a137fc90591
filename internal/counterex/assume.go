package counterex

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/prove"
)

// realism is a database's profile laid out for one spec: what a variant of the spec's
// tables may hold without departing from the data. It filters the generator's values
// (realistic mode) and lists what a found counterexample assumes (both modes), so the
// two always agree.
type realism struct {
	sp *spec
	// pointing marks the columns ("ti.ci") whose values point into another table (a
	// foreign key or an inclusion): their own range says nothing, the parent's rows do.
	pointing map[[2]int]bool
	tps      []*tableProfile // per spec table; nil when the profile lacks it
	incl     []inclSpec
	lits     map[string]bool // the queries' literals as written (valKey)
	// litCols says which column names each literal is compared with ("" when none was
	// recognised): a closed domain admits only the literals compared with it.
	litCols map[string]map[string]bool
	litVals map[string]any  // each literal key's value (a proof's closed domains list them)
	caseOf  map[string]bool // the text literals, lowercased
}

// inclSpec is an inclusion between two columns of the spec (parent >= 0), or of a spec
// column in a table the spec lacks (parent -1: values must be among set's).
type inclSpec struct {
	child, ccol, parent, pcol int
	set                       map[string]bool
	desc                      string          // "P.k"
	dirty                     string          // the dirty rows of a kept foreign key ("" when the data satisfies it)
	except                    map[string]bool // values that may dangle (inclusion.except)
}

func newRealism(prof *profile, sp *spec, queries []string) *realism {
	rl := &realism{sp: sp, lits: map[string]bool{}, litCols: map[string]map[string]bool{}, litVals: map[string]any{}, caseOf: map[string]bool{}, pointing: map[[2]int]bool{}}
	for ti, ts := range sp.tables {
		for _, fk := range ts.fks {
			for _, ci := range fk.cols {
				rl.pointing[[2]int{ti, ci}] = true
			}
		}
	}
	for _, q := range queries {
		for _, l := range literals(q) {
			ks := []string{valKey(l.v)}
			rl.litVals[ks[0]] = l.v
			if s, ok := l.v.(string); ok { // as a number too: '3' compared with an INTEGER column
				if f, ok := numberOf(fit(s, dbschema.AffinityReal)); ok {
					ks = append(ks, valKey(f))
					rl.litVals[valKey(f)] = f
				}
			}
			if s, ok := l.v.(string); ok {
				rl.caseOf[strings.ToLower(s)] = true
			}
			for _, k := range ks {
				rl.lits[k] = true
				if rl.litCols[k] == nil {
					rl.litCols[k] = map[string]bool{}
				}
				rl.litCols[k][strings.ToLower(l.col)] = true
			}
		}
	}
	idx := map[string]int{}
	for ti, ts := range sp.tables {
		idx[strings.ToLower(ts.t.Name)] = ti
		rl.tps = append(rl.tps, prof.tables[strings.ToLower(ts.t.Name)])
	}
	colIdx := func(ti int, name string) int {
		for ci, c := range sp.tables[ti].cols {
			if strings.EqualFold(c.name, name) {
				return ci
			}
		}
		return -1
	}
	for _, in := range append(prof.incl, joinedInclusions(prof, sp, queries)...) {
		ct, ok := idx[strings.ToLower(in.child)]
		if !ok {
			continue
		}
		cc := colIdx(ct, in.ccol)
		if cc < 0 {
			continue
		}
		if tp := rl.tps[ct]; tp != nil && tp.reference && !in.declared {
			// A reference table's relations are its declared foreign keys; an observed one
			// is a coincidence of numbering (car_makers.Id 1..23 among car_names.MakeId,
			// model_list.Maker among cars_data.Id), not a fact its fixed rows must keep.
			continue
		}
		is := inclSpec{child: ct, ccol: cc, parent: -1, pcol: -1, desc: in.parent + "." + in.pcol, dirty: in.dirty, except: in.except}
		if pt, ok := idx[strings.ToLower(in.parent)]; ok {
			is.parent, is.pcol = pt, colIdx(pt, in.pcol)
			if is.pcol < 0 || enforced(sp.tables[ct], cc, pt) {
				continue // the variant's own foreign key keeps it
			}
		} else {
			ptp := prof.tables[strings.ToLower(in.parent)]
			for _, c := range ptp.cols {
				if strings.EqualFold(c.name, in.pcol) {
					is.set = c.set
				}
			}
			if is.set == nil {
				continue
			}
		}
		rl.incl = append(rl.incl, is)
		rl.pointing[[2]int{ct, cc}] = true
	}
	return rl
}

// joinedInclusions are the inclusions the queries' own joins suggest (flights.Airline =
// airlines.uid) that the data satisfies: every value of one side is in the other, a key
// (non-NULL, distinct, its table read whole). Names alone would miss them.
func joinedInclusions(prof *profile, sp *spec, queries []string) []inclusion {
	partners := map[string]map[string]bool{}
	for _, q := range queries {
		for a, bs := range joinPartners(q) {
			if partners[a] == nil {
				partners[a] = map[string]bool{}
			}
			for _, b := range bs {
				partners[a][b] = true
			}
		}
	}
	var out []inclusion
	for _, ct := range sp.tables {
		ctp := prof.tables[strings.ToLower(ct.t.Name)]
		for _, pt := range sp.tables {
			ptp := prof.tables[strings.ToLower(pt.t.Name)]
			if ct == pt || ctp == nil || ptp == nil || !ctp.complete || !ptp.complete || ptp.rows == 0 {
				continue
			}
			for _, cc := range ctp.cols {
				for _, pc := range ptp.cols {
					if !partners[strings.ToLower(cc.name)][strings.ToLower(pc.name)] || pc.nulls || len(pc.set) != ptp.rows || len(cc.set) == 0 {
						continue
					}
					if subsetOf(cc.set, pc.set) {
						out = append(out, inclusion{child: ct.t.Name, ccol: cc.name, parent: pt.t.Name, pcol: pc.name})
					}
				}
			}
		}
	}
	return out
}

// enforced reports whether column ci of ts is a declared, enforced foreign key to table pt.
func enforced(ts *tableSpec, ci, pt int) bool {
	for _, fk := range ts.fks {
		if fk.parent == pt && len(fk.cols) == 1 && fk.cols[0] == ci {
			return true
		}
	}
	return false
}

// departs says how v in column ci of spec table ti departs from the data ("" when it
// does not): NULL where none occurs, a value outside a closed domain, a number outside
// the data's range or not an integer, text around spaces. The queries' own literals are
// always allowed.
func (rl *realism) departs(ti, ci int, v any) string {
	tp := rl.tps[ti]
	if tp == nil || ci >= len(tp.cols) {
		return ""
	}
	c := &tp.cols[ci]
	where := tp.name + "." + c.name
	if v == nil {
		if !c.nulls {
			return fmt.Sprintf("NULL in %s (never NULL in the data)", where)
		}
		return ""
	}
	k := valKey(v)
	if s, ok := v.(string); ok && !c.set[k] && c.lower[strings.ToLower(s)] {
		// the data spells this value in another case ('Korea'): 'korea' is not its spelling
		return fmt.Sprintf("value %s in %s (the data spells it in another case)", sqlLiteral(v), where)
	}
	if c.closed && !rl.pointing[[2]int{ti, ci}] {
		if cols := rl.litCols[k]; !c.domain[k] && !cols[""] && !cols[strings.ToLower(c.name)] {
			return fmt.Sprintf("value %s not in %s's domain", sqlLiteral(v), where)
		}
		return ""
	}
	if rl.lits[k] {
		if cols := rl.litCols[k]; c.distinct && !c.numeric && !c.set[k] && !cols[""] && !cols[strings.ToLower(c.name)] {
			// an identifier-like column (distinct text) does not take a literal meant for
			// another column: an airport code 'Aberdeen' is no airport's
			return fmt.Sprintf("value %s in %s (a literal compared with another column; its values are distinct identifiers)", sqlLiteral(v), where)
		}
		return ""
	}
	if s, ok := v.(string); ok && rl.caseOf[strings.ToLower(s)] && !c.set[k] {
		return fmt.Sprintf("value %s in %s (a query's literal in another case; the data does not have it)", sqlLiteral(v), where)
	}
	if f, isNum := numberOf(v); c.numeric {
		switch {
		case !isNum:
			return fmt.Sprintf("text %s in %s (always a number in the data)", sqlLiteral(v), where)
		case c.integral && f != math.Trunc(f):
			return fmt.Sprintf("value %s in %s (always an integer in the data)", sqlLiteral(v), where)
		case (f < c.lo || f > c.hi) && c.nonNull >= distinctMin && !rl.pointing[[2]int{ti, ci}]:
			// a range from a handful of rows, or of keys pointing elsewhere, says little
			return fmt.Sprintf("value %s outside %s's range [%g, %g]", sqlLiteral(v), where, c.lo, c.hi)
		}
	}
	if s, ok := v.(string); ok {
		switch {
		case !c.spaces && s != strings.TrimSpace(s):
			return fmt.Sprintf("value %s in %s (no value has spaces around it in the data)", sqlLiteral(v), where)
		case s == "" && !c.empty && c.nonNull > 0:
			return fmt.Sprintf("empty text in %s (never empty in the data)", where)
		}
	}
	return ""
}

// maxAssumes bounds the facts listed for one counterexample.
const maxAssumes = 6

// assumes lists the profile facts in departs from, sorted; none for a realistic one.
func (rl *realism) assumes(in instance) []string {
	set := map[string]bool{}
	for ti, rows := range in {
		tp := rl.tps[ti]
		if tp == nil {
			continue
		}
		if len(rows) == 0 && tp.rows > 0 {
			// A benchmark's table with rows is not empty in the world its questions ask
			// about: a difference only there (MAX over nothing, a NULL row) is robustness.
			set[fmt.Sprintf("table %s empty (it has rows in the data)", tp.name)] = true
		}
		if tp.lookup {
			for _, r := range rows {
				if !tp.realKey[rowKey(r)] {
					set[fmt.Sprintf("new code/name pairing in %s (a row not in its data)", tp.name)] = true
				}
			}
			continue
		}
		for ci := range rl.sp.tables[ti].cols {
			seen := map[string]bool{}
			for _, r := range rows {
				if m := rl.departs(ti, ci, r[ci]); m != "" {
					set[m] = true
				}
				if c := tp.cols[ci]; c.distinct && !c.numeric && r[ci] != nil {
					k := valKey(r[ci])
					if seen[k] {
						set[fmt.Sprintf("duplicate value %s in %s.%s (distinct in the data)", sqlLiteral(r[ci]), tp.name, c.name)] = true
					}
					seen[k] = true
				}
			}
		}
	}
	for _, is := range rl.incl {
		have := is.set
		if is.parent >= 0 {
			have = map[string]bool{}
			for _, r := range in[is.parent] {
				have[valKey(r[is.pcol])] = true
			}
		}
		for _, r := range in[is.child] {
			if v := r[is.ccol]; v != nil && is.except[valKey(v)] {
				continue
			} else if v != nil && !have[valKey(v)] && is.dirty != "" {
				set[fmt.Sprintf("%s.%s value %s not in %s (%s)", rl.sp.tables[is.child].t.Name, rl.sp.tables[is.child].cols[is.ccol].name, sqlLiteral(v), is.desc, is.dirty)] = true
			} else if v != nil && !have[valKey(v)] {
				set[fmt.Sprintf("%s.%s value %s not in %s (every value is in the data)", rl.sp.tables[is.child].t.Name, rl.sp.tables[is.child].cols[is.ccol].name, sqlLiteral(v), is.desc)] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	if len(out) > maxAssumes {
		out = append(out[:maxAssumes], fmt.Sprintf("and %d more", len(out)-maxAssumes))
	}
	return out
}

// filter keeps the values of vs column ci of table ti may hold.
func (rl *realism) filter(ti, ci int, vs []any) []any {
	var out []any
	for _, v := range vs {
		if rl.departs(ti, ci, v) == "" {
			out = append(out, v)
		}
	}
	return out
}

// restrict narrows p to realistic values: each pool filtered, a closed domain's values
// added, a column pointing into a table the spec lacks drawn from that table's keys.
func (rl *realism) restrict(p pools) {
	for ti := range p {
		tp := rl.tps[ti]
		for ci := range p[ti] {
			cp := &p[ti][ci]
			cp.data, cp.lits = rl.filter(ti, ci, cp.data), rl.filter(ti, ci, cp.lits)
			if tp != nil && ci < len(tp.cols) && (tp.cols[ci].closed || len(cp.data) == 0) {
				cp.data = append(cp.data, rl.filter(ti, ci, fitAll(tp.cols[ci].values, rl.sp.tables[ti].cols[ci].aff))...)
			}
		}
	}
	for _, is := range rl.incl {
		if is.parent >= 0 {
			continue
		}
		cp := &p[is.child][is.ccol]
		keep := func(vs []any) []any {
			var out []any
			for _, v := range vs {
				if is.set[valKey(v)] || is.except[valKey(v)] {
					out = append(out, v)
				}
			}
			return out
		}
		cp.data, cp.lits = keep(cp.data), keep(cp.lits)
	}
}

func fitAll(vs []any, a dbschema.Affinity) []any {
	var out []any
	for _, v := range vs {
		if f := fit(v, a); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// nullOK reports whether column ci of spec table ti may be NULL in a realistic variant.
func (rl *realism) nullOK(ti, ci int) bool {
	tp := rl.tps[ti]
	return tp == nil || ci >= len(tp.cols) || tp.cols[ci].nulls
}

// lookupRows draws n real rows of lookup table ti (nil when it is not one).
func (rl *realism) lookupRows(r *rand.Rand, ti, n int) [][]any {
	tp := rl.tps[ti]
	if tp == nil || !tp.lookup {
		return nil
	}
	n = max(1, min(n, len(tp.real)))
	out := make([][]any, 0, n)
	for _, k := range r.Perm(len(tp.real))[:n] {
		out = append(out, append([]any(nil), tp.real[k]...))
	}
	return out
}

// repair makes in keep the spec's inclusions: a child value is pointed at a parent row
// (pick) or its row dropped (!pick, for rows copied from the data); with no parent row,
// the value becomes NULL where the column may be NULL, else the row goes.
func (rl *realism) repair(r *rand.Rand, in instance, pick bool) {
	for _, is := range rl.incl {
		if is.parent < 0 {
			continue
		}
		parents := in[is.parent]
		have := map[string]bool{}
		for _, p := range parents {
			have[valKey(p[is.pcol])] = true
		}
		var kept [][]any
		for _, row := range in[is.child] {
			v := row[is.ccol]
			switch {
			case v == nil || have[valKey(v)] || is.except[valKey(v)]:
			case rl.tps[is.child] != nil && rl.tps[is.child].reference:
				continue // a reference table's row is a fact: dropped, never re-pointed
			case pick && len(parents) > 0:
				row = append([]any(nil), row...)
				row[is.ccol] = parents[r.Intn(len(parents))][is.pcol]
			case pick && rl.nullOK(is.child, is.ccol) && !rl.sp.tables[is.child].cols[is.ccol].notNull:
				row = append([]any(nil), row...)
				row[is.ccol] = nil
			default:
				continue
			}
			kept = append(kept, row)
		}
		in[is.child] = kept
	}
}

// distinctCols are the columns of spec table ti whose values are distinct in the data
// (text only: ties on numbers are realistic).
func (rl *realism) distinctCols(ti int) []int {
	tp := rl.tps[ti]
	if tp == nil {
		return nil
	}
	var out []int
	for ci, c := range tp.cols {
		if c.distinct && !c.numeric {
			out = append(out, ci)
		}
	}
	return out
}

// hasRows reports whether spec table ti has rows in the original data.
func (rl *realism) hasRows(ti int) bool {
	tp := rl.tps[ti]
	return tp != nil && tp.rows > 0
}

// closedDomain is spec column (ti, ci)'s closed domain as realism reads it (departs):
// the data's values plus the queries' literals compared with that column or with no
// recognised column. nil when the column is open, points into another table, or holds
// a value that kind cannot express: a proof then assumes nothing of its values.
func (rl *realism) closedDomain(ti, ci int, kind prove.Kind) []any {
	tp := rl.tps[ti]
	if tp == nil || ci >= len(tp.cols) || rl.pointing[[2]int{ti, ci}] {
		return nil
	}
	c := &tp.cols[ci]
	if !c.closed || len(c.values) == 0 {
		return nil
	}
	out := []any{}
	seen := map[string]bool{}
	add := func(v any) bool {
		switch x := v.(type) {
		case string:
			if kind != prove.KindText {
				return false
			}
		case int64, float64:
			if kind != prove.KindNum {
				return false
			}
		case int:
			v = int64(x)
			if kind != prove.KindNum {
				return false
			}
		default:
			return false
		}
		if k := valKey(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
		return true
	}
	for _, v := range c.values {
		if v != nil && !add(v) {
			return nil
		}
	}
	keys := make([]string, 0, len(rl.litCols))
	for k := range rl.litCols {
		keys = append(keys, k)
	}
	sort.Strings(keys) // one script for one pair
	for _, k := range keys {
		cols := rl.litCols[k]
		if !cols[""] && !cols[strings.ToLower(c.name)] {
			continue
		}
		v := rl.litVals[k]
		if _, isText := v.(string); isText != (kind == prove.KindText) {
			continue // '3' as a number for a numeric column is its own key
		}
		if !add(v) {
			return nil
		}
	}
	return out
}
