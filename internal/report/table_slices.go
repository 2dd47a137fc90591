package report

import (
	"fmt"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/slicing"
)

// The slice and result-diff tables print summary.json's slices and result_diffs
// sections (internal/slicing) as they are: nothing is counted or averaged here.

// SliceTables are the headline metric per slice group with the differences its paired
// tests find, and how incorrect answers are wrong, per system and per slice group;
// those the run has.
func SliceTables(s *rundir.Summary) []TextTable {
	var out []TextTable
	if t := sliceScores(s); t != nil {
		out = append(out, *t)
	}
	if t := sliceDifferences(s); t != nil {
		out = append(out, *t)
	}
	if s.ResultDiffs == nil {
		return out
	}
	out = append(out, diffKindTable(s.ResultDiffs), diffClauseTable(s.ResultDiffs))
	if t := sliceDiffs(s); t != nil {
		out = append(out, *t)
	}
	return out
}

func sliceScores(s *rundir.Summary) *TextTable {
	sec := s.Slices
	if sec == nil || len(sec.Slices) == 0 {
		return nil
	}
	t := &TextTable{Title: fmt.Sprintf("Slices: %s per group of questions (%%, 95%% CI)", sec.Label), Head: []string{"slice", "group", "n"},
		Caption: fmt.Sprintf("Slices read the first gold query's SQL or the dataset (docs/slices.md); a question whose gold does not parse (%d here) is in no SQL slice.", sec.GoldUnparsed)}
	for _, sv := range sec.Slices[0].Groups[0].Systems {
		t.Head = append(t.Head, sv.System)
	}
	for _, sl := range sec.Slices {
		for _, g := range sl.Groups {
			row := []string{sl.Label, g.Value, fmt.Sprint(len(g.Questions))}
			for i := range g.Systems {
				row = append(row, withCI(&g.Systems[i].Value))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// sliceDifferences lists the slice groups where a pair's paired test tells the two
// systems apart; nil with one system.
func sliceDifferences(s *rundir.Summary) *TextTable {
	sec := s.Slices
	if sec == nil || len(sec.Slices) == 0 || len(sec.Slices[0].Groups[0].Systems) < 2 {
		return nil
	}
	t := &TextTable{Title: fmt.Sprintf("Slices where two systems differ on %s (p < %.2f)", sec.Label, sec.Alpha),
		Head: []string{"slice", "group", "n", "pair", "verdict", "A - B, test"},
		Caption: "Exact McNemar test on the group's questions, as the paired comparisons above. Not corrected for the many groups and pairs " +
			"(about one test in twenty gives p < 0.05 by chance): a place to look, not a finding."}
	for _, sl := range sec.Slices {
		for _, g := range sl.Groups {
			for _, p := range g.Paired {
				var v string
				switch p.Verdict {
				case slicing.VerdictABetter:
					v = p.A + " better"
				case slicing.VerdictBBetter:
					v = p.B + " better"
				default:
					continue
				}
				t.Rows = append(t.Rows, []string{sl.Label, g.Value, fmt.Sprint(p.N), p.A + " vs " + p.B, v, p.Text})
			}
		}
	}
	if len(t.Rows) == 0 {
		t.Rows = append(t.Rows, []string{"none", "", "", "", "", ""})
	}
	return t
}

func diffKindTable(d *slicing.DiffSection) TextTable {
	t := TextTable{Title: "How incorrect answers are wrong (result_diff kinds)", Head: perSystem(d, "kind", systemName),
		Caption: "Incorrect answers by how their result differs from the gold's, first kind that applies (docs/result-diff.md); % of the system's incorrect answers."}
	for _, k := range d.Kinds {
		if kindUsed(d, k) {
			t.Rows = append(t.Rows, perSystem(d, k, func(sd *slicing.SystemDiffs) string { return countShare(sd.Kinds[k], sd.Incorrect) }))
		}
	}
	t.Rows = append(t.Rows, perSystem(d, "incorrect", func(sd *slicing.SystemDiffs) string { return fmt.Sprint(sd.Incorrect) }))
	for _, sd := range d.Systems {
		if sd.Unclassified > 0 {
			t.Rows = append(t.Rows, perSystem(d, "unclassified", func(sd *slicing.SystemDiffs) string { return fmt.Sprint(sd.Unclassified) }))
			break
		}
	}
	return t
}

func diffClauseTable(d *slicing.DiffSection) TextTable {
	t := TextTable{Title: "Clauses of incorrect answers that differ from the gold's", Head: perSystem(d, "clause", systemName),
		Caption: "From the exact-set-match comparison (values ignored, as ESM ignores them), where both queries parse; an answer may differ in several clauses. % of the system's incorrect answers."}
	for _, c := range d.Clauses {
		t.Rows = append(t.Rows, perSystem(d, c, func(sd *slicing.SystemDiffs) string { return countShare(sd.Clauses[c], sd.Incorrect) }))
	}
	t.Rows = append(t.Rows, perSystem(d, "any clause", func(sd *slicing.SystemDiffs) string { return countShare(sd.WithClauses, sd.Incorrect) }))
	return t
}

// perSystem is a row of the result_diff tables: its label, then cell of each system.
func perSystem(d *slicing.DiffSection, label string, cell func(*slicing.SystemDiffs) string) []string {
	row := []string{label}
	for i := range d.Systems {
		row = append(row, cell(&d.Systems[i]))
	}
	return row
}

func systemName(sd *slicing.SystemDiffs) string { return sd.System }

func countShare(n, of int) string {
	if of == 0 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(of))
}

// sliceDiffs is every slice group's incorrect answers by kind, one count per system
// joined by "/" in the run's system order; kinds no system has are left out.
func sliceDiffs(s *rundir.Summary) *TextTable {
	sec := s.Slices
	if sec == nil || len(sec.Slices) == 0 {
		return nil
	}
	var kinds []string
	for _, k := range record.DiffKinds {
		if s.ResultDiffs != nil && kindUsed(s.ResultDiffs, k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	var names []string
	for _, sv := range sec.Slices[0].Groups[0].Systems {
		names = append(names, sv.System)
	}
	head := []string{"slice", "group"}
	for _, k := range kinds {
		head = append(head, strings.ReplaceAll(k, "_", " ")) // a header that can wrap
	}
	t := &TextTable{Title: "Incorrect answers by kind and slice", Head: head,
		Caption: "Each cell counts incorrect answers of that kind in the group, per system: " + strings.Join(names, " / ") + "."}
	for _, sl := range sec.Slices {
		for _, g := range sl.Groups {
			row := []string{sl.Label, g.Value}
			for _, k := range kinds {
				cs := make([]string, len(g.Systems))
				for i, sv := range g.Systems {
					cs[i] = fmt.Sprint(sv.ResultDiffs[k])
				}
				row = append(row, strings.Join(cs, "/"))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func kindUsed(d *slicing.DiffSection, k string) bool {
	for _, sd := range d.Systems {
		if sd.Kinds[k] > 0 {
			return true
		}
	}
	return false
}

// SliceOption is one slice group the question list can be filtered by.
type SliceOption struct {
	Key   string // "joins=1": a token of the questions' data-s attribute
	Label string // "joins: 1"
	N     int
}

// sliceFilter lists the slice groups of summary.json's slices section (difficulty and
// database have filters of their own) and marks each question with the groups it is in.
func sliceFilter(s *rundir.Summary, qs []QuestionView) []SliceOption {
	if s.Slices == nil {
		return nil
	}
	pos := make(map[int]int, len(qs))
	for i := range qs {
		pos[qs[i].Index] = i
	}
	var out []SliceOption
	for _, sl := range s.Slices.Slices {
		if sl.ID == "difficulty" || sl.ID == "database" {
			continue
		}
		for _, g := range sl.Groups {
			// A value is a token of a space-separated attribute: no spaces in it.
			key := sl.ID + "=" + strings.ReplaceAll(g.Value, " ", "_")
			out = append(out, SliceOption{Key: key, Label: sl.Label + ": " + g.Value, N: len(g.Questions)})
			for _, i := range g.Questions {
				if k, ok := pos[i]; ok {
					qs[k].Slices += key + " "
				}
			}
		}
	}
	return out
}
