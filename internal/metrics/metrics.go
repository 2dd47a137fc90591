package metrics

import (
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Counts are the verdict tallies of a group of records.
type Counts struct {
	Total      int                          `json:"total"`  // every record, including skipped and gold_error
	Judged     int                          `json:"judged"` // correct + incorrect + error: the denominator of rates
	Correct    int                          `json:"correct"`
	Incorrect  int                          `json:"incorrect"`
	Error      int                          `json:"error"`
	Skipped    int                          `json:"skipped"`
	GoldError  int                          `json:"gold_error"`
	ExBird     int                          `json:"ex_bird"`
	ExSpider   int                          `json:"ex_spider"`
	Categories map[record.ErrorCategory]int `json:"error_categories"`
}

// Rates are Counts divided by Judged (0 when nothing was judged). CR (the correct rate)
// is execution accuracy under the run's primary semantics.
type Rates struct {
	Correct    float64                          `json:"correct"`
	Incorrect  float64                          `json:"incorrect"`
	Error      float64                          `json:"error"`
	ExBird     float64                          `json:"ex_bird"`
	ExSpider   float64                          `json:"ex_spider"`
	Categories map[record.ErrorCategory]float64 `json:"error_categories"`
}

// Group is the counts and rates of one slice of records (all, or one difficulty).
type Group struct {
	Name   string `json:"name"`
	Counts Counts `json:"counts"`
	Rates  Rates  `json:"rates"`
}

// Summary is one system's scores overall and per difficulty.
type Summary struct {
	System string `json:"system"`
	// Dir is the system's directory in the run directory (record.SystemDir of System
	// when eval wrote it); absent in summaries written before it was recorded.
	Dir          string  `json:"dir,omitempty"`
	Overall      Group   `json:"overall"`
	ByDifficulty []Group `json:"by_difficulty"`
}

// Tally counts recs into one group.
func Tally(name string, recs []record.Record) Group {
	c := Counts{Categories: map[record.ErrorCategory]int{}}
	for i := range recs {
		r := &recs[i]
		c.Total++
		switch r.Verdict {
		case record.Correct:
			c.Correct++
		case record.Incorrect:
			c.Incorrect++
		case record.Error:
			c.Error++
			c.Categories[r.ErrorCategory]++
		case record.Skipped:
			c.Skipped++
		case record.GoldError:
			c.GoldError++
		}
		if r.Judged() {
			c.ExBird += r.ExBird
			c.ExSpider += r.ExSpider
		}
	}
	c.Judged = c.Correct + c.Incorrect + c.Error
	rt := Rates{Categories: map[record.ErrorCategory]float64{}}
	if c.Judged > 0 {
		d := float64(c.Judged)
		rt.Correct = float64(c.Correct) / d
		rt.Incorrect = float64(c.Incorrect) / d
		rt.Error = float64(c.Error) / d
		rt.ExBird = float64(c.ExBird) / d
		rt.ExSpider = float64(c.ExSpider) / d
		for k, v := range c.Categories {
			rt.Categories[k] = float64(v) / d
		}
	}
	return Group{Name: name, Counts: c, Rates: rt}
}

// Summarize scores one system overall and per difficulty, difficulties in their
// benchmark's natural order (see DifficultyOrder).
func Summarize(sys SystemRecords) Summary {
	return Summary{System: sys.Name, Overall: Tally("all", sys.Records), ByDifficulty: PerDifficulty(&sys, Tally)}
}

// PerDifficulty is tally of each difficulty's records, difficulties in the order of
// ByDifficulty: the by-difficulty half of every per-system summary.
func PerDifficulty[G any](sys *SystemRecords, tally func(name string, recs []record.Record) G) []G {
	var out []G
	for _, g := range sys.ByDifficulty() {
		out = append(out, tally(g.Name, g.Records))
	}
	return out
}

// groupsIf is tally overall (named "all") and per difficulty, for a summary computed only
// where the run computed it: ok is false, and byDifficulty nil, when has(overall) is not.
func groupsIf[G any](sys *SystemRecords, tally func(name string, recs []record.Record) G, has func(G) bool) (overall G, byDifficulty []G, ok bool) {
	overall = tally("all", sys.Records)
	if !has(overall) {
		return overall, nil, false
	}
	return overall, PerDifficulty(sys, tally), true
}

// difficultyRank orders the difficulty labels of BIRD and Spider from easy to hard.
var difficultyRank = map[string]int{
	"simple": 0, "moderate": 1, "challenging": 2,
	"easy": 0, "medium": 1, "hard": 2, "extra": 3,
}

// DifficultyOrder sorts difficulty labels: known labels easy to hard, then others
// alphabetically ("unknown" and empty last).
func DifficultyOrder(ds []string) []string {
	out := append([]string(nil), ds...)
	rank := func(d string) int {
		if r, ok := difficultyRank[d]; ok {
			return r
		}
		if d == "" || d == "unknown" {
			return 1000
		}
		return 100
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i]), rank(out[j])
		if ri != rj {
			return ri < rj
		}
		return out[i] < out[j]
	})
	return out
}

// DifficultyGroup is the records of one difficulty.
type DifficultyGroup struct {
	Name    string
	Records []record.Record
}

// ByDifficulty splits records by difficulty, difficulties in DifficultyOrder: every
// per-difficulty breakdown goes through it.
func ByDifficulty(recs []record.Record) []DifficultyGroup {
	// Counted first, so each group is allocated once at its size: a summary splits every
	// system's records several times, and growing slices record by record would dominate.
	count := map[string]int{}
	names := []string{}
	for i := range recs {
		d := recs[i].Difficulty
		if _, ok := count[d]; !ok {
			names = append(names, d)
		}
		count[d]++
	}
	by := make(map[string][]record.Record, len(names))
	for _, d := range names {
		by[d] = make([]record.Record, 0, count[d])
	}
	for i := range recs {
		d := recs[i].Difficulty
		by[d] = append(by[d], recs[i])
	}
	out := make([]DifficultyGroup, 0, len(names))
	for _, d := range DifficultyOrder(names) {
		out = append(out, DifficultyGroup{Name: d, Records: by[d]})
	}
	return out
}
