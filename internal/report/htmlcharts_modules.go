package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Charts of the modules section (summary.json's "modules"): query revision, the
// cross-system analysis and the usage frontiers, drawn from the numbers that section holds.

func chartRevision(s *rundir.Summary) Chart {
	const id, title = "revision", "Revision transitions"
	series := []string{"I2C", "E2C", "C2I", "C2E"}
	keys := []string{"incorrect->correct", "error->correct", "correct->incorrect", "correct->error"}
	var rows []string
	var vals [][]float64
	maxV := 1.0
	if s.Modules != nil {
		for _, sm := range s.Modules.Systems {
			rv := sm.Revision
			if rv == nil || rv.Questions == 0 {
				continue
			}
			row := make([]float64, len(keys))
			for j, k := range keys {
				row[j] = float64(rv.Transitions[k])
				maxV = math.Max(maxV, row[j])
			}
			rows = append(rows, fmt.Sprintf("%s (%d revised)", sm.System, rv.Questions))
			vals = append(vals, row)
		}
	}
	if len(rows) == 0 {
		return absent(id, title, "No system reported a query revision with the verdict before it.")
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, rows, series, vals, maxV, func(v float64) string { return fmt.Sprintf("%.0f", v) }),
		Caption: "Questions whose verdict changed with the revision: incorrect→correct, error→correct, correct→incorrect, correct→error (before = first candidate); the rates are in the query revision table."}
}

func cross(s *rundir.Summary) *metrics.CrossSystem {
	if s.Modules == nil {
		return nil
	}
	return s.Modules.Cross
}

func chartSolvedBy(s *rundir.Summary) Chart {
	const id, title = "solved-by", "Number of systems solving each question, by difficulty"
	c := cross(s)
	if len(s.Systems) < 2 || c == nil || len(c.Agreement) == 0 {
		return absent(id, title, "Only one system in this run: the count of systems solving each question needs several.")
	}
	n := len(c.Systems)
	var keys []Segment
	for k := 0; k <= n; k++ {
		keys = append(keys, Segment{Label: fmt.Sprint(k), Color: solvedColor(k, n)})
	}
	var rows []BarRow
	for _, a := range c.Agreement {
		if a.Questions == 0 {
			continue
		}
		row := BarRow{Label: a.Difficulty, Note: fmt.Sprintf("n=%d", a.Questions)}
		for k, cnt := range a.Correct {
			// the bar's width is the share; its label the count summary.json holds
			row.Segments = append(row.Segments, Segment{Label: fmt.Sprintf("%d systems", k), Value: float64(cnt) / float64(a.Questions), Color: solvedColor(k, n),
				Text: fmt.Sprint(cnt)})
		}
		rows = append(rows, row)
	}
	return Chart{ID: id, Title: title, SVG: StackedBars(title, rows, keys),
		Caption: fmt.Sprintf("Share of the %d questions judged for every system solved by 0, 1, … systems (legend: number of systems).", c.Questions)}
}

// solvedColor goes from red (nobody) to green (everybody).
func solvedColor(c, n int) string {
	t := float64(c) / float64(n)
	return fmt.Sprintf("rgb(%d,%d,%d)", int(200-160*t), int(60+100*t), int(60+20*t))
}

func chartOverlap(s *rundir.Summary) Chart {
	const id, title = "overlap", "Overlap of wrong answers (Jaccard)"
	c := cross(s)
	if len(s.Systems) < 2 || c == nil {
		return absent(id, title, "Only one system in this run: the overlap heatmap needs several.")
	}
	pos := map[string]int{}
	for i, name := range c.Systems {
		pos[name] = i
	}
	n := len(c.Systems)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = math.NaN()
		}
	}
	for _, o := range c.Overlaps {
		v := math.NaN()
		if o.Jaccard.Defined() {
			v = o.Jaccard.Value()
		}
		i, j := pos[o.A], pos[o.B]
		m[i][j], m[j][i] = v, v
	}
	for i := range m {
		m[i][i] = 1
	}
	return Chart{ID: id, Title: title, SVG: Heatmap(title, c.Systems, m),
		Caption: "|A∩B| / |A∪B| of the questions each system gets wrong (incorrect or error), over the questions judged for every system; n/a when both sets are empty."}
}

// usagePoints are the systems' (mean usage, EX) points, usage being registry metric id
// (a mean over every judged question), with the frontier the cross-system analysis found.
func usagePoints(s *rundir.Summary, id string, frontier []metrics.FrontierPoint) ([]Point, []int) {
	var pts []Point
	for i, sys := range s.Systems {
		x := metricValue(s, sys.System, id, "all")
		y := metricValue(s, sys.System, metrics.PrimaryID, "all")
		if !math.IsNaN(x) && !math.IsNaN(y) {
			pts = append(pts, Point{Label: sys.System, X: x, Y: y, Color: sysColor(i), XText: cellOf(s, sys.System, id, "all").Text})
		}
	}
	on := map[string]bool{}
	for _, f := range frontier {
		on[f.System] = true
	}
	var idx []int
	for i, p := range pts {
		if on[p.Label] || len(pts) == 1 {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return pts[idx[a]].X < pts[idx[b]].X })
	return pts, idx
}

func chartTokens(s *rundir.Summary) Chart {
	return usageChart(s, "tokens", "Correct rate vs tokens", "mean tokens per question", "tokens",
		func(c *metrics.CrossSystem) []metrics.FrontierPoint { return c.TokenFrontier },
		"Records carry no token usage (total_tokens).", "mean tokens over all judged questions (zero where a question reports none)")
}

func chartCost(s *rundir.Summary) Chart {
	return usageChart(s, "cost", "Correct rate vs cost", "mean cost per question (USD)", "cost",
		func(c *metrics.CrossSystem) []metrics.FrontierPoint { return c.CostFrontier },
		"No cost in summary.json (cost needs token usage and a pricing table).", "mean cost over all judged questions")
}

// usageChart plots EX against a usage metric, with the cross-system analysis's frontier.
func usageChart(s *rundir.Summary, id, title, xLabel, metric string, frontier func(*metrics.CrossSystem) []metrics.FrontierPoint, note, what string) Chart {
	var front []metrics.FrontierPoint
	if c := cross(s); c != nil {
		front = frontier(c)
	}
	pts, idx := usagePoints(s, metric, front)
	if len(pts) == 0 {
		return absent(id, title, note)
	}
	return Chart{ID: id, Title: title, SVG: Scatter(title, xLabel, pts, idx),
		Caption: "Each point is a system: EX and " + what + ", as in the usage table; the dashed line and * mark the Pareto frontier."}
}
