package slicing

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// DiffSection is summary.json's "result_diffs": per system, how its incorrect answers
// are wrong (record.DiffKinds) and which clauses differ from the gold's
// (record.DiffClauses; only where both queries parse and ESM ran).
type DiffSection struct {
	Kinds   []string      `json:"kinds"`
	Clauses []string      `json:"clauses"`
	Systems []SystemDiffs `json:"systems"`
}

// SystemDiffs is one system's counts.
type SystemDiffs struct {
	System    string `json:"system"`
	Incorrect int    `json:"incorrect"`
	// Kinds counts incorrect records by kind; Unclassified those without a result_diff
	// (runs written before it, or a gold that failed under the run's semantics).
	Kinds        map[string]int `json:"kinds"`
	Unclassified int            `json:"unclassified,omitempty"`
	// WithClauses counts the incorrect records with at least one clause that differs
	// from the gold's, Clauses how many differ in each (one record may count in several).
	WithClauses int            `json:"with_clauses"`
	Clauses     map[string]int `json:"clause_counts"`
}

// SummarizeDiffs counts every system's result_diffs; nil when no system has an
// incorrect record.
func SummarizeDiffs(systems []metrics.SystemRecords) *DiffSection {
	sec := &DiffSection{Kinds: record.DiffKinds, Clauses: record.DiffClauses}
	any := false
	for _, s := range systems {
		sd := SystemDiffs{System: s.Name, Kinds: map[string]int{}, Clauses: map[string]int{}}
		for i := range s.Records {
			r := &s.Records[i]
			if r.Verdict != record.Incorrect {
				continue
			}
			sd.Incorrect++
			any = true
			if r.Diff == nil {
				sd.Unclassified++
				continue
			}
			sd.Kinds[r.Diff.Kind]++
			if len(r.Diff.Clauses) > 0 {
				sd.WithClauses++
			}
			for _, c := range r.Diff.Clauses {
				sd.Clauses[c]++
			}
		}
		sec.Systems = append(sec.Systems, sd)
	}
	if !any {
		return nil
	}
	return sec
}
