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
