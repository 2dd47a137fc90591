package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// WriteModulesTable prints the modules section for a terminal (nothing when s has none).
func WriteModulesTable(w io.Writer, s *rundir.Summary) error {
	m := s.Modules
	if m == nil {
		return nil
	}
	ew := &errWriter{w: w}
	writeSchemaSelection(ew, s)
	writeCandidates(ew, s)
	writeRevision(ew, m)
	writeUsage(ew, s)
	if m.Cross != nil {
		writeCross(ew, m.Cross)
	}
	return ew.err
}

// anySystem reports whether some system's module metrics satisfy has: a section is
// printed only when some system has data for it.
func anySystem(m *metrics.ModulesSummary, has func(*metrics.SystemModules) bool) bool {
	for i := range m.Systems {
		if has(&m.Systems[i]) {
			return true
		}
	}
	return false
}

// labels are the definitions' column heads.
func labels(defs []metrics.Definition) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Label
	}
	return out
}

// registryCells are a system's overall values of the definitions, as the registry prints them.
func registryCells(s *rundir.Summary, system string, defs []metrics.Definition) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = cellOf(s, system, d.ID, "all").Text
	}
	return out
}

// writeSchemaSelection prints the registry's schema metrics beside the section's counts.
func writeSchemaSelection(w io.Writer, s *rundir.Summary) {
	m := s.Modules
	defs := s.Metrics.Group("schema")
	if len(defs) == 0 || !anySystem(m, func(s *metrics.SystemModules) bool { return s.SchemaSelection != nil }) {
		return
	}
	t := TextTable{Title: "schema selection (%, mean over judged questions where defined)",
		Head: append(append([]string{"system", "questions", "source"}, labels(defs)...), "no gold column")}
	for _, sm := range m.Systems {
		if ss := sm.SchemaSelection; ss != nil {
			row := append(cells(sm.System, ss.Questions, sources(ss.Source)), registryCells(s, sm.System, defs)...)
			t.Rows = append(t.Rows, append(row, fmt.Sprint(ss.Column.Undefined)))
		}
	}
	writeTitled(w, t)
	writeLegend(w, "legend: ", []string{
		"P/R/F1 = precision/recall/F1 of the tables and columns used against the gold SQL's",
		"source = where the used schema came from, with its question count (reported: the system's schema selection; pred_sql: read from its judged SQL)",
		"no gold column = questions whose gold SQL names no column (e.g. COUNT(*)): column scores undefined, left out",
	})
}

func sources(m map[string]int) string {
	ks := make([]string, 0, len(m))
	for k, v := range m {
		ks = append(ks, fmt.Sprintf("%s:%d", k, v))
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// writeCandidates prints CR/IR/ER over all candidates (the section's), then the
// registry's Pass@k for the systems that reported several candidates. It prints nothing
// when no system reported several candidates or revised any: every rate would repeat the
// headline's. A system without candidates shows n/a.
func writeCandidates(w io.Writer, s *rundir.Summary) {
	m := s.Modules
	if !anySystem(m, func(s *metrics.SystemModules) bool {
		return s.CandidateGeneration.MultiCandidate > 0 || s.Revision != nil
	}) {
		return
	}
	t := TextTable{Title: "candidate generation (%): every candidate SQL a system generated", Head: []string{"system", "candidates", "CR", "IR", "ER"}}
	for _, sm := range m.Systems {
		cg := sm.CandidateGeneration
		cr, ir, er := pct(cg.AllCandidates.Correct), pct(cg.AllCandidates.Incorrect), pct(cg.AllCandidates.Error)
		if cg.Candidates == 0 {
			cr, ir, er = noCandidates, noCandidates, noCandidates
		}
		t.Rows = append(t.Rows, cells(sm.System, cg.Candidates, cr, ir, er))
	}
	writeTitled(w, t)
	writeLegend(w, "legend: ", []string{"CR/IR/ER = share of all candidates correct / incorrect (wrong result) / error (failed to run)"})
	writePassAtK(w, s)
}

// writePassAtK prints the registry's Pass@k for the systems with several candidates for
// some question; for the others Pass@k would only repeat EX.
func writePassAtK(w io.Writer, s *rundir.Summary) {
	m := s.Modules
	defs := s.Metrics.Group("candidates")
	if len(defs) == 0 || !anySystem(m, func(s *metrics.SystemModules) bool { return s.CandidateGeneration.MultiCandidate > 0 }) {
		return
	}
	t := TextTable{Title: "Pass@k (%): one of the first k candidates correct", Head: append([]string{"system"}, labels(defs)...)}
	var short, single []string
	for _, sm := range m.Systems {
		cg := sm.CandidateGeneration
		if cg.MultiCandidate == 0 {
			single = append(single, sm.System)
			continue
		}
		t.Rows = append(t.Rows, append([]string{sm.System}, registryCells(s, sm.System, defs)...))
		if n := len(cg.PassAt); n > 0 && cg.PassAt[n-1].Short > 0 {
			short = append(short, fmt.Sprintf("%s %d", sm.System, cg.PassAt[n-1].Short))
		}
	}
	writeTitled(w, t)
	if len(short) > 0 && len(m.PassK) > 0 {
		fmt.Fprintf(w, "questions with fewer than %d candidates (they use all they have): %s\n", m.PassK[len(m.PassK)-1], strings.Join(short, ", "))
	}
	if len(single) > 0 {
		fmt.Fprintf(w, "not shown: %s (one candidate per question: Pass@k is EX)\n", strings.Join(single, ", "))
	}
}

// noCandidates is a candidate rate over no candidate.
const noCandidates = "n/a: no candidates"

func writeRevision(w io.Writer, m *metrics.ModulesSummary) {
	if !anySystem(m, func(s *metrics.SystemModules) bool { return s.Revision != nil }) {
		return
	}
	t := TextTable{Title: "query revision (%): first candidate -> judged SQL, matched by question id",
		Head: []string{"system", "questions", "CR pre", "CR post", "IR post", "ER post", "CI", "I2C", "E2C", "C2I", "C2E"}}
	for _, s := range m.Systems {
		if r := s.Revision; r != nil {
			t.Rows = append(t.Rows, cells(s.System, r.Questions, pct(r.Pre.Correct), pct(r.Post.Correct), pct(r.Post.Incorrect), pct(r.Post.Error),
				r.CI.Percent(), r.I2C.Percent(), r.E2C.Percent(), r.C2I.Percent(), r.C2E.Percent()))
		}
	}
	writeTitled(w, t)
	writeLegend(w, "legend: ", []string{
		"CR pre/post = correct rate before / after revision; IR/ER post = incorrect / error rate after",
		"CI = relative change of CR",
		"I2C/E2C = share of incorrect / error first candidates that revision made correct",
		"C2I/C2E = share of correct ones it made incorrect / error",
	})
}

// writeUsage prints usage per question: end to end, the registry's means over every
// judged question beside the section's means over the questions with usage; per module,
// the section's (records carry end-to-end usage only). Both at the registry's rounding.
func writeUsage(w io.Writer, sum *rundir.Summary) {
	m := sum.Modules
	if !anySystem(m, func(s *metrics.SystemModules) bool { return s.Usage != nil }) {
		return
	}
	fmt.Fprintf(w, "\nefficiency per question: mean over all judged questions / over questions with usage (NL2SQLBench repo)\n")
	// The latency column appears when some system reported latency (collect's records do).
	withLatency := anySystem(m, func(s *metrics.SystemModules) bool { return s.Usage != nil && s.Usage.LatencyMS != nil })
	head := []string{"system", "module", "tokens", "tokens (nonzero)", "calls", "calls (nonzero)", "cost $", "cost $ (nonzero)"}
	if withLatency {
		head = append(head, "latency ms")
	}
	rows := [][]string{head}
	means := func(x *metrics.Means, u metrics.Unit, none string) (all, nonzero string) {
		if x == nil {
			return none, none
		}
		return u.Format(x.AllQuestions), u.Format(x.NonzeroQuestions)
	}
	row := func(sys, mod string, e *metrics.TokenCost, endToEnd bool) {
		costNone := "-"
		if e.TokensUnknown {
			costNone = "unknown"
		}
		tok, tokNZ := means(e.Tokens, metrics.Tokens, "unknown")
		calls, callsNZ := means(&e.Calls, metrics.Calls, "-")
		cost, costNZ := means(e.Cost, metrics.Dollars, costNone)
		lat, _ := means(e.LatencyMS, metrics.Millis, "-")
		if endToEnd {
			reg := func(id, fallback string) string {
				if sum.Metrics.Has(id) {
					return cellOf(sum, sys, id, "all").Text
				}
				return fallback
			}
			tok, calls, cost, lat = reg("tokens", tok), reg("calls", calls), reg("cost", cost), reg("latency_ms", lat)
		}
		r := []string{sys, mod, tok, tokNZ, calls, callsNZ, cost, costNZ}
		if withLatency {
			r = append(r, lat)
		}
		rows = append(rows, r)
	}
	for _, s := range m.Systems {
		if s.Usage == nil {
			continue
		}
		row(s.System, "end to end", s.Usage, true)
		mods := make([]string, 0, len(s.UsageByModule))
		for k := range s.UsageByModule {
			mods = append(mods, k)
		}
		sort.Strings(mods)
		for _, k := range mods {
			row(s.System, k, s.UsageByModule[k], false)
		}
	}
	writeGrid(w, rows)
	legend := []string{"(nonzero) = mean over the questions with usage only, as the NL2SQLBench repository reports it"}
	if m.Pricing != "" {
		legend = append(legend, fmt.Sprintf("cost $ = tokens priced with %s, %.0f%% of prompt tokens at the cached price", m.Pricing, 100*m.CacheHitShare))
	}
	writeLegend(w, "legend: ", legend)
}

// writeCross prints the cross-system analysis; for one system only its correct rate by
// schema recall (agreement, overlaps and frontiers need two systems to say anything).
func writeCross(w io.Writer, c *metrics.CrossSystem) {
	several := len(c.Systems) > 1
	if several {
		fmt.Fprintf(w, "\ncross-system analysis over %d questions judged for every system\n", c.Questions)
	}
	if len(c.RecallCondition) > 0 {
		t := TextTable{Title: "correct rate (%) by schema recall (first candidate / judged SQL)",
			Head: []string{"system", "recall=1 n", "CG", "final", "recall<1 n", "CG", "final", "col. recall correct", "col. recall wrong"}}
		for i, r := range c.RecallCondition {
			o := c.RecallOutcome[i]
			t.Rows = append(t.Rows, cells(r.System, r.Full, r.CGFull.Percent(), r.FinalFull.Percent(),
				r.Partial, r.CGPartial.Percent(), r.FinalPart.Percent(), o.ColumnRecallRight.Percent(), o.ColumnRecallWrong.Percent()))
		}
		writeTitled(w, t)
		writeLegend(w, "legend: ", []string{
			"recall=1 = questions whose used schema holds every gold table and column (recall<1: the others); n = questions",
			"CG/final = correct rate of the first candidate / of the judged SQL",
			"col. recall correct/wrong = mean column recall of the correct / wrong answers",
		})
	}
	if !several {
		return
	}
	if len(c.Agreement) > 0 {
		t := TextTable{Title: "questions solved by exactly n systems (n=0: by none)", Head: []string{"difficulty", "questions"}}
		for n := range c.Agreement[0].Correct {
			t.Head = append(t.Head, fmt.Sprintf("n=%d", n))
		}
		for _, a := range c.Agreement {
			row := cells(a.Difficulty, a.Questions)
			for _, x := range a.Correct {
				row = append(row, fmt.Sprint(x))
			}
			t.Rows = append(t.Rows, row)
		}
		writeTitled(w, t)
	}
	if len(c.Overlaps) > 0 {
		t := TextTable{Title: "overlap of wrong answers (incorrect or error); Jaccard = both / wrong for either",
			Head: []string{"a", "b", "wrong a", "wrong b", "both", "Jaccard %"}}
		for _, o := range c.Overlaps {
			t.Rows = append(t.Rows, cells(o.A, o.B, o.WrongA, o.WrongB, o.Intersection, o.Jaccard.Percent()))
		}
		writeTitled(w, t)
	}
	frontier := func(title string, unit metrics.Unit, pts []metrics.FrontierPoint) {
		if len(pts) == 0 {
			return
		}
		var parts []string
		for _, p := range pts {
			parts = append(parts, fmt.Sprintf("%s (%s%%, %s %s)", p.System, metrics.Percent.Format(p.CorrectRate), unit.Format(p.Cost), unit))
		}
		fmt.Fprintf(w, "%s: %s\n", title, strings.Join(parts, " -> "))
	}
	if len(c.TokenFrontier)+len(c.CostFrontier) > 0 {
		fmt.Fprintln(w)
	}
	frontier("Pareto frontier (correct rate, tokens/question)", metrics.Tokens, c.TokenFrontier)
	frontier("Pareto frontier (correct rate, cost/question)", metrics.Dollars, c.CostFrontier)
	if len(c.TokenFrontier)+len(c.CostFrontier) > 0 {
		writeLegend(w, "legend: ", []string{"Pareto frontier = the systems no other beats on both correct rate and tokens (or cost), cheapest first"})
	}
}
