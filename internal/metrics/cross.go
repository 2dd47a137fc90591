package metrics

import (
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Cross-system analysis (NL2SQLBench paper, Appendix A.8 and Section 4): several systems
// judged on the same dataset, records matched by question id.
//
//   - correct rate conditioned on full schema recall (Table 23): "full" means the selection
//     holds every gold table and column (FullRecall); reported for the first candidate
//     (candidate generation) and for the judged SQL (after revision, when there is one);
//   - mean schema recall on correct vs wrong outcomes (Table 24); wrong = incorrect or error;
//   - how many systems get each question right, by difficulty (Figure 7);
//   - pairwise overlap of the wrong sets, with Jaccard = |A ∩ B| / |A ∪ B| (Figure 6);
//   - the Pareto frontier of (correct rate, mean tokens) and (correct rate, mean cost), and
//     the best correct rate reachable within each budget.
//
// Only judged records count. Every ratio with an empty denominator is n/a (Ratio).

// SystemRecords is one system's judged records.
type SystemRecords struct {
	Name    string
	Records []record.Record
	// Difficulties is Records split by difficulty (ByDifficulty) once for every summary
	// that reads them (SplitByDifficulty); nil: each splits them itself. Splitting copies
	// every record, and a run's summaries split each system's records seven times.
	Difficulties []DifficultyGroup
}

// SplitByDifficulty is s with its records split by difficulty once.
func SplitByDifficulty(s SystemRecords) SystemRecords {
	s.Difficulties = ByDifficulty(s.Records)
	return s
}

// ByDifficulty is s.Records split by difficulty: s.Difficulties, or split now.
func (s *SystemRecords) ByDifficulty() []DifficultyGroup {
	if s.Difficulties != nil || len(s.Records) == 0 {
		return s.Difficulties
	}
	return ByDifficulty(s.Records)
}

// RecallConditioned is Table 23 for one system.
type RecallConditioned struct {
	System string `json:"system"`
	// Full and Partial count questions with full recall and with recall < 1.
	Full    int `json:"full_recall_questions"`
	Partial int `json:"partial_recall_questions"`
	// Correct rates of the first candidate and of the judged SQL in each stratum.
	CGFull    Ratio `json:"cg_correct_rate_recall_1"`
	CGPartial Ratio `json:"cg_correct_rate_recall_lt_1"`
	FinalFull Ratio `json:"final_correct_rate_recall_1"`
	FinalPart Ratio `json:"final_correct_rate_recall_lt_1"`
}

// RecallByOutcome is Table 24 for one system: mean column and table recall by outcome
// of the judged SQL.
type RecallByOutcome struct {
	System            string `json:"system"`
	ColumnRecallRight Ratio  `json:"column_recall_correct"`
	ColumnRecallWrong Ratio  `json:"column_recall_wrong"`
	TableRecallRight  Ratio  `json:"table_recall_correct"`
	TableRecallWrong  Ratio  `json:"table_recall_wrong"`
}

// Overlap is the intersection of two systems' wrong sets.
type Overlap struct {
	A            string `json:"a"`
	B            string `json:"b"`
	WrongA       int    `json:"wrong_a"`
	WrongB       int    `json:"wrong_b"`
	Intersection int    `json:"intersection"`
	Union        int    `json:"union"`
	Jaccard      Ratio  `json:"jaccard"`
}

// AgreementRow counts, for one difficulty, the questions that exactly n systems got
// right: Correct[n] for n = 0..len(systems).
type AgreementRow struct {
	Difficulty string `json:"difficulty"`
	Questions  int    `json:"questions"`
	Correct    []int  `json:"solved_by"`
}

// FrontierPoint is one system on a Pareto frontier.
type FrontierPoint struct {
	System      string  `json:"system"`
	CorrectRate float64 `json:"correct_rate"`
	Cost        float64 `json:"cost"` // mean tokens or mean dollars per question
}

// BudgetPoint is the best correct rate reachable within a budget (one per system's cost).
type BudgetPoint struct {
	Budget      float64 `json:"budget"`
	System      string  `json:"best_system"`
	CorrectRate float64 `json:"correct_rate"`
}

// CrossSystem is the whole cross-system analysis.
type CrossSystem struct {
	Systems []string `json:"systems"`
	// Questions judged for every system (the matched set the analysis runs on).
	Questions       int                 `json:"questions"`
	RecallCondition []RecallConditioned `json:"recall_conditioned,omitempty"`
	RecallOutcome   []RecallByOutcome   `json:"recall_by_outcome,omitempty"`
	Agreement       []AgreementRow      `json:"agreement"`
	Overlaps        []Overlap           `json:"wrong_overlap"`
	TokenFrontier   []FrontierPoint     `json:"token_frontier,omitempty"`
	TokenBudget     []BudgetPoint       `json:"token_budget,omitempty"`
	CostFrontier    []FrontierPoint     `json:"cost_frontier,omitempty"`
	CostBudget      []BudgetPoint       `json:"cost_budget,omitempty"`
}

// CrossSystemOf analyses systems judged on one dataset. eff gives each system's
// usage (nil entries, a nil map, or unknown token counts leave a system off the frontiers).
func CrossSystemOf(systems []SystemRecords, eff map[string]*TokenCost) *CrossSystem {
	cs := &CrossSystem{}
	if len(systems) == 0 {
		return nil
	}
	byID := make([]map[string]*record.Record, len(systems))
	for i, s := range systems {
		cs.Systems = append(cs.Systems, s.Name)
		byID[i] = map[string]*record.Record{}
		for j := range s.Records {
			r := &s.Records[j]
			if r.Judged() {
				byID[i][r.QuestionID] = r
			}
		}
	}
	// The matched questions: judged for every system, in the first system's order.
	var ids []string
	for j := range systems[0].Records {
		id := systems[0].Records[j].QuestionID
		all := true
		for i := range systems {
			if byID[i][id] == nil {
				all = false
				break
			}
		}
		if all {
			ids = append(ids, id)
		}
	}
	cs.Questions = len(ids)

	for i, s := range systems {
		if rc, ro, ok := recallAnalysis(s.Name, ids, byID[i]); ok {
			cs.RecallCondition = append(cs.RecallCondition, rc)
			cs.RecallOutcome = append(cs.RecallOutcome, ro)
		}
	}
	cs.Agreement = agreement(ids, byID)
	cs.Overlaps = overlaps(cs.Systems, ids, byID)

	var tokPts, costPts []FrontierPoint
	for i, s := range systems {
		e := eff[s.Name]
		if e == nil || e.Tokens == nil {
			continue
		}
		cr := correctRate(ids, byID[i])
		tokPts = append(tokPts, FrontierPoint{System: s.Name, CorrectRate: cr, Cost: e.Tokens.AllQuestions})
		if e.Cost != nil {
			costPts = append(costPts, FrontierPoint{System: s.Name, CorrectRate: cr, Cost: e.Cost.AllQuestions})
		}
	}
	cs.TokenFrontier, cs.TokenBudget = ParetoFrontier(tokPts), BudgetCurve(tokPts)
	cs.CostFrontier, cs.CostBudget = ParetoFrontier(costPts), BudgetCurve(costPts)
	return cs
}

func correctRate(ids []string, recs map[string]*record.Record) float64 {
	if len(ids) == 0 {
		return 0
	}
	c := 0
	for _, id := range ids {
		if recs[id].Verdict == record.Correct {
			c++
		}
	}
	return float64(c) / float64(len(ids))
}

func recallAnalysis(name string, ids []string, recs map[string]*record.Record) (RecallConditioned, RecallByOutcome, bool) {
	rc := RecallConditioned{System: name}
	ro := RecallByOutcome{System: name}
	any := false
	for _, id := range ids {
		r := recs[id]
		full, ok := FullRecall(r)
		if !ok {
			continue
		}
		any = true
		cg := candidateVerdicts(r)[0].Verdict == record.Correct
		final := r.Verdict == record.Correct
		if full {
			rc.Full++
			rc.CGFull.Num += float64(b2i(cg))
			rc.FinalFull.Num += float64(b2i(final))
		} else {
			rc.Partial++
			rc.CGPartial.Num += float64(b2i(cg))
			rc.FinalPart.Num += float64(b2i(final))
		}
		col, tab := &ro.ColumnRecallWrong, &ro.TableRecallWrong
		if final {
			col, tab = &ro.ColumnRecallRight, &ro.TableRecallRight
		}
		if r.SchemaColumnR != nil {
			col.Num += *r.SchemaColumnR
			col.Den++
		}
		if r.SchemaTableR != nil {
			tab.Num += *r.SchemaTableR
			tab.Den++
		}
	}
	rc.CGFull.Den, rc.FinalFull.Den = float64(rc.Full), float64(rc.Full)
	rc.CGPartial.Den, rc.FinalPart.Den = float64(rc.Partial), float64(rc.Partial)
	return rc, ro, any
}

func agreement(ids []string, byID []map[string]*record.Record) []AgreementRow {
	rows := map[string]*AgreementRow{}
	var diffs []string
	add := func(d string, n int) {
		row := rows[d]
		if row == nil {
			row = &AgreementRow{Difficulty: d, Correct: make([]int, len(byID)+1)}
			rows[d] = row
			if d != "all" {
				diffs = append(diffs, d)
			}
		}
		row.Questions++
		row.Correct[n]++
	}
	for _, id := range ids {
		n := 0
		for _, m := range byID {
			if m[id].Verdict == record.Correct {
				n++
			}
		}
		add(byID[0][id].Difficulty, n)
		add("all", n)
	}
	var out []AgreementRow
	for _, d := range DifficultyOrder(diffs) {
		out = append(out, *rows[d])
	}
	if rows["all"] != nil {
		out = append(out, *rows["all"])
	}
	return out
}

func overlaps(names, ids []string, byID []map[string]*record.Record) []Overlap {
	wrong := make([]map[string]bool, len(byID))
	for i, m := range byID {
		wrong[i] = map[string]bool{}
		for _, id := range ids {
			if m[id].Verdict != record.Correct {
				wrong[i][id] = true
			}
		}
	}
	var out []Overlap
	for a := 0; a < len(byID); a++ {
		for b := a + 1; b < len(byID); b++ {
			o := Overlap{A: names[a], B: names[b], WrongA: len(wrong[a]), WrongB: len(wrong[b])}
			for id := range wrong[a] {
				if wrong[b][id] {
					o.Intersection++
				}
			}
			o.Union = o.WrongA + o.WrongB - o.Intersection
			o.Jaccard = Ratio{Num: float64(o.Intersection), Den: float64(o.Union)}
			out = append(out, o)
		}
	}
	return out
}

// ParetoFrontier returns the points no other point dominates (another has a correct
// rate at least as high at a cost at most as low, and is strictly better in one), sorted
// by cost.
func ParetoFrontier(pts []FrontierPoint) []FrontierPoint {
	var out []FrontierPoint
	for i, p := range pts {
		dominated := false
		for j, q := range pts {
			if i != j && q.CorrectRate >= p.CorrectRate && q.Cost <= p.Cost &&
				(q.CorrectRate > p.CorrectRate || q.Cost < p.Cost) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Cost != out[j].Cost {
			return out[i].Cost < out[j].Cost
		}
		return out[i].System < out[j].System
	})
	return out
}

// BestWithin returns the system with the highest correct rate whose cost is within
// budget (ok false when none is).
func BestWithin(pts []FrontierPoint, budget float64) (FrontierPoint, bool) {
	var best FrontierPoint
	ok := false
	for _, p := range pts {
		if p.Cost <= budget && (!ok || p.CorrectRate > best.CorrectRate) {
			best, ok = p, true
		}
	}
	return best, ok
}

// BudgetCurve is BestWithin at each system's own cost, cheapest first.
func BudgetCurve(pts []FrontierPoint) []BudgetPoint {
	costs := make([]float64, 0, len(pts))
	seen := map[float64]bool{}
	for _, p := range pts {
		if !seen[p.Cost] {
			seen[p.Cost] = true
			costs = append(costs, p.Cost)
		}
	}
	sort.Float64s(costs)
	var out []BudgetPoint
	for _, c := range costs {
		if b, ok := BestWithin(pts, c); ok {
			out = append(out, BudgetPoint{Budget: c, System: b.System, CorrectRate: b.CorrectRate})
		}
	}
	return out
}
