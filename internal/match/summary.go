package match

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Summary is summary.json's "structural" section: ESM rates per system, overall and per
// difficulty. (ETM rates and the EX/ETM disagreement lists will join it.)
type Summary struct {
	// ESMOptions names the ESM variant: "official" (the default, as evaluation.py
	// computes it), or "values", "distinct", "values+distinct" for the stricter ones.
	ESMOptions string          `json:"esm_options"`
	Systems    []SystemSummary `json:"systems"`
}

// SystemSummary is one system's structural scores.
type SystemSummary struct {
	System       string  `json:"system"`
	Overall      Group   `json:"overall"`
	ByDifficulty []Group `json:"by_difficulty"`
}

// Group is the structural counts and rates of a slice of records. The denominator is the
// same as execution accuracy's (judged records: correct, incorrect or error), so the EX
// and ESM rates of a row compare directly; a judged record whose ESM could not be
// computed counts as no match and is counted in ESMMissing.
type Group struct {
	Name       string  `json:"name"`
	Judged     int     `json:"judged"`
	ESM        int     `json:"esm"`
	ESMMissing int     `json:"esm_missing"`
	ESMRate    float64 `json:"esm_rate"`
}

// Summarize computes the structural section from the systems' records.
func Summarize(opt Options, systems []metrics.SystemRecords) *Summary {
	s := &Summary{ESMOptions: opt.Label()}
	for i := range systems {
		s.Systems = append(s.Systems, summarizeSystem(&systems[i]))
	}
	return s
}

func summarizeSystem(sys *metrics.SystemRecords) SystemSummary {
	return SystemSummary{System: sys.Name, Overall: tally("all", sys.Records), ByDifficulty: metrics.PerDifficulty(sys, tally)}
}

func tally(name string, recs []record.Record) Group {
	g := Group{Name: name}
	for i := range recs {
		r := &recs[i]
		if !r.Judged() {
			continue
		}
		g.Judged++
		switch {
		case r.ESM == nil:
			g.ESMMissing++
		case *r.ESM == 1:
			g.ESM++
		}
	}
	if g.Judged > 0 {
		g.ESMRate = float64(g.ESM) / float64(g.Judged)
	}
	return g
}
