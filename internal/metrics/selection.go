package metrics

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Choosing metrics (eval --metrics, docs/metrics-selection.md). A run computes only what
// the metrics it was asked for need: every selectable item says, as data, which work it
// needs (Need), and the run layer builds its dataset options and annotator list from the
// union. EX alone needs none of it: no SQL parsing, no tables.json, no annotator.

// Need is a piece of work beyond executing and comparing results, as a bit set.
type Need uint

// The work a metric can need.
const (
	// NeedHardness derives each Spider question's difficulty from its gold SQL (a parse
	// against tables.json); BIRD and JSONL files carry theirs for free.
	NeedHardness  Need = 1 << iota
	NeedSoftF1         // the judge computes Soft-F1 against the first gold
	NeedESM            // the exact set match annotator (parses both queries; gives partial match too)
	NeedETM            // the ETM annotator (sqlast trees, assumptions read from the database)
	NeedLinking        // the schema-linking and module annotator (gold schema from the gold SQL, Pass@k, revision)
	NeedFlex           // the judge adds NL2SQL++'s flexible comparison (needs --flex)
	NeedTiming         // the VES timing phase (needs --ves)
	NeedTestSuite      // the counterexample search (needs --test-suite)
	NeedModules        // summary.json's modules section (revision, usage, cross-system tables)
	NeedLLMJudge       // the LLM judge annotator (needs --llm-judge)
	NeedSlices         // summary.json's slices section (every gold query parsed for its characteristics)
)

// Has reports whether n includes every need of o.
func (n Need) Has(o Need) bool { return n&o == o }

// Extras are the selectable items that are not per-question registry metrics: summary
// sections and breakdowns, each with what it needs.
var Extras = []Extra{
	{ID: "by_difficulty", Needs: NeedHardness, Says: "EX and every chosen metric broken down by difficulty (Spider: hardness, parsed from the gold SQL)"},
	{ID: "esm_partial", Needs: NeedESM, Says: "Spider's partial-match breakdown of exact set match (evaluation.py --etype match)"},
	{ID: "slices", Needs: NeedSlices, Says: "the headline metric per slice of questions: gold SQL characteristics (joins, nesting, aggregation, ...), evidence, difficulty, database (docs/slices.md)"},
}

// Extra is one selectable item that is not a registry metric.
type Extra struct {
	ID    string
	Needs Need
	Says  string
}

// Groups are the named selections: what each official script reports.
var Groups = []GroupDef{
	{Name: "bird", IDs: []string{"ex_bird", "soft_f1", "ves", "rves", "by_difficulty"},
		Says: "BIRD evaluation_ex.py / evaluation_f1.py / evaluation_ves.py: EX (rows as sets) by difficulty, Soft-F1, and VES and R-VES when --ves is on"},
	{Name: "spider", IDs: []string{"ex_spider", "esm", "esm_partial", "by_difficulty"},
		Says: "test-suite evaluation.py --etype all: EX (Spider semantics) and exact set match by hardness, with partial match"},
	{Name: "all", Says: "every metric (the default)"},
}

// GroupDef is a named selection.
type GroupDef struct {
	Name string
	IDs  []string // nil: every metric
	Says string
}

// Selection is the set of metrics a run computes. The zero Selection is every metric.
type Selection struct {
	ids map[string]bool // nil: all
}

// Has reports whether item id (a registry metric or an Extra) is chosen.
func (s Selection) Has(id string) bool { return s.ids == nil || s.ids[id] }

// IDs lists the chosen items in registry order (extras last); nil for all.
func (s Selection) IDs(opt Options) []string {
	if s.ids == nil {
		return nil
	}
	var out []string
	for _, m := range Declared(opt) {
		if s.ids[m.ID] {
			out = append(out, m.ID)
		}
	}
	for _, e := range Extras {
		if s.ids[e.ID] {
			out = append(out, e.ID)
		}
	}
	return out
}

// Filter keeps the chosen metrics of ms, in order.
func (s Selection) Filter(ms []Metric) []Metric {
	if s.ids == nil {
		return ms
	}
	var out []Metric
	for _, m := range ms {
		if s.ids[m.ID] {
			out = append(out, m)
		}
	}
	return out
}

// Needs is the work the chosen metrics need.
func (s Selection) Needs(opt Options) Need {
	var n Need
	for _, m := range Declared(opt) {
		if s.Has(m.ID) {
			n |= m.Needs
		}
	}
	for _, e := range Extras {
		if s.Has(e.ID) {
			n |= e.Needs
		}
	}
	return n
}

// ErrUnknownMetric is SelectMetrics' error for an id that is neither a metric, an extra
// nor a group.
var ErrUnknownMetric = errors.New("unknown metric")

// Switches are the run's flags that make metrics computable; a group leaves out what
// they do not switch on.
type Switches struct {
	VES, TestSuite, Flex, LLMJudge bool
}

// switched lists the metrics that exist only with a flag, and the flag.
var switched = map[string]string{"ves": "--ves", "rves": "--ves", "ts_ex": "--test-suite", "flex": "--flex",
	"llm_judge": "--llm-judge", "llm_judge_tokens": "--llm-judge", "llm_judge_cost": "--llm-judge"}

// flagWork are the flags whose whole work is one metric: given, the metric must be chosen.
// (--flex is left out: --engine sqlpp turns it on by default; unchosen, it is not computed.)
var flagWork = []struct{ flag, id, or string }{{"--ves", "ves", "rves"}, {"--test-suite", "ts_ex", "ts_ex"}, {"--llm-judge", "llm_judge", "llm_judge"}}

func (sw Switches) on(id string) bool {
	switch switched[id] {
	case "--ves":
		return sw.VES
	case "--test-suite":
		return sw.TestSuite
	case "--flex":
		return sw.Flex
	case "--llm-judge":
		return sw.LLMJudge
	}
	return true
}

// SelectMetrics reads a --metrics list (ids, extras and group names, comma-separated,
// in any number of values); none, or "all" among them, chooses every metric. A group
// brings its metrics that sw switches on (bird's VES only with --ves); a metric named
// alone whose flag is off is an error, as is an id nobody knows (the message lists the
// valid ones).
func SelectMetrics(values []string, opt Options, sw Switches) (Selection, error) {
	known := map[string]bool{}
	for _, m := range Declared(opt) {
		known[m.ID] = true
	}
	for _, e := range Extras {
		known[e.ID] = true
	}
	ids := map[string]bool{}
	given := false
	for _, v := range values {
		for _, id := range strings.Split(v, ",") {
			id = strings.ToLower(strings.TrimSpace(id))
			if id == "" {
				continue
			}
			given = true
			if g := groupNamed(id); g != nil {
				if g.IDs == nil {
					return Selection{}, nil
				}
				for _, gid := range g.IDs {
					if sw.on(gid) {
						ids[gid] = true
					}
				}
				continue
			}
			if !known[id] {
				return Selection{}, fmt.Errorf("%w %q; valid: %s", ErrUnknownMetric, id, validList(opt))
			}
			if !sw.on(id) {
				return Selection{}, fmt.Errorf("metric %q needs %s", id, switched[id])
			}
			ids[id] = true
		}
	}
	if !given {
		return Selection{}, nil
	}
	// A flag that computes a metric the selection leaves out would do work nobody reads.
	for _, f := range flagWork {
		if sw.on(f.id) && !ids[f.id] && !ids[f.or] {
			return Selection{}, fmt.Errorf("%s computes %s, which --metrics leaves out: add it or drop %s", f.flag, f.id, f.flag)
		}
	}
	return Selection{ids: ids}, nil
}

func groupNamed(name string) *GroupDef {
	for i := range Groups {
		if Groups[i].Name == name {
			return &Groups[i]
		}
	}
	return nil
}

// validList names every metric id, extra and group, for an error message.
func validList(opt Options) string {
	var ids []string
	for _, m := range Declared(opt) {
		ids = append(ids, m.ID)
	}
	for _, e := range Extras {
		ids = append(ids, e.ID)
	}
	var gs []string
	for _, g := range Groups {
		gs = append(gs, g.Name)
	}
	slices.Sort(gs)
	return "metrics " + strings.Join(ids, ", ") + "; groups " + strings.Join(gs, ", ")
}
