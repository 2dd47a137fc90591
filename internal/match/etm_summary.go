package match

import (
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ETMSummary is summary.json's "etm" section: ETM rates per system (overall and per
// difficulty) and where execution accuracy and ETM disagree, as in Table 4 of the ETM
// paper: EX correct but ETM no match (suspected EX false positives) and the reverse
// (suspected EX false negatives, or ETM false negatives).
type ETMSummary struct {
	// Mode is the --etm-mode the verdicts were computed in: "official" (the ETM authors'
	// script) or "corrected".
	Mode    string             `json:"mode,omitempty"`
	Systems []ETMSystemSummary `json:"systems"`
}

// ETMModeDiff is one question where corrected mode's verdict (ETM) differs from the
// official mode's (Official), with the script quirk that decided (Rule).
type ETMModeDiff struct {
	Index    int    `json:"index"`
	ETM      int    `json:"etm"`
	Official int    `json:"etm_official"`
	Rule     string `json:"rule"`
}

// ETMSystemSummary is one system's ETM scores and EX/ETM disagreements.
type ETMSystemSummary struct {
	System       string     `json:"system"`
	Overall      ETMGroup   `json:"overall"`
	ByDifficulty []ETMGroup `json:"by_difficulty"`
	// EXOnly: EX says correct, ETM says no (question indexes). ETMOnly: the reverse.
	EXOnly  []int `json:"ex_correct_etm_no"`
	ETMOnly []int `json:"etm_match_ex_no"`
	// RuleCounts: how many of the system's questions each Table 5 rule fired on (from the
	// records' etm_rules).
	RuleCounts map[string]int `json:"rule_counts,omitempty"`
	// ModeDiffs (corrected mode only): the questions whose official verdict differs, from
	// the records' etm_official and etm_mode_rule, by question index.
	ModeDiffs []ETMModeDiff `json:"mode_diffs,omitempty"`
}

// ETMGroup is the ETM counts and rate of a slice of records, over the same denominator
// as execution accuracy (judged records); a judged record whose ETM could not be
// computed counts as no match and is counted in Missing.
type ETMGroup struct {
	Name    string  `json:"name"`
	Judged  int     `json:"judged"`
	ETM     int     `json:"etm"`
	Missing int     `json:"etm_missing"`
	Rate    float64 `json:"etm_rate"`
	EXOnly  int     `json:"ex_correct_etm_no"`
	ETMOnly int     `json:"etm_match_ex_no"`
}

// SummarizeETM computes the ETM section from the systems' records. It returns nil when
// no record has ETM computed.
func SummarizeETM(systems []metrics.SystemRecords) *ETMSummary {
	s := &ETMSummary{}
	any := false
	for i := range systems {
		recs := systems[i].Records
		for j := range recs {
			if recs[j].ETM != nil {
				any = true
				break
			}
		}
		s.Systems = append(s.Systems, summarizeETMSystem(&systems[i]))
	}
	if !any {
		return nil
	}
	return s
}

func summarizeETMSystem(sys *metrics.SystemRecords) ETMSystemSummary {
	name, recs := sys.Name, sys.Records
	out := ETMSystemSummary{System: name, Overall: etmTally("all", recs), ByDifficulty: metrics.PerDifficulty(sys, etmTally), EXOnly: []int{}, ETMOnly: []int{}}
	for i := range recs {
		r := &recs[i]
		if !r.Judged() {
			continue
		}
		etm := r.ETM != nil && *r.ETM == 1
		ex := r.Verdict == record.Correct
		switch {
		case ex && !etm:
			out.EXOnly = append(out.EXOnly, r.Index)
		case etm && !ex:
			out.ETMOnly = append(out.ETMOnly, r.Index)
		}
		if r.ETMOfficial != nil && r.ETM != nil {
			out.ModeDiffs = append(out.ModeDiffs, ETMModeDiff{Index: r.Index, ETM: *r.ETM, Official: *r.ETMOfficial, Rule: r.ETMModeRule})
		}
		for _, id := range r.ETMRules {
			if out.RuleCounts == nil {
				out.RuleCounts = map[string]int{}
			}
			out.RuleCounts[id]++
		}
	}
	slices.SortFunc(out.ModeDiffs, func(a, b ETMModeDiff) int { return a.Index - b.Index })
	slices.Sort(out.EXOnly)
	slices.Sort(out.ETMOnly)
	return out
}

func etmTally(name string, recs []record.Record) ETMGroup {
	g := ETMGroup{Name: name}
	for i := range recs {
		r := &recs[i]
		if !r.Judged() {
			continue
		}
		g.Judged++
		etm := r.ETM != nil && *r.ETM == 1
		switch {
		case r.ETM == nil:
			g.Missing++
		case etm:
			g.ETM++
		}
		ex := r.Verdict == record.Correct
		if ex && !etm {
			g.EXOnly++
		}
		if etm && !ex {
			g.ETMOnly++
		}
	}
	if g.Judged > 0 {
		g.Rate = float64(g.ETM) / float64(g.Judged)
	}
	return g
}
