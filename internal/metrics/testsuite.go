package metrics

import (
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestSuiteSummary is summary.json's test_suite section (eval --test-suite): per
// system, how many EX-correct predictions were searched and how many got a
// counterexample database, with the questions where EX and TS-EX differ. The ts_ex
// rate itself is the registry's metric (declared.go); this section only lists.
type TestSuiteSummary struct {
	Settings string            `json:"settings"` // seed, budget and domain
	Systems  []TestSuiteSystem `json:"systems"`
	// SharedGold lists the questions where at least sharedMin systems were searched and
	// more than half of them got a realistic counterexample (dataset order).
	SharedGold []SharedGold `json:"shared_gold,omitempty"`
	// ProofBound is the proofs' rows per table (0: no proof ran); ProofNote says once why
	// every proof is unknown when no solver was found.
	ProofBound int    `json:"proof_bound,omitempty"`
	ProofNote  string `json:"proof_note,omitempty"`
}

// ProofPromise is what ts_proof = proven promises, for every output to say.
const ProofPromise = "proven = the prediction returns the gold's result on every database with at most the bound's rows per table that satisfies the assumed constraints (keys, NOT NULL, inclusions the data shows), checked by the z3 solver and on 100 random such databases; not a proof for larger databases"

// sharedMin is how many systems a question needs searched before "most of them share a
// counterexample" says something about its gold.
const sharedMin = 3

// TestSuiteSystem is one system's counts and differing questions.
type TestSuiteSystem struct {
	System string `json:"system"`
	// Searched counts the EX-correct records searched (variants were built), Unsearched
	// those no variant could be built for (ts_note says why); Found those with a
	// counterexample. DBs is the variants tried over all searched records.
	Searched   int `json:"searched"`
	Unsearched int `json:"unsearched"`
	Found      int `json:"found"`
	DBs        int `json:"dbs"`
	// ETMNo counts the EX-correct records ETM did not match; ETMNoFound those of them
	// with a counterexample.
	ETMNo      int `json:"etm_no"`
	ETMNoFound int `json:"etm_no_found"`
	// Differ lists the questions EX-correct but not TS-EX-correct, in dataset order.
	Differ []TestSuiteCase `json:"differ"`
	// Robust counts the robustness findings: EX-correct records whose counterexample
	// departs from the data's profile (kind robustness, listed in RobustCases): correct on
	// this data, breaks if the data did what the assumptions say. ts_ex stays 1 for them.
	Robust      int             `json:"robust"`
	RobustCases []TestSuiteCase `json:"robust_cases"`
	// GoldSuspect counts the records whose realistic counterexample rests on a tie under
	// the gold's LIMIT (the gold is suspect, ts_ex stays 1), listed in GoldSuspectCases.
	GoldSuspect      int             `json:"gold_suspect"`
	GoldSuspectCases []TestSuiteCase `json:"gold_suspect_cases"`
	// Proven, Refuted and ProofUnknown count the EX-correct records by ts_proof (eval
	// --proof; all zero without it); SolverFound counts the counterexamples the solver
	// found that the sampler had not.
	Proven       int `json:"proven,omitempty"`
	Refuted      int `json:"refuted,omitempty"`
	ProofUnknown int `json:"proof_unknown,omitempty"`
	SolverFound  int `json:"solver_found,omitempty"`
}

// TestSuiteCase is one question with a counterexample.
type TestSuiteCase struct {
	Index          int    `json:"index"`
	QuestionID     string `json:"question_id"`
	DBID           string `json:"db_id"`
	Counterexample string `json:"counterexample"` // the script's path in the run directory
	Rows           int    `json:"rows"`
	ETM            *int   `json:"etm,omitempty"`
	// Assumes and GoldSuspect are the counterexample's (record.Counterexample).
	Assumes     []string `json:"assumes,omitempty"`
	GoldSuspect string   `json:"gold_suspect,omitempty"`
	// GoldAudit is the check of the gold audit's finding a gold-suspect case matches on
	// the original data (record.AuditRef): limit_tie, or none.
	GoldAudit string `json:"gold_audit,omitempty"`
}

// SharedGold is a question where most systems' EX-correct predictions got a realistic
// counterexample against the same gold: more likely a problem of the gold than of
// every system. It is listed for a reader to check; ts_ex still counts the records.
type SharedGold struct {
	Index      int    `json:"index"`
	QuestionID string `json:"question_id"`
	DBID       string `json:"db_id"`
	Found      int    `json:"found"`    // systems with a realistic counterexample
	Searched   int    `json:"searched"` // systems whose EX-correct prediction was searched
}

// SummarizeTestSuite builds the section, or nil when no record carries ts_ex.
func SummarizeTestSuite(settings string, systems []SystemRecords) *TestSuiteSummary {
	sum := &TestSuiteSummary{Settings: settings}
	any := false
	for _, s := range systems {
		ts := TestSuiteSystem{System: s.Name, Differ: []TestSuiteCase{}, RobustCases: []TestSuiteCase{}, GoldSuspectCases: []TestSuiteCase{}}
		for i := range s.Records {
			r := &s.Records[i]
			if r.TSEX == nil {
				continue
			}
			any = true
			if r.Verdict != record.Correct {
				continue
			}
			if r.TSDBs == 0 && r.Counterexample == nil {
				ts.Unsearched++
			} else {
				ts.Searched++
			}
			ts.DBs += r.TSDBs
			countProof(sum, &ts, r)
			etmNo := r.ETM != nil && *r.ETM == 0
			if etmNo {
				ts.ETMNo++
			}
			c := r.Counterexample
			if c == nil {
				continue
			}
			cs := TestSuiteCase{Index: r.Index, QuestionID: r.QuestionID, DBID: r.DBID,
				Counterexample: c.Path, Rows: c.Rows, ETM: r.ETM, Assumes: c.Assumes, GoldSuspect: c.GoldSuspect}
			if c.GoldSuspectAudit != nil {
				cs.GoldAudit = c.GoldSuspectAudit.Check
			}
			switch {
			case c.Kind == "robustness":
				ts.Robust++
				ts.RobustCases = append(ts.RobustCases, cs)
			case c.GoldSuspect != "":
				ts.GoldSuspect++
				ts.GoldSuspectCases = append(ts.GoldSuspectCases, cs)
			default: // realistic (or from a run before kinds existed): it refutes
				ts.Found++
				if etmNo {
					ts.ETMNoFound++
				}
				ts.Differ = append(ts.Differ, cs)
			}
		}
		sum.Systems = append(sum.Systems, ts)
	}
	if !any {
		return nil
	}
	sum.SharedGold = sharedGold(systems)
	return sum
}

// sharedGold finds the questions most searched systems got a realistic counterexample on.
func sharedGold(systems []SystemRecords) []SharedGold {
	type tally struct {
		sg    SharedGold
		order int
	}
	by := map[int]*tally{}
	for _, s := range systems {
		for i := range s.Records {
			r := &s.Records[i]
			if r.TSEX == nil || r.Verdict != record.Correct || r.TSDBs == 0 && r.Counterexample == nil {
				continue
			}
			t := by[r.Index]
			if t == nil {
				t = &tally{sg: SharedGold{Index: r.Index, QuestionID: r.QuestionID, DBID: r.DBID}, order: len(by)}
				by[r.Index] = t
			}
			t.sg.Searched++
			if *r.TSEX == 0 {
				t.sg.Found++
			}
		}
	}
	var out []SharedGold
	for _, t := range by {
		if t.sg.Searched >= sharedMin && 2*t.sg.Found > t.sg.Searched {
			out = append(out, t.sg)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

// countProof adds r's ts_proof to the system's counts.
func countProof(sum *TestSuiteSummary, ts *TestSuiteSystem, r *record.Record) {
	switch r.TSProof {
	case "proven":
		ts.Proven++
	case "refuted":
		ts.Refuted++
	case "unknown":
		ts.ProofUnknown++
	default:
		return
	}
	if p := r.Proof; p != nil {
		if p.Bound > sum.ProofBound {
			sum.ProofBound = p.Bound
		}
		if p.BySolver && r.TSEX != nil && *r.TSEX == 0 {
			ts.SolverFound++
		}
		if strings.HasPrefix(p.Reason, "no SMT solver") {
			sum.ProofNote = "no SMT solver (z3) was found: every ts_proof is unknown; install z3 to prove"
		}
	}
}
