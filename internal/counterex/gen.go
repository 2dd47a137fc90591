package counterex

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// instance is one variant's rows: per spec table (spec order), each row's values in
// column order.
type instance [][][]any

func (in instance) rows() int {
	n := 0
	for _, t := range in {
		n += len(t)
	}
	return n
}

// without is in minus row r of table t (children referencing it are dropped when the
// variant is loaded, as foreign keys are enforced).
func (in instance) without(t, r int) instance {
	out := make(instance, len(in))
	copy(out, in)
	out[t] = append(append([][]any(nil), in[t][:r]...), in[t][r+1:]...)
	return out
}

// generator draws variants of one spec.
type generator struct {
	s       *spec
	p       pools
	samples [][][]any // the original rows of each table (up to sampleRows)
	real    *realism  // realistic mode: only what the data's profile allows (nil: declared)
}

// sizes are the row counts a random table gets: small tables find most differences.
var sizes = []int{0, 1, 2, 2, 3, 3, 4, 5, 6, 8}

// random draws a variant: each table gets a few rows whose values come from the pools,
// foreign keys pointing at rows of the parent drawn before, some rows duplicating an
// earlier one except for their keys (duplicates and ties).
func (g *generator) random(r *rand.Rand) instance {
	in := make(instance, len(g.s.tables))
	for ti, ts := range g.s.tables {
		n := sizes[r.Intn(len(sizes))]
		if len(g.s.tables) >= 4 && n > 4 {
			n = 4 // bounds a cross product of many tables
		}
		if n == 0 && g.real != nil && g.real.hasRows(ti) {
			n = 1 // a table with rows in the data is never empty in a realistic variant
		}
		if g.real != nil {
			if rows := g.real.lookupRows(r, ti, n); rows != nil {
				in[ti] = rows // a lookup table keeps its real code/name pairs
				continue
			}
		}
		keys := ts.keys
		if g.real != nil { // a column distinct in the data stays distinct
			for _, ci := range g.real.distinctCols(ti) {
				keys = append(keys[:len(keys):len(keys)], []int{ci})
			}
		}
		seen := make([]map[string]bool, len(keys))
		for k := range seen {
			seen[k] = map[string]bool{}
		}
		for range n {
			for range 6 {
				row := g.row(r, ti, in)
				if row == nil {
					break
				}
				if unique(keys, row, seen) {
					in[ti] = append(in[ti], row)
					break
				}
			}
		}
	}
	if g.real != nil {
		g.real.closeLookups(in)
		g.real.repair(r, in, true)
	}
	return in
}

// fromData draws a variant of original rows: a random subset of each table's sample.
func (g *generator) fromData(r *rand.Rand) instance {
	in := make(instance, len(g.s.tables))
	for ti := range g.s.tables {
		rows := g.samples[ti]
		if len(rows) == 0 {
			continue
		}
		n := 1 + r.Intn(min(len(rows), 8))
		for _, k := range r.Perm(len(rows))[:n] {
			in[ti] = append(in[ti], append([]any(nil), rows[k]...))
		}
	}
	if g.real != nil {
		g.real.closeLookups(in)
		g.real.repair(r, in, false)
	}
	return in
}

func (g *generator) row(r *rand.Rand, ti int, in instance) []any {
	ts := g.s.tables[ti]
	row := make([]any, len(ts.cols))
	if prev := in[ti]; len(prev) > 0 && r.Intn(4) == 0 {
		copy(row, prev[r.Intn(len(prev))]) // a near-duplicate: keys drawn again below
		for _, k := range ts.keys {
			for _, ci := range k {
				row[ci] = g.value(r, ti, ci)
			}
		}
		if g.real != nil {
			for _, ci := range g.real.distinctCols(ti) {
				row[ci] = g.value(r, ti, ci)
			}
		}
	} else {
		for ci := range row {
			row[ci] = g.value(r, ti, ci)
		}
	}
	for _, fk := range ts.fks {
		parents := in[fk.parent]
		nullable := true
		for _, ci := range fk.cols {
			nullable = nullable && !ts.cols[ci].notNull && (g.real == nil || g.real.nullOK(ti, ci))
		}
		if nullable && (len(parents) == 0 || r.Intn(8) == 0) {
			for _, ci := range fk.cols {
				row[ci] = nil
			}
			continue
		}
		if len(parents) == 0 {
			return nil
		}
		pr := parents[r.Intn(len(parents))]
		for j, ci := range fk.cols {
			row[ci] = pr[fk.pcols[j]]
		}
	}
	return row
}

func (g *generator) value(r *rand.Rand, ti, ci int) any {
	c := g.s.tables[ti].cols[ci]
	if !c.notNull && r.Intn(10) == 0 && (g.real == nil || g.real.nullOK(ti, ci)) {
		return nil
	}
	cp := g.p[ti][ci]
	switch {
	case len(cp.lits) > 0 && (len(cp.data) == 0 || r.Intn(3) == 0):
		return cp.lits[r.Intn(len(cp.lits))]
	case len(cp.data) > 0:
		return cp.data[r.Intn(len(cp.data))]
	}
	switch c.aff {
	case dbschema.AffinityText:
		return string(rune('a' + r.Intn(3)))
	case dbschema.AffinityReal:
		return float64(r.Intn(5)) / 2
	}
	return int64(r.Intn(5))
}

// unique reports whether row's key values are new (and records them): NULLs never
// collide, as in SQLite. Collations and numeric equality are left to the insert, which
// drops a row SQLite refuses.
func unique(keys [][]int, row []any, seen []map[string]bool) bool {
	ks := make([]string, len(keys))
	for k, cols := range keys {
		var b strings.Builder
		for _, ci := range cols {
			if row[ci] == nil {
				b.Reset()
				break
			}
			fmt.Fprintf(&b, "%T:%v\x00", row[ci], row[ci])
		}
		ks[k] = b.String()
		if ks[k] != "" && seen[k][ks[k]] {
			return false
		}
	}
	for k, s := range ks {
		if s != "" {
			seen[k][s] = true
		}
	}
	return true
}
