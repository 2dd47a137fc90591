package metrics

import (
	"fmt"
	"slices"
	"strings"
)

// SpiderRewriteSummary is summary.json's spider_rewrite section: the judged questions
// where Spider's official rewrite changed what a gold or a prediction means (the
// records' spider_rewrite_changed), and under --spider-mode corrected the questions
// whose official ex_spider differs. The ex_spider rate itself is the registry's metric
// (declared.go); this section only counts and lists.
type SpiderRewriteSummary struct {
	Mode string `json:"mode"` // --spider-mode: official or corrected
	// Questions counts the questions where the rewrite changed the gold or any system's
	// prediction; Gold those where it changed the gold. First is the first of them.
	Questions int                   `json:"questions"`
	Gold      int                   `json:"gold"`
	First     *SpiderRewriteCase    `json:"first,omitempty"`
	Systems   []SpiderRewriteSystem `json:"systems"`
}

// SpiderRewriteSystem is one system's counts.
type SpiderRewriteSystem struct {
	System string `json:"system"`
	// Changed counts the system's judged records whose gold or prediction the rewrite
	// changed, Pred those whose prediction it changed; Corners counts those records by
	// corner (spider_rewrite_corners).
	Changed int            `json:"changed"`
	Pred    int            `json:"pred"`
	Corners map[string]int `json:"corners,omitempty"`
	// ModeDiffs (corrected mode) lists the questions whose official ex_spider differs
	// from the corrected one (records with ex_spider_official), by question index.
	ModeDiffs []int `json:"mode_diffs,omitempty"`
}

// SpiderRewriteCase is one question the rewrite changed.
type SpiderRewriteCase struct {
	Index      int      `json:"index"`
	QuestionID string   `json:"question_id"`
	Changed    []string `json:"changed"` // "gold", "pred" (of some system)
	Corners    []string `json:"corners,omitempty"`
}

// SummarizeSpiderRewrite computes the section from the systems' judged records; nil
// under the official mode when the rewrite changed nothing.
func SummarizeSpiderRewrite(mode string, systems []SystemRecords) *SpiderRewriteSummary {
	s := &SpiderRewriteSummary{Mode: mode}
	cases := map[int]*SpiderRewriteCase{}
	for _, sys := range systems {
		ss := SpiderRewriteSystem{System: sys.Name}
		for i := range sys.Records {
			r := &sys.Records[i]
			if !r.Judged() {
				continue
			}
			if r.ExSpiderOfficial != nil {
				ss.ModeDiffs = append(ss.ModeDiffs, r.Index)
			}
			if len(r.SpiderRewriteChanged) == 0 {
				continue
			}
			ss.Changed++
			if slices.Contains(r.SpiderRewriteChanged, "pred") {
				ss.Pred++
			}
			for _, c := range r.SpiderRewriteCorners {
				if ss.Corners == nil {
					ss.Corners = map[string]int{}
				}
				ss.Corners[c]++
			}
			c := cases[r.Index]
			if c == nil {
				c = &SpiderRewriteCase{Index: r.Index, QuestionID: r.QuestionID}
				cases[r.Index] = c
			}
			c.Changed = union(c.Changed, r.SpiderRewriteChanged)
			c.Corners = union(c.Corners, r.SpiderRewriteCorners)
		}
		s.Systems = append(s.Systems, ss)
	}
	for _, c := range cases {
		s.Questions++
		if slices.Contains(c.Changed, "gold") {
			s.Gold++
		}
		if s.First == nil || c.Index < s.First.Index {
			s.First = c
		}
	}
	if s.Questions == 0 && mode != "corrected" {
		return nil
	}
	return s
}

// union is a and b merged, sorted, without repeats ("gold" sorts before "pred").
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// Warning is the summary's one-line warning about the section, "" when there is nothing
// to say: how many questions the rewrite changed and the first of them, and under the
// corrected mode how many verdicts it changed per system.
func (s *SpiderRewriteSummary) Warning() string {
	if s == nil || s.Questions == 0 && !hasModeDiffs(s) {
		return ""
	}
	var preds []string
	for _, sys := range s.Systems {
		preds = append(preds, fmt.Sprintf("%s %d", sys.System, sys.Pred))
	}
	w := fmt.Sprintf("Spider's official rewrite changes what the query means on %d question%s (the gold on %d; the prediction: %s)",
		s.Questions, pluralS(s.Questions), s.Gold, perSystem(preds))
	if f := s.First; f != nil {
		w += fmt.Sprintf("; first: question %s (%s", f.QuestionID, strings.Join(f.Changed, " and "))
		if len(f.Corners) > 0 {
			w += ": " + strings.Join(f.Corners, ", ")
		}
		w += ")"
	}
	if s.Mode != "corrected" {
		return w + "; ex_spider there may be the rewrite's doing, not the system's: --spider-mode corrected judges without it"
	}
	var diffs []string
	for _, sys := range s.Systems {
		diffs = append(diffs, fmt.Sprintf("%s %d", sys.System, len(sys.ModeDiffs)))
	}
	return w + "; --spider-mode corrected judged without it, ex_spider differing from the official on: " + perSystem(diffs)
}

// warnSystems is how many systems a warning names: a run of 200 systems made this one
// line 3,800 characters long. Every system's count is in summary.json's spider_rewrite.
const warnSystems = 10

// perSystem joins a warning's per-system counts, the first warnSystems of them.
func perSystem(xs []string) string {
	if len(xs) <= warnSystems {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:warnSystems], ", ") + fmt.Sprintf(" and %d more systems (summary.json's spider_rewrite)", len(xs)-warnSystems)
}

func hasModeDiffs(s *SpiderRewriteSummary) bool {
	for _, sys := range s.Systems {
		if len(sys.ModeDiffs) > 0 {
			return true
		}
	}
	return false
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
