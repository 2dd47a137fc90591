package metrics

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// TestSuiteSummary is summary.json's test_suite section (eval --test-suite): per
// system, how many EX-correct predictions were searched and how many got a
// counterexample database, with the questions where EX and TS-EX differ. The ts_ex
// rate itself is the registry's metric (declared.go); this section only lists.
type TestSuiteSummary struct {
	Settings string            `json:"settings"` // seed and budget
	Systems  []TestSuiteSystem `json:"systems"`
}

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
}

// TestSuiteCase is one question with a counterexample.
type TestSuiteCase struct {
	Index          int    `json:"index"`
	QuestionID     string `json:"question_id"`
	DBID           string `json:"db_id"`
	Counterexample string `json:"counterexample"` // the script's path in the run directory
	Rows           int    `json:"rows"`
	ETM            *int   `json:"etm,omitempty"`
}

// SummarizeTestSuite builds the section, or nil when no record carries ts_ex.
func SummarizeTestSuite(settings string, systems []SystemRecords) *TestSuiteSummary {
	sum := &TestSuiteSummary{Settings: settings}
	any := false
	for _, s := range systems {
		ts := TestSuiteSystem{System: s.Name, Differ: []TestSuiteCase{}}
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
			etmNo := r.ETM != nil && *r.ETM == 0
			if etmNo {
				ts.ETMNo++
			}
			if c := r.Counterexample; c != nil {
				ts.Found++
				if etmNo {
					ts.ETMNoFound++
				}
				ts.Differ = append(ts.Differ, TestSuiteCase{Index: r.Index, QuestionID: r.QuestionID, DBID: r.DBID,
					Counterexample: c.Path, Rows: c.Rows, ETM: r.ETM})
			}
		}
		sum.Systems = append(sum.Systems, ts)
	}
	if !any {
		return nil
	}
	return sum
}
