package slicing

import (
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Alpha is the level at which a slice's paired test calls a difference (uncorrected:
// a slice table is for finding where to look, docs/slices.md).
const Alpha = 0.05

// Verdicts of a slice's paired test.
const (
	VerdictNone    = "no detectable difference"
	VerdictABetter = "a better"
	VerdictBBetter = "b better"
)

// Section is summary.json's "slices": every declared slice that splits this run's
// questions into two or more groups, with every system's headline metric in each group.
type Section struct {
	Metric string        `json:"metric"` // the headline metric's id
	Label  string        `json:"label"`
	Alpha  float64       `json:"alpha"`
	Slices []SliceResult `json:"slices"`
	// GoldUnparsed counts questions whose first gold query does not parse (left out
	// of every gold_sql slice).
	GoldUnparsed int `json:"gold_unparsed"`
}

// SliceResult is one declared slice's groups.
type SliceResult struct {
	ID     string  `json:"id"`
	Label  string  `json:"label"`
	From   string  `json:"from"`
	Groups []Group `json:"groups"`
}

// Group is the questions of one slice value.
type Group struct {
	Value string `json:"value"`
	// Questions are the question indexes in the group (the dashboard filters by them).
	Questions []int         `json:"questions"`
	Systems   []SystemValue `json:"systems"`
	// Paired compares every two systems on the group's questions (systems in run order).
	Paired []PairVerdict `json:"paired,omitempty"`
}

// SystemValue is one system's headline metric over a group, with its interval, and how
// many of its incorrect answers are wrong in each way (record.DiffKinds).
type SystemValue struct {
	System string `json:"system"`
	metrics.Value
	ResultDiffs map[string]int `json:"result_diffs,omitempty"`
}

// PairVerdict is a paired test within a group and what it says.
type PairVerdict struct {
	A string `json:"a"`
	B string `json:"b"`
	metrics.PairedTest
	Verdict string `json:"verdict"`
}

// Summarize scores every system on every group of every declared slice with metric m
// (the run's headline), from the question facts (FactsOf).
func Summarize(m *metrics.Metric, facts map[int]Facts, systems []metrics.SystemRecords) *Section {
	sec := &Section{Metric: m.ID, Label: m.Label, Alpha: Alpha, Slices: []SliceResult{}}
	for _, f := range facts {
		if !f.Parsed {
			sec.GoldUnparsed++
		}
	}
	if len(systems) == 0 {
		return sec
	}
	// Questions are the first system's records: every system of a run has the same.
	idx := make([]int, 0, len(systems[0].Records))
	for _, r := range systems[0].Records {
		if r.Judged() {
			idx = append(idx, r.Index)
		}
	}
	pos := make([]map[int]int, len(systems))
	for k, s := range systems {
		pos[k] = make(map[int]int, len(s.Records))
		for p := range s.Records {
			pos[k][s.Records[p].Index] = p
		}
	}
	for _, d := range Declared() {
		members := map[string][]int{}
		var values []string
		for _, i := range idx {
			f, ok := facts[i]
			if !ok {
				continue
			}
			v := d.Of(&f)
			if v == "" {
				continue
			}
			if members[v] == nil {
				values = append(values, v)
			}
			members[v] = append(members[v], i)
		}
		if len(values) < 2 {
			continue // one group says nothing the overall score does not
		}
		s := SliceResult{ID: d.ID, Label: d.Label, From: d.From, Groups: make([]Group, 0, len(values))}
		for _, v := range groupOrder(values) {
			s.Groups = append(s.Groups, group(m, v, members[v], systems, pos))
		}
		sec.Slices = append(sec.Slices, s)
	}
	return sec
}

// groupOrder puts yes before no, difficulties easy to hard, the rest in text order.
func groupOrder(values []string) []string {
	if len(values) == 2 && slices.Contains(values, yes) && slices.Contains(values, no) {
		return []string{yes, no}
	}
	return metrics.DifficultyOrder(values)
}

// group scores every system on the questions of one group. Records are read in place,
// by position (metrics.AggregateAt), never copied: pos maps a question index to its
// record's position, per system.
func group(m *metrics.Metric, value string, questions []int, systems []metrics.SystemRecords, pos []map[int]int) Group {
	slices.Sort(questions)
	at := make([][]int, len(systems))
	for k := range systems {
		at[k] = make([]int, 0, len(questions))
		for _, i := range questions {
			if p, ok := pos[k][i]; ok {
				at[k] = append(at[k], p)
			}
		}
	}
	n := len(systems)
	pairs := n * (n - 1) / 2
	if n > metrics.MaxPairedSystems {
		pairs = 0 // linear in systems past it: see metrics.MaxPairedSystems
	}
	g := Group{Value: value, Questions: questions, Systems: make([]SystemValue, 0, n), Paired: make([]PairVerdict, 0, pairs)}
	for k, s := range systems {
		g.Systems = append(g.Systems, SystemValue{System: s.Name, Value: metrics.AggregateAt(m, s.Name, s.Records, at[k]),
			ResultDiffs: diffKinds(s.Records, at[k])})
	}
	for a := 0; a < len(systems) && pairs > 0; a++ {
		for b := a + 1; b < len(systems); b++ {
			sa, sb := &systems[a], &systems[b]
			t, ok := metrics.ComparePairedAt(m, sa.Name, sa.Records, sb.Name, sb.Records, at[a])
			if !ok {
				continue
			}
			g.Paired = append(g.Paired, PairVerdict{A: sa.Name, B: sb.Name, PairedTest: t, Verdict: verdict(m, &t)})
		}
	}
	return g
}

// verdict reads a paired test at Alpha: which system is better, if the test can tell.
func verdict(m *metrics.Metric, t *metrics.PairedTest) string {
	if !t.Significant(Alpha) || t.Diff == 0 {
		return VerdictNone
	}
	if (t.Diff > 0) == m.HigherIsBetter {
		return VerdictABetter
	}
	return VerdictBBetter
}

// diffKinds counts the result_diff kinds of the incorrect records at positions at; nil
// when none.
func diffKinds(recs []record.Record, at []int) map[string]int {
	var out map[string]int
	for _, i := range at {
		if d := recs[i].Diff; d != nil && recs[i].Verdict == record.Incorrect {
			if out == nil {
				out = map[string]int{}
			}
			out[d.Kind]++
		}
	}
	return out
}
