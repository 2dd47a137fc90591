package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Chart is one figure of the report. A chart whose data the run does not hold has no SVG
// and a one-line Note saying why; it is never drawn empty.
type Chart struct {
	ID, Title string
	SVG       template.HTML
	Caption   string
	Note      string
}

// Charts builds every figure of the report from the run's records, in report order. To
// add a figure, append a builder here: a function from *Run to Chart that sets Note when
// its data is absent.
func Charts(run *Run) []Chart {
	builders := []func(*Run) Chart{
		chartVerdicts, chartErrors, chartExTmSm, chartPassAtK, chartSchema, chartRevision,
		chartSolvedBy, chartOverlap, chartTokens, chartCost, chartEfficiency,
	}
	out := make([]Chart, 0, len(builders))
	for _, b := range builders {
		out = append(out, b(run))
	}
	return out
}

func absent(id, title, note string) Chart { return Chart{ID: id, Title: title, Note: note} }

func judged(recs []Rec) []Rec {
	var out []Rec
	for _, r := range recs {
		if r.Judged() {
			out = append(out, r)
		}
	}
	return out
}

// runDifficulties are the difficulties present in the run, easy to hard.
func runDifficulties(run *Run) []string {
	seen := map[string]bool{}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			seen[r.Difficulty] = true
		}
	}
	var ds []string
	for d := range seen {
		ds = append(ds, d)
	}
	return metrics.DifficultyOrder(ds)
}

var verdictKeys = []Segment{{Label: "correct", Color: colCorrect}, {Label: "incorrect", Color: colIncorrect}, {Label: "error", Color: colError}}

func chartVerdicts(run *Run) Chart {
	const id, title = "verdicts", "Correct / incorrect / error by difficulty"
	var rows []BarRow
	diffs := runDifficulties(run)
	for _, s := range run.Systems {
		groups := append([]string{}, diffs...)
		if len(diffs) > 1 {
			groups = append(groups, "all")
		}
		for _, d := range groups {
			var c, i, e, n float64
			for _, r := range s.Records {
				if !r.Judged() || (d != "all" && r.Difficulty != d) {
					continue
				}
				n++
				switch r.Verdict {
				case record.Correct:
					c++
				case record.Incorrect:
					i++
				case record.Error:
					e++
				}
			}
			if n == 0 {
				continue
			}
			rows = append(rows, BarRow{Label: s.Name + " · " + d, Note: fmt.Sprintf("n=%d", int(n)),
				Segments: []Segment{{"correct", c / n, colCorrect}, {"incorrect", i / n, colIncorrect}, {"error", e / n, colError}}})
		}
	}
	if len(rows) == 0 {
		return absent(id, title, "No judged records in this run.")
	}
	return Chart{ID: id, Title: title, SVG: StackedBars(title, rows, verdictKeys),
		Caption: "Share of judged questions (skipped and gold_error excluded) under the run's " + run.Semantics() + " semantics."}
}

func chartErrors(run *Run) Chart {
	const id, title = "errors", "Error categories"
	var rows []string
	var vals [][]float64
	maxV := 0.0
	for _, c := range record.Categories {
		row := make([]float64, len(run.Systems))
		any := false
		for j, s := range run.Systems {
			for _, r := range s.Records {
				if r.Verdict == record.Error && r.ErrorCategory == c {
					row[j]++
					any = true
				}
			}
			maxV = math.Max(maxV, row[j])
		}
		if any {
			rows = append(rows, string(c))
			vals = append(vals, row)
		}
	}
	if len(rows) == 0 {
		return absent(id, title, "No prediction failed to execute: there are no error categories to show.")
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, rows, systemNames(run), vals, maxV, func(v float64) string { return fmt.Sprintf("%.0f", v) }),
		Caption: "Number of predictions per error category."}
}

// sysColor is system i's colour in every chart.
func sysColor(i int) string { return palette[i%len(palette)] }

func systemNames(run *Run) []string {
	var out []string
	for _, s := range run.Systems {
		out = append(out, s.Name)
	}
	return out
}

// chartExTmSm compares execution accuracy with the structural metrics (ETM, ESM) where
// records carry them.
func chartExTmSm(run *Run) Chart {
	const id, title = "ex-etm-esm", "EX vs ETM vs ESM per system"
	series := []string{"EX"}
	type metric struct{ label, key string }
	var extra []metric
	for _, m := range []metric{{"ETM", "etm"}, {"ESM", "esm"}, {"Flex", "flex"}} {
		if anyRecordHas(run, m.key) {
			series = append(series, m.label)
			extra = append(extra, m)
		}
	}
	if len(extra) == 0 {
		return absent(id, title, "Records carry no ETM or ESM verdicts (fields etm, esm): only EX is available.")
	}
	var vals [][]float64
	for _, s := range run.Systems {
		js := judged(s.Records)
		row := []float64{rateOf(js, func(r *Rec) (float64, bool) { return b2f(r.Verdict == record.Correct), true })}
		for _, m := range extra {
			row = append(row, rateOf(js, func(r *Rec) (float64, bool) { return r.num(m.key) }))
		}
		vals = append(vals, row)
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, systemNames(run), series, vals, 1, pctf),
		Caption: "Rates over judged questions; ETM/ESM/Flex (NL2SQL++'s flexible comparison) over the questions that carry them."}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func pctf(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

func anyRecordHas(run *Run, key string) bool {
	for _, s := range run.Systems {
		for _, r := range s.Records {
			if _, ok := r.Extra[key]; ok {
				return true
			}
		}
	}
	return false
}

// rateOf is the mean of get over the records where it has a value (NaN when none has).
func rateOf(recs []Rec, get func(*Rec) (float64, bool)) float64 {
	sum, n := 0.0, 0
	for i := range recs {
		if v, ok := get(&recs[i]); ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// chartPassAtK: correct if any of the first k candidates is; a question with fewer than k
// candidates uses all it has. Computed from the judged candidates in the records (or the
// records' pass_at map when they carry no candidates).
func chartPassAtK(run *Run) Chart {
	const id, title = "pass-at-k", "Pass@k"
	maxK := 0
	for _, s := range run.Systems {
		for _, r := range s.Records {
			maxK = max(maxK, len(r.Candidates))
			if m, ok := r.passAt(); ok {
				for k := range m {
					maxK = max(maxK, k)
				}
			}
		}
	}
	if maxK < 2 {
		return absent(id, title, "No system reported more than one candidate per question: Pass@k needs several.")
	}
	var ks []float64
	for _, k := range []int{1, 2, 3, 5, 10, 15, 20} {
		if k <= maxK {
			ks = append(ks, float64(k))
		}
	}
	if ks[len(ks)-1] != float64(maxK) && maxK <= 20 {
		ks = append(ks, float64(maxK))
	}
	var lines []Line
	for si, s := range run.Systems {
		js := judged(s.Records)
		l := Line{Label: s.Name, Color: sysColor(si)}
		for _, k := range ks {
			v := rateOf(js, func(r *Rec) (float64, bool) { return passAt(r, int(k)) })
			if !math.IsNaN(v) {
				l.Points = append(l.Points, [2]float64{k, v})
			}
		}
		if len(l.Points) > 0 {
			lines = append(lines, l)
		}
	}
	return Chart{ID: id, Title: title, SVG: LineChart(title, "k (candidates)", ks, lines),
		Caption: "Share of judged questions with a correct SQL among the first k candidates; a question with fewer than k candidates uses all it has."}
}

func passAt(r *Rec, k int) (float64, bool) {
	if len(r.Candidates) > 0 {
		for i, c := range r.Candidates {
			if i >= k {
				break
			}
			if c.Verdict == record.Correct {
				return 1, true
			}
		}
		return 0, true
	}
	if m, ok := r.passAt(); ok {
		best := -1
		for kk := range m {
			if kk <= k && kk > best {
				best = kk
			}
		}
		if best >= 0 {
			return m[best], true
		}
	}
	// No candidates reported: the judged SQL is the one candidate.
	return b2f(r.Verdict == record.Correct), true
}

func chartSchema(run *Run) Chart {
	const id, title = "schema", "Schema selection precision / recall / F1"
	keys := []struct{ label, key string }{
		{"table P", "schema_table_p"}, {"table R", "schema_table_r"}, {"table F1", "schema_table_f1"},
		{"column P", "schema_column_p"}, {"column R", "schema_column_r"}, {"column F1", "schema_column_f1"},
	}
	var series []string
	var used []string
	for _, k := range keys {
		if anyRecordHas(run, k.key) {
			series = append(series, k.label)
			used = append(used, k.key)
		}
	}
	if len(series) == 0 {
		return absent(id, title, "Records carry no schema-selection scores (schema_table_p/r/f1, schema_column_p/r/f1).")
	}
	var rows []string
	var vals [][]float64
	for _, s := range run.Systems {
		row := make([]float64, len(used))
		has := false
		for j, k := range used {
			row[j] = rateOf(s.Records, func(r *Rec) (float64, bool) { return r.num(k) })
			has = has || !math.IsNaN(row[j])
		}
		if has {
			rows = append(rows, s.Name)
			vals = append(vals, row)
		}
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, rows, series, vals, 1, pctf),
		Caption: "Mean of per-question scores (macro), over the questions where the system reported a schema selection."}
}

// revisionPre is the verdict before revision: the record's own field when a metric added
// one, else the first candidate's verdict.
func revisionPre(r *Rec) (record.Verdict, bool) {
	if v, ok := r.str("pre_revision_verdict", "verdict_before_revision", "pre_verdict"); ok && v != "" {
		return record.Verdict(v), true
	}
	if r.RevisionApplied && len(r.Candidates) > 0 {
		return r.Candidates[0].Verdict, true
	}
	return "", false
}

func chartRevision(run *Run) Chart {
	const id, title = "revision", "Revision transitions"
	series := []string{"I2C", "E2C", "C2I", "C2E"}
	var rows []string
	var vals [][]float64
	maxV := 0.0
	for _, s := range run.Systems {
		row := make([]float64, 4)
		n := 0
		for _, r := range s.Records {
			if !r.Judged() {
				continue
			}
			pre, ok := revisionPre(&r)
			if !ok {
				continue
			}
			n++
			post := r.Verdict
			switch {
			case pre == record.Incorrect && post == record.Correct:
				row[0]++
			case pre == record.Error && post == record.Correct:
				row[1]++
			case pre == record.Correct && post == record.Incorrect:
				row[2]++
			case pre == record.Correct && post == record.Error:
				row[3]++
			}
		}
		if n == 0 {
			continue
		}
		for _, v := range row {
			maxV = math.Max(maxV, v)
		}
		rows = append(rows, fmt.Sprintf("%s (%d revised)", s.Name, n))
		vals = append(vals, row)
	}
	if len(rows) == 0 {
		return absent(id, title, "No system reported a query revision with the verdict before it.")
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, rows, series, vals, math.Max(maxV, 1), func(v float64) string { return fmt.Sprintf("%.0f", v) }),
		Caption: "Questions whose verdict changed with the revision: incorrect→correct, error→correct, correct→incorrect, correct→error (before = first candidate)."}
}

// questionKey identifies a question across systems of one run.
func questionKey(r *Rec) int { return r.Index }

func chartSolvedBy(run *Run) Chart {
	const id, title = "solved-by", "Number of systems solving each question, by difficulty"
	n := len(run.Systems)
	if n < 2 {
		return absent(id, title, "Only one system in this run: the count of systems solving each question needs several.")
	}
	solved := map[int]int{}
	diff := map[int]string{}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			if !r.Judged() {
				continue
			}
			k := questionKey(&r)
			diff[k] = r.Difficulty
			if r.Verdict == record.Correct {
				solved[k]++
			}
		}
	}
	var keys []Segment
	for c := 0; c <= n; c++ {
		keys = append(keys, Segment{Label: fmt.Sprint(c), Color: solvedColor(c, n)})
	}
	var rows []BarRow
	for _, d := range append(runDifficulties(run), "all") {
		counts := make([]float64, n+1)
		total := 0.0
		for k, dd := range diff {
			if d != "all" && dd != d {
				continue
			}
			counts[solved[k]]++
			total++
		}
		if total == 0 {
			continue
		}
		row := BarRow{Label: d, Note: fmt.Sprintf("n=%d", int(total))}
		for c := 0; c <= n; c++ {
			row.Segments = append(row.Segments, Segment{Label: fmt.Sprintf("%d systems", c), Value: counts[c] / total, Color: solvedColor(c, n)})
		}
		rows = append(rows, row)
	}
	return Chart{ID: id, Title: title, SVG: StackedBars(title, rows, keys),
		Caption: "Share of questions solved by 0, 1, … systems (legend: number of systems)."}
}

// solvedColor goes from red (nobody) to green (everybody).
func solvedColor(c, n int) string {
	t := float64(c) / float64(n)
	return fmt.Sprintf("rgb(%d,%d,%d)", int(200-160*t), int(60+100*t), int(60+20*t))
}

func chartOverlap(run *Run) Chart {
	const id, title = "overlap", "Overlap of wrong answers (Jaccard)"
	n := len(run.Systems)
	if n < 2 {
		return absent(id, title, "Only one system in this run: the overlap heatmap needs several.")
	}
	sets := make([]map[int]bool, n)
	for i, s := range run.Systems {
		sets[i] = map[int]bool{}
		for _, r := range s.Records {
			if r.Verdict == record.Incorrect || r.Verdict == record.Error {
				sets[i][questionKey(&r)] = true
			}
		}
	}
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = jaccard(sets[i], sets[j])
		}
	}
	return Chart{ID: id, Title: title, SVG: Heatmap(title, systemNames(run), m),
		Caption: "|A∩B| / |A∪B| of the questions each system gets wrong (incorrect or error); n/a when both sets are empty."}
}

func jaccard(a, b map[int]bool) float64 {
	inter, union := 0, len(b)
	for k := range a {
		if b[k] {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return math.NaN()
	}
	return float64(inter) / float64(union)
}

func chartTokens(run *Run) Chart {
	return frontierChart(run, "tokens", "Correct rate vs tokens", "mean tokens per question",
		"Records carry no token usage (total_tokens).", func(r *Rec) (float64, bool) {
			t := r.TotalTokens
			if t == 0 {
				t = r.PromptTokens + r.CompletionTokens
			}
			return float64(t), t > 0
		})
}

func chartCost(run *Run) Chart {
	const id, title, xLabel = "cost", "Correct rate vs cost", "mean cost per question (USD)"
	c := frontierChart(run, id, title, xLabel, "", func(r *Rec) (float64, bool) { return r.num("cost_usd", "cost") })
	if c.SVG != "" {
		return c
	}
	// Cost is usually a run-level figure (tokens x a pricing table): summary.json's modules section.
	costs := summaryCosts(run)
	var pts []Point
	for i, s := range run.Systems {
		if v, ok := costs[s.Name]; ok {
			pts = append(pts, Point{Label: s.Name, X: v, Y: correctRate(s.Records), Color: sysColor(i)})
		}
	}
	if len(pts) == 0 {
		return absent(id, title, "No cost in the records or in summary.json (cost needs token usage and a pricing table).")
	}
	return Chart{ID: id, Title: title, SVG: Scatter(title, xLabel, pts, Pareto(pts)),
		Caption: "Each point is a system: mean cost over all judged questions from summary.json (modules.systems[].usage.cost_usd); the dashed line and * mark the Pareto frontier."}
}

func correctRate(recs []Rec) float64 {
	return rateOf(judged(recs), func(r *Rec) (float64, bool) { return b2f(r.Verdict == record.Correct), true })
}

// summaryCosts reads modules.systems[].usage.cost_usd.mean_all_questions from summary.json,
// generically, so the chart follows the section without depending on its Go type.
func summaryCosts(run *Run) map[string]float64 {
	var sec struct {
		Systems []struct {
			System string `json:"system"`
			Usage  *struct {
				Cost *struct {
					Mean *float64 `json:"mean_all_questions"`
				} `json:"cost_usd"`
			} `json:"usage"`
		} `json:"systems"`
	}
	raw, ok := run.SummaryRaw["modules"]
	if !ok || json.Unmarshal(raw, &sec) != nil {
		return nil
	}
	out := map[string]float64{}
	for _, s := range sec.Systems {
		if s.Usage != nil && s.Usage.Cost != nil && s.Usage.Cost.Mean != nil {
			out[s.System] = *s.Usage.Cost.Mean
		}
	}
	return out
}

// frontierChart plots each system's correct rate against its mean usage per judged
// question (questions without usage count as 0) with the Pareto frontier: no other
// system is both cheaper (or as cheap) and more accurate.
func frontierChart(run *Run, id, title, xLabel, note string, get func(*Rec) (float64, bool)) Chart {
	var pts []Point
	for si, s := range run.Systems {
		js := judged(s.Records)
		sum, has := 0.0, false
		for i := range js {
			if v, ok := get(&js[i]); ok {
				sum += v
				has = true
			}
		}
		if !has || len(js) == 0 {
			continue
		}
		pts = append(pts, Point{Label: s.Name, X: sum / float64(len(js)), Y: correctRate(s.Records), Color: sysColor(si)})
	}
	if len(pts) == 0 {
		return absent(id, title, note)
	}
	return Chart{ID: id, Title: title, SVG: Scatter(title, xLabel, pts, Pareto(pts)),
		Caption: "Each point is a system (mean over judged questions, zero where a question reports none); the dashed line and * mark the Pareto frontier."}
}

// Pareto returns the indexes of the points no other point dominates (lower or equal X and
// higher or equal Y, one strictly), in increasing X.
func Pareto(pts []Point) []int {
	var out []int
	for i, p := range pts {
		dominated := false
		for j, q := range pts {
			if i != j && q.X <= p.X && q.Y >= p.Y && (q.X < p.X || q.Y > p.Y) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, i)
		}
	}
	sort.Slice(out, func(a, b int) bool { return pts[out[a]].X < pts[out[b]].X })
	return out
}

func chartEfficiency(run *Run) Chart {
	const id, title = "efficiency", "Soft-F1 and VES per system"
	keys := []struct{ label, key string }{{"Soft-F1", "soft_f1"}, {"VES", "ves"}, {"R-VES", "rves_reward"}}
	var series, used []string
	for _, k := range keys {
		if anyRecordHas(run, k.key) {
			series = append(series, k.label)
			used = append(used, k.key)
		}
	}
	if len(series) == 0 {
		return absent(id, title, "Records carry no Soft-F1 or VES (soft_f1, ves, rves_reward).")
	}
	var vals [][]float64
	maxV := 1.0
	for _, s := range run.Systems {
		js := judged(s.Records)
		row := make([]float64, len(used))
		for j, k := range used {
			row[j] = rateOf(js, func(r *Rec) (float64, bool) { return r.num(k) })
			if !math.IsNaN(row[j]) {
				maxV = math.Max(maxV, row[j])
			}
		}
		vals = append(vals, row)
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, systemNames(run), series, vals, maxV, func(v float64) string { return fmt.Sprintf("%.3f", v) }),
		Caption: "Means over judged questions that carry each score."}
}
