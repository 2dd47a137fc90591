package metrics

import (
	"fmt"
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Spider 2.0's two scores, as its evaluate.py prints them: "Final" over the tasks
// submitted (and judged), "Real" over every task of the suite (547), unsubmitted ones
// counting 0. Per-difficulty values are per backend: a Spider 2.0 record's difficulty is
// its backend (sqlite, bigquery, snowflake).

func spider2Final() Metric {
	return Metric{ID: "ex_spider2", Label: "Spider2 Final", Group: "headline", Fields: []string{"ex_spider2", "spider2_mode"}, Unit: Percent,
		HigherIsBetter: true, Over: AllJudged, MinCoverage: DefaultMinCoverage, Verdict: true,
		Applies: "Spider 2.0 (dataset spider2): result tables matched under --spider2-mode; over the tasks submitted and judged (evaluate.py's Final score)",
		Value:   spider2Value,
		Display: Display{Legend: "Spider2 Final/Real = Spider 2.0's result-table match (evaluate.py) over the tasks judged / over every task of the suite",
			Compare: true}}
}

func spider2Real() Metric {
	return Metric{ID: "ex_spider2_real", Label: "Spider2 Real", Group: "headline", Fields: []string{"ex_spider2", "spider2_mode"}, Unit: Percent,
		HigherIsBetter: true, Over: AllRecords,
		Applies: "Spider 2.0 (dataset spider2): correct over every task of the suite, submitted or not (evaluate.py's Real score)",
		Value: func(_ string, r *record.Record) (float64, bool) {
			if r.Spider2Mode == "" {
				return 0, false
			}
			v, _ := spider2Value("", r)
			return v, true
		},
		// Only a Spider 2.0 run carries it.
		Usable: func(recs []record.Record) (bool, string) {
			for i := range recs {
				if recs[i].Spider2Mode != "" {
					return true, ""
				}
			}
			return false, "not a Spider 2.0 run"
		},
		Display: Display{LegendWith: "ex_spider2", Compare: true}}
}

func spider2Value(_ string, r *record.Record) (float64, bool) {
	if r.ExSpider2 == nil {
		return 0, false
	}
	return float64(*r.ExSpider2), true
}

// Spider2Summary is summary.json's "spider2" section for one system: the mode that
// decided, each mode's correct count over the judged tasks, the skipped tasks by reason,
// and every task where the two modes disagree, with why.
type Spider2Summary struct {
	System        string                `json:"system"`
	Mode          string                `json:"mode"`
	Tasks         int                   `json:"tasks"`
	Judged        int                   `json:"judged"`
	Official      int                   `json:"official_correct"`
	Strict        int                   `json:"strict_correct"`
	Skipped       map[string]int        `json:"skipped,omitempty"`
	Disagreements []Spider2Disagreement `json:"disagreements"`
}

// Spider2Disagreement is one task judged differently by the two modes.
type Spider2Disagreement struct {
	QuestionID string `json:"question_id"`
	Backend    string `json:"backend"`
	Official   int    `json:"official"`
	Strict     int    `json:"strict"`
	Why        string `json:"why"`
}

// SummarizeSpider2 builds a system's spider2 section; ok is false for records of other
// datasets.
func SummarizeSpider2(system string, recs []record.Record) (Spider2Summary, bool) {
	s := Spider2Summary{System: system, Disagreements: []Spider2Disagreement{}}
	for i := range recs {
		r := &recs[i]
		if r.Spider2Mode == "" {
			continue
		}
		s.Mode = r.Spider2Mode
		s.Tasks++
		if r.Verdict == record.Skipped {
			if s.Skipped == nil {
				s.Skipped = map[string]int{}
			}
			s.Skipped[r.ErrorMessage]++
			continue
		}
		if !r.Judged() {
			continue
		}
		s.Judged++
		if r.Spider2Official == nil || r.Spider2Strict == nil {
			continue
		}
		s.Official += *r.Spider2Official
		s.Strict += *r.Spider2Strict
		if *r.Spider2Official != *r.Spider2Strict {
			s.Disagreements = append(s.Disagreements, Spider2Disagreement{QuestionID: r.QuestionID, Backend: r.Spider2Backend,
				Official: *r.Spider2Official, Strict: *r.Spider2Strict, Why: r.Spider2Why})
		}
	}
	slices.SortFunc(s.Disagreements, func(a, b Spider2Disagreement) int {
		if a.QuestionID < b.QuestionID {
			return -1
		}
		if a.QuestionID > b.QuestionID {
			return 1
		}
		return 0
	})
	return s, s.Tasks > 0
}

// String is a one-line account of the section, for warnings and the terminal.
func (s Spider2Summary) String() string {
	return fmt.Sprintf("%s: %d tasks, %d judged; official %d correct, strict %d; %d disagreement(s)", s.System, s.Tasks, s.Judged, s.Official, s.Strict, len(s.Disagreements))
}
