package metrics

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// PartialSummary is one system's Spider partial-match breakdown (summary.json's
// "esm_partial" section), overall and per difficulty, averaged as Spider's
// evaluation.py averages it for --etype match.
type PartialSummary struct {
	System       string         `json:"system"`
	Overall      PartialGroup   `json:"overall"`
	ByDifficulty []PartialGroup `json:"by_difficulty"`
}

// PartialGroup is the breakdown over one slice of questions: Count questions had an ESM
// comparison (judged, ESM computed); Exact of them matched exactly (evaluation.py's
// "exact match" row, ExactRate = Exact / Count); Components are in
// record.PartialComponents order.
type PartialGroup struct {
	Name       string             `json:"name"`
	Count      int                `json:"count"`
	Exact      int                `json:"exact"`
	ExactRate  float64            `json:"exact_rate"`
	Components []PartialComponent `json:"components"`
}

// PartialComponent is one component's accuracy, recall and F1 over a group, the way
// evaluation.py computes them:
//   - Acc is the mean score over the questions whose prediction has the component
//     (pred_total > 0), AccN of them; 0 when there are none.
//   - Rec is the mean score over the questions whose gold has it (label_total > 0), RecN
//     of them; 0 when there are none.
//   - F1 is 2·Acc·Rec / (Acc + Rec), and 1 when Acc and Rec are both 0: the reference's
//     quirk (a component no question has, or that no question got right, reads as F1
//     1), reproduced.
type PartialComponent struct {
	Name string  `json:"name"`
	Acc  float64 `json:"acc"`
	Rec  float64 `json:"rec"`
	F1   float64 `json:"f1"`
	AccN int     `json:"acc_n"`
	RecN int     `json:"rec_n"`
}

// SummarizePartial computes one system's breakdown from its records' esm_partial. It
// returns ok = false when no judged record has one (ESM was not computed).
func SummarizePartial(sys SystemRecords) (PartialSummary, bool) {
	all, by, ok := groupsIf(&sys, partialGroup, func(g PartialGroup) bool { return g.Count > 0 })
	return PartialSummary{System: sys.Name, Overall: all, ByDifficulty: by}, ok
}

func partialGroup(name string, recs []record.Record) PartialGroup {
	type sums struct{ acc, rec, accN, recN int }
	tot := make([]sums, len(record.PartialComponents))
	g := PartialGroup{Name: name}
	for i := range recs {
		r := &recs[i]
		if !r.Judged() || r.ESM == nil || r.ESMPartial == nil {
			continue
		}
		g.Count++
		g.Exact += *r.ESM
		for c, comp := range record.PartialComponents {
			ps := r.ESMPartial[comp]
			if ps.PredTotal > 0 {
				tot[c].acc += ps.Score
				tot[c].accN++
			}
			if ps.LabelTotal > 0 {
				tot[c].rec += ps.Score
				tot[c].recN++
			}
		}
	}
	if g.Count > 0 {
		g.ExactRate = float64(g.Exact) / float64(g.Count)
	}
	for c, comp := range record.PartialComponents {
		pc := PartialComponent{Name: comp, AccN: tot[c].accN, RecN: tot[c].recN}
		if pc.AccN > 0 {
			pc.Acc = float64(tot[c].acc) / float64(pc.AccN)
		}
		if pc.RecN > 0 {
			pc.Rec = float64(tot[c].rec) / float64(pc.RecN)
		}
		if pc.Acc == 0 && pc.Rec == 0 {
			pc.F1 = 1 // evaluation.py's quirk, see PartialComponent
		} else {
			pc.F1 = 2 * pc.Acc * pc.Rec / (pc.Acc + pc.Rec)
		}
		g.Components = append(g.Components, pc)
	}
	return g
}
