package metrics

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// Values over a subset of a system's records (a slice of the questions,
// internal/slicing), given as positions into the records rather than as a copy: a
// seven-system run has a hundred thousand record places across its slices, and copying
// them cost more than the whole summary.

// AggregateAt is metric m over system's records at positions at: the value Aggregate
// gives for a system holding only those records (its overall value, without the
// per-difficulty split), interval included (a bootstrap is drawn alone, as
// BootstrapMean draws it, which is what Aggregate's batch draws for it).
func AggregateAt(m *Metric, system string, recs []record.Record, at []int) Value {
	reason := ""
	if m.Usable != nil {
		if ok, why := m.Usable(recs); !ok {
			reason = why
		}
	}
	v, xs := aggregateAt(m, system, recs, at, reason)
	v.ID = m.ID
	if xs != nil {
		lo, hi := BootstrapMean(xs)
		setCI(m, &v, MethodBootstrap, lo, hi)
	}
	return v
}

// ComparePairedAt is ComparePaired over recsA's records at positions at, each paired with
// recsB's record of the same question.
func ComparePairedAt(m *Metric, sysA string, recsA []record.Record, sysB string, recsB []record.Record, at []int) (PairedTest, bool) {
	t, d, ok := comparePairedAt(m, sysA, recsA, sysB, recsB, at)
	if ok && d != nil {
		_, lo, hi, p := PairedBootstrap(d, make([]float64, len(d)))
		finishPairedBootstrap(m, &t, lo, hi, p)
	}
	return t, ok
}
