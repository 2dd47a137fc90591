package metrics

import (
	"math"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ExecEfficiencyGroup is the efficiency and partial-credit scores of one slice of records,
// each on BIRD's 0-100 scale, over judged records (correct + incorrect + error).
type ExecEfficiencyGroup struct {
	Name   string  `json:"name"`
	Judged int     `json:"judged"`
	SoftF1 float64 `json:"soft_f1"` // mean Soft-F1 x 100
	// Timed counts the records that carry timing fields; VES and R-VES are set only
	// when every judged record does (a partly timed run gives no score).
	Timed int      `json:"timed"`
	VES   *float64 `json:"ves,omitempty"`  // mean of sqrt(time ratio) x 100 (0 for incorrect)
	RVES  *float64 `json:"rves,omitempty"` // mean of sqrt(R-VES reward) x 100
}

// ExecEfficiencySummary is one system's efficiency scores overall and per difficulty.
type ExecEfficiencySummary struct {
	System       string                `json:"system"`
	Timing       string                `json:"timing,omitempty"` // official or robust; empty when not timed
	Overall      ExecEfficiencyGroup   `json:"overall"`
	ByDifficulty []ExecEfficiencyGroup `json:"by_difficulty"`
}

// SummarizeExecEfficiency scores one system's records overall and per difficulty.
func SummarizeExecEfficiency(sys SystemRecords) ExecEfficiencySummary {
	s := ExecEfficiencySummary{System: sys.Name, Overall: ExecEfficiencyOf("all", sys.Records)}
	for i := range sys.Records {
		if t := sys.Records[i].Timing; t != "" {
			s.Timing = t
			break
		}
	}
	for _, g := range sys.ByDifficulty() {
		s.ByDifficulty = append(s.ByDifficulty, ExecEfficiencyOf(g.Name, g.Records))
	}
	return s
}

// ExecEfficiencyOf scores one group of records. A judged record without soft_f1 (a run
// written before Soft-F1 existed) counts 0; skipped and gold_error records are left out.
func ExecEfficiencyOf(name string, recs []record.Record) ExecEfficiencyGroup {
	g := ExecEfficiencyGroup{Name: name}
	var f1, ves, rves float64
	for i := range recs {
		r := &recs[i]
		if !r.Judged() {
			continue
		}
		g.Judged++
		if r.SoftF1 != nil {
			f1 += *r.SoftF1
		}
		if r.VES != nil && r.RVESReward != nil {
			g.Timed++
			ves += *r.VES
			rves += math.Sqrt(*r.RVESReward)
		}
	}
	if g.Judged == 0 {
		return g
	}
	d := float64(g.Judged)
	g.SoftF1 = 100 * f1 / d
	if g.Timed == g.Judged {
		v, rv := 100*ves/d, 100*rves/d
		g.VES, g.RVES = &v, &rv
	}
	return g
}
