package metrics

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// FlexGroup counts the flexible-comparison verdicts of one slice of records. Accuracy is
// (exact + column_flexible) / compared, as the NL2SQL++ benchmark reports it; compared
// counts the judged records that carry a flex verdict (a prediction that failed to run
// is a failure).
type FlexGroup struct {
	Name           string  `json:"name"`
	Compared       int     `json:"compared"`
	Exact          int     `json:"exact"`
	ColumnFlexible int     `json:"column_flexible"`
	Failure        int     `json:"failure"`
	Accuracy       float64 `json:"accuracy"`
}

// FlexSummary is one system's flexible-comparison counts overall and per difficulty.
type FlexSummary struct {
	System       string      `json:"system"`
	Overall      FlexGroup   `json:"overall"`
	ByDifficulty []FlexGroup `json:"by_difficulty"`
}

// SummarizeFlex counts one system's flex verdicts; ok is false when no record has one
// (the run did not compute the comparison).
func SummarizeFlex(sys SystemRecords) (FlexSummary, bool) {
	all, by, ok := groupsIf(&sys, FlexOf, func(g FlexGroup) bool { return g.Compared > 0 })
	return FlexSummary{System: sys.Name, Overall: all, ByDifficulty: by}, ok
}

// FlexOf counts one group of records.
func FlexOf(name string, recs []record.Record) FlexGroup {
	g := FlexGroup{Name: name}
	for i := range recs {
		r := &recs[i]
		if !r.Judged() || r.FlexVerdict == "" {
			continue
		}
		g.Compared++
		switch r.FlexVerdict {
		case "exact":
			g.Exact++
		case "column_flexible":
			g.ColumnFlexible++
		default:
			g.Failure++
		}
	}
	if g.Compared > 0 {
		g.Accuracy = float64(g.Exact+g.ColumnFlexible) / float64(g.Compared)
	}
	return g
}
