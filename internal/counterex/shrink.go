package counterex

import "context"

// shrinkChecks bounds the checks one shrink makes (each is two loads and four queries
// on a few rows).
const shrinkChecks = 400

// shrink reduces in, a counterexample, to fewer rows that still tell the pair apart:
// rows are removed one at a time, children first, and a removal is kept when the
// variant (minus any children the removed row held up) still differs robustly. It
// repeats until no single row can go, so the result is 1-minimal over rows. keep, when
// set, must also accept the smaller variant and how it differs (it keeps a realistic
// counterexample realistic, and one not resting on a tie free of it).
func shrink(ctx context.Context, p *pair, sb *sandbox, in instance, keep func(instance, string) bool) instance {
	checks := 0
	for changed := true; changed && checks < shrinkChecks; {
		changed = false
		for ti := len(in) - 1; ti >= 0; ti-- {
			for ri := 0; ri < len(in[ti]) && checks < shrinkChecks; {
				checks++
				ok, got, tie := p.check(ctx, sb, in.without(ti, ri))
				if ok && (keep == nil || keep(got, tie)) {
					in = got
					changed = true
					continue // the next row moved into ri
				}
				ri++
			}
		}
	}
	return in
}

// relaxChecks bounds the checks relax makes.
const relaxChecks = 120

// relax replaces, one cell at a time, each value of in that departs from the data's
// profile by a realistic one from p (a few candidates each), keeping a replacement when
// the variant still tells the pair apart with fewer departures and keep accepts it. So
// a robustness finding lists only the assumptions its difference needs.
func relax(ctx context.Context, pr *pair, sb *sandbox, in instance, rl *realism, p pools, keep func(instance, string) bool) instance {
	checks := 0
	n := len(rl.assumes(in))
	try := func(cand instance) bool {
		checks++
		ok, got, tie := pr.check(ctx, sb, cand)
		if m := len(rl.assumes(got)); ok && m < n && got.rows() == in.rows() && keep(got, tie) {
			in, n = got, m
			return true
		}
		return false
	}
	// A lookup table's made-up row first gives way to the real row sharing its code.
	for ti := range in {
		tp := rl.tps[ti]
		if tp == nil || !tp.lookup {
			continue
		}
		for ri := 0; ri < len(in[ti]) && n > 0 && checks < relaxChecks; ri++ {
			if tp.realKey[rowKey(in[ti][ri])] {
				continue
			}
			for _, real := range tp.real {
				if !sharesValue(real, in[ti][ri]) {
					continue
				}
				cand := make(instance, len(in))
				copy(cand, in)
				cand[ti] = append([][]any(nil), in[ti]...)
				cand[ti][ri] = append([]any(nil), real...)
				if try(cand) || checks >= relaxChecks {
					break
				}
			}
		}
	}
	for ti := range in {
		for ri := 0; ri < len(in[ti]); ri++ {
			for ci := range in[ti][ri] {
				if n == 0 || checks >= relaxChecks || ri >= len(in[ti]) || rl.departs(ti, ci, in[ti][ri][ci]) == "" {
					continue
				}
				cands := append(append(parentValues(rl, in, ti, ci), first(p[ti][ci].data, 3)...), first(p[ti][ci].lits, 3)...)
				for _, v := range cands {
					if checks >= relaxChecks {
						break
					}
					cand := make(instance, len(in))
					copy(cand, in)
					cand[ti] = append([][]any(nil), in[ti]...)
					row := append([]any(nil), in[ti][ri]...)
					row[ci] = v
					cand[ti][ri] = row
					if try(cand) {
						break
					}
				}
			}
		}
	}
	return in
}

// parentValues are the values a foreign-key or inclusion column ci of table ti may point
// at among in's parent rows (a few).
func parentValues(rl *realism, in instance, ti, ci int) []any {
	var out []any
	for _, fk := range rl.sp.tables[ti].fks {
		for j, c := range fk.cols {
			if c == ci && len(fk.cols) == 1 {
				for _, r := range first2(in[fk.parent], 3) {
					out = append(out, r[fk.pcols[j]])
				}
			}
		}
	}
	for _, is := range rl.incl {
		if is.child == ti && is.ccol == ci && is.parent >= 0 {
			for _, r := range first2(in[is.parent], 3) {
				out = append(out, r[is.pcol])
			}
		}
	}
	return out
}

func first2(rows [][]any, n int) [][]any { return rows[:min(n, len(rows))] }

// sharesValue reports whether two rows of a table agree in some column (a real lookup
// row with the same code as a made-up one).
func sharesValue(a, b []any) bool {
	for i := range a {
		if a[i] != nil && valKey(a[i]) == valKey(b[i]) {
			return true
		}
	}
	return false
}

func first(vs []any, n int) []any { return vs[:min(n, len(vs))] }
