package benchrun

import (
	"fmt"
	"math"
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// MatrixMetric is the metric the grid is compared on: EX under each run's primary
// semantics (the registry's "ex").
const MatrixMetric = "ex"

// MatrixCellRun is one cell of a plan with its judged run (nil when it is not done).
type MatrixCellRun struct {
	Cell PlanCell
	Run  *rundir.Run
}

// MatrixSummary compares the grid, once, for matrix.json (every output renders it): each
// done cell's metric with its interval (from the cell's own summary.json), its cost and
// latency per correct answer; per dataset, the mean of each pipeline over the models and
// of each model over the pipelines, with an exact McNemar test between every two levels
// on the questions both judged under the same other level; and the best cell against the
// runner-up, paired on their shared questions. Cells not done are listed as missing and
// left out of every figure.
func MatrixSummary(p *MatrixPlan, cells []MatrixCellRun, alpha float64) (*rundir.MatrixSummary, error) {
	var m *metrics.Metric
	for _, d := range metrics.Declared(metrics.Options{}) {
		if d.ID == MatrixMetric {
			m = &d
			break
		}
	}
	if m == nil {
		return nil, fmt.Errorf("matrix summary: metric %s is not in the registry", MatrixMetric)
	}
	out := &rundir.MatrixSummary{Metric: m.ID, Label: m.Label, Alpha: alpha, Models: p.Models, Pipelines: p.Pipelines}
	for ds := range p.Datasets {
		out.Datasets = append(out.Datasets, ds)
	}
	sort.Strings(out.Datasets)
	for s := range p.Systems {
		out.Systems = append(out.Systems, s)
	}
	sort.Strings(out.Systems)
	recs := map[string][]record.Record{} // cell name -> its system's records
	byName := map[string]*rundir.CellResult{}
	for _, c := range cells {
		if c.Run == nil {
			out.Missing = append(out.Missing, c.Cell.Name)
			continue
		}
		r, rs, warn := cellResult(m, c)
		if warn != "" {
			out.Warnings = append(out.Warnings, warn)
			out.Missing = append(out.Missing, c.Cell.Name)
			continue
		}
		out.Cells = append(out.Cells, r)
		recs[c.Cell.Name] = rs
	}
	for i := range out.Cells {
		byName[out.Cells[i].Name] = &out.Cells[i]
	}
	for _, ds := range out.Datasets {
		out.Marginals = append(out.Marginals, marginals(m, ds, "pipeline", p.Pipelines, p.Models, byName)...)
		out.Marginals = append(out.Marginals, marginals(m, ds, "model", p.Models, p.Pipelines, byName)...)
		out.Pairs = append(out.Pairs, marginalPairs(m, ds, "pipeline", p.Pipelines, p.Models, recs)...)
		out.Pairs = append(out.Pairs, marginalPairs(m, ds, "model", p.Models, p.Pipelines, recs)...)
		if b, ok := bestCell(m, ds, out.Cells, recs, alpha); ok {
			out.Best = append(out.Best, b)
		}
	}
	return out, nil
}

// gridName is the cell of a factor's level crossed with the other factor's level.
func gridName(ds, factor, level, other string) string {
	if factor == "pipeline" {
		return ds + "/" + other + "+" + level
	}
	return ds + "/" + level + "+" + other
}

func cellResult(m *metrics.Metric, c MatrixCellRun) (rundir.CellResult, []record.Record, string) {
	name := c.Cell.EvalName()
	r := rundir.CellResult{Name: c.Cell.Name, Dataset: c.Cell.Dataset, Model: c.Cell.Model, Pipeline: c.Cell.Pipeline, System: c.Cell.System}
	_, v, ok := c.Run.Summary.Metrics.Lookup(name, m.ID)
	if !ok {
		return r, nil, fmt.Sprintf("cell %s: its summary.json has no %s for system %s", c.Cell.Name, m.ID, name)
	}
	r.Value, r.Text, r.CIText, r.CILow, r.CIHigh = v.Value, v.Text, v.CIText, v.CILow, v.CIHigh
	var rs []record.Record
	for _, s := range c.Run.Systems {
		if s.Name == name {
			rs = s.Records
		}
	}
	prompt, completion := 0, 0
	for i := range rs {
		x := &rs[i]
		u := x.Usage
		prompt, completion = prompt+u.PromptTokens, completion+u.CompletionTokens
		r.Tokens += u.TotalTokens
		r.LLMCalls += u.LLMCalls
		r.LatencyMS += u.LatencyMS
		if !x.Judged() {
			continue
		}
		r.Judged++
		if val, ok := m.Value(name, x); ok && val != 0 {
			r.Correct++
		}
	}
	r.Tasks = cellTasks(c.Run, name)
	r.UsageKnown = c.Cell.Collected() && (r.Tokens > 0 || r.LatencyMS > 0)
	if c.Cell.Collected() && c.Cell.Config.Pricing != nil {
		r.Priced, r.Cost = true, c.Cell.Config.Cost(prompt, completion)
	}
	if r.Correct > 0 && r.UsageKnown {
		lat := float64(r.LatencyMS) / float64(r.Correct)
		tok := float64(r.Tokens) / float64(r.Correct)
		r.LatencyPerCorrectMS, r.TokensPerCorrect = &lat, &tok
		if r.Priced {
			cost := r.Cost / float64(r.Correct)
			r.CostPerCorrect = &cost
		}
	}
	return r, rs, ""
}

// marginals averages each level's cells over the other factor's levels.
func marginals(m *metrics.Metric, ds, factor string, levels, others []string, cells map[string]*rundir.CellResult) []rundir.Marginal {
	var out []rundir.Marginal
	for _, l := range levels {
		sum, n := 0.0, 0
		for _, o := range others {
			if c := cells[gridName(ds, factor, l, o)]; c != nil && c.Value != nil && !math.IsNaN(*c.Value) {
				sum += *c.Value
				n++
			}
		}
		if n == 0 {
			continue
		}
		out = append(out, rundir.Marginal{Dataset: ds, Factor: factor, Level: l, Mean: sum / float64(n), Text: m.Unit.Format(sum / float64(n)), Cells: n})
	}
	return out
}

// marginalPairs tests every two levels of a factor: for each level of the other factor
// where both cells are done, the questions both judged pair up (by dataset index).
func marginalPairs(m *metrics.Metric, ds, factor string, levels, others []string, recs map[string][]record.Record) []rundir.MarginalPair {
	var out []rundir.MarginalPair
	for i, a := range levels {
		for _, b := range levels[i+1:] {
			t := rundir.MarginalPair{Dataset: ds, Factor: factor, A: a, B: b}
			sumA, sumB := 0.0, 0.0
			for _, o := range others {
				ra, rb := recs[gridName(ds, factor, a, o)], recs[gridName(ds, factor, b, o)]
				if ra == nil || rb == nil {
					continue
				}
				byIndex := map[int]*record.Record{}
				for k := range rb {
					if rb[k].Judged() {
						byIndex[rb[k].Index] = &rb[k]
					}
				}
				for k := range ra {
					x, y := &ra[k], byIndex[ra[k].Index]
					if !x.Judged() || y == nil {
						continue
					}
					va, _ := m.Value(a, x)
					vb, _ := m.Value(b, y)
					t.N++
					sumA, sumB = sumA+va, sumB+vb
					switch {
					case va != 0 && vb == 0:
						t.AOnly++
					case va == 0 && vb != 0:
						t.BOnly++
					}
				}
			}
			if t.N == 0 {
				continue
			}
			t.Diff = (sumA - sumB) / float64(t.N)
			t.P = metrics.McNemarExact(t.AOnly, t.BOnly)
			t.Text = fmt.Sprintf("%s - %s = %s (a_only %d, b_only %d, n %d) %s", a, b, signedFormat(m.Unit, t.Diff), t.AOnly, t.BOnly, t.N, metrics.FormatP(t.P))
			out = append(out, t)
		}
	}
	return out
}

// bestCell is the dataset's best done cell against the runner-up (by value; ties by name).
func bestCell(m *metrics.Metric, ds string, cells []rundir.CellResult, recs map[string][]record.Record, alpha float64) (rundir.BestCell, bool) {
	var ranked []rundir.CellResult
	for _, c := range cells {
		if c.Dataset == ds && c.Value != nil && !math.IsNaN(*c.Value) {
			ranked = append(ranked, c)
		}
	}
	if len(ranked) == 0 {
		return rundir.BestCell{}, false
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		vi, vj := *ranked[i].Value, *ranked[j].Value
		if !m.HigherIsBetter {
			vi, vj = -vi, -vj
		}
		if vi != vj {
			return vi > vj
		}
		return ranked[i].Name < ranked[j].Name
	})
	b := rundir.BestCell{Dataset: ds, Best: ranked[0].Name, P: 1}
	if len(ranked) == 1 {
		b.Text = ranked[0].Name + " (the only cell)"
		return b, true
	}
	ru := ranked[1]
	b.RunnerUp = ru.Name
	t, ok := metrics.ComparePaired(m, cellSystem(ranked[0]), recs[ranked[0].Name], cellSystem(ru), recs[ru.Name])
	if !ok {
		b.Text = fmt.Sprintf("%s over %s: no question judged in both", b.Best, b.RunnerUp)
		return b, true
	}
	b.N, b.Diff, b.P = t.N, t.Diff, t.P
	b.Significant = t.Significant(alpha)
	verdict := "not significantly better"
	if b.Significant {
		verdict = "significantly better"
	}
	b.Text = fmt.Sprintf("%s over %s: %s on %d shared questions, %s, %s at alpha %g", b.Best, b.RunnerUp, signedFormat(m.Unit, t.Diff), t.N, metrics.FormatP(t.P), verdict, alpha)
	return b, true
}

func cellSystem(c rundir.CellResult) string {
	if c.System != "" {
		return c.System
	}
	return c.Model + "+" + c.Pipeline
}

func signedFormat(u metrics.Unit, d float64) string {
	s := u.Format(d)
	if d >= 0 && (len(s) == 0 || s[0] != '-') {
		return "+" + s
	}
	return s
}

// cellTasks is a task cell's scores from its summary.json tasks section (nil for other
// datasets): each phase's total row; the reward only where there are follow-ups.
func cellTasks(run *rundir.Run, system string) *rundir.CellTasks {
	for _, ts := range run.Summary.Tasks {
		if ts.System != system {
			continue
		}
		out := &rundir.CellTasks{}
		for _, row := range ts.Rows {
			if row.Category != "" || row.Difficulty != "" {
				continue
			}
			text := ""
			if row.Rate != nil {
				text = row.Rate.Text
			}
			switch row.Phase {
			case 1:
				out.FirstJudged, out.FirstCorrect, out.FirstText = row.Judged, row.Correct, text
			case 2:
				out.FollowUps, out.FollowUpJudged, out.FollowUpCorrect, out.FollowUpText = true, row.Judged, row.Correct, text
			}
		}
		if out.FollowUps {
			out.Reward = ts.Reward
		}
		return out
	}
	return nil
}
