package metrics

import (
	"fmt"
	"math"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Options are the run settings some metrics depend on.
type Options struct {
	PassK   []int    // the Pass@k list (DefaultPassK when empty)
	Pricing *Pricing // prices tokens for the cost metric (nil: no cost)
}

// Declared lists every per-question metric in report order, each declared once.
//
// Ratios over a changing base (query revision's CI, I2C, ...), the usage means over the
// questions with usage (the NL2SQLBench repository's convention), per-module usage and
// the cross-system tables are analyses rather than per-question means over judged
// questions: they are defined in revision.go, cost.go and cross.go, computed once into
// summary.json's modules section, and rendered from there.
func Declared(opt Options) []Metric {
	ks := opt.PassK
	if len(ks) == 0 {
		ks = DefaultPassK
	}
	ms := []Metric{
		verdictMetric(PrimaryID, "EX", "the run's primary semantics (--semantics): correct / judged", record.Correct, true).
			with(0, Display{Legend: "EX = execution accuracy (result equals the gold's)", Paired: true, Compare: true, VerdictLine: true, Chart: ChartStructure}),
		intMetric("ts_ex", "TS-EX", "eval --test-suite: EX-correct and no realistic counterexample database (one the data's profile allows) found within the budget (internal/counterex)",
			func(r *record.Record) *int { return r.TSEX }).
			with(NeedTestSuite, Display{Legend: "TS-EX = test-suite EX: EX, and no database the data allows found on which the two queries differ", Compare: true, VerdictLine: true}),
		verdictMetric("incorrect", "incorrect", "ran, results differ: incorrect / judged", record.Incorrect, false).
			with(0, Display{Legend: "incorrect/error = wrong result / failed to run", VerdictLine: true, NotByDifficulty: true}),
		verdictMetric("error", "error", "failed to run: error / judged", record.Error, false).
			with(0, Display{LegendWith: "incorrect", VerdictLine: true, NotByDifficulty: true}),
		Metric{ID: "ex_bird", Label: "EX bird", Group: "headline", Fields: []string{"ex_bird"}, Unit: Percent, HigherIsBetter: true, Binary: true, Verdict: true,
			Over: AllJudged, MinCoverage: DefaultMinCoverage, Applies: "always: BIRD evaluation_ex semantics (rows as sets)",
			Value: func(_ string, r *record.Record) (float64, bool) { return float64(r.ExBird), r.Spider2Mode == "" }}.
			with(0, Display{Legend: "EX bird/spider = EX by BIRD's rules (rows as a set) / Spider's (a bag; ordered if gold is)",
				VerdictLine: true, NotByDifficulty: true}), // EX's variants: compared in the paired section, not on the first screen
		Metric{ID: "ex_spider", Label: "EX spider", Group: "headline", Fields: []string{"ex_spider"}, Unit: Percent, HigherIsBetter: true, Binary: true, Verdict: true,
			Over: AllJudged, MinCoverage: DefaultMinCoverage, Applies: "always: Spider test-suite execution semantics (bags; order when the gold orders)",
			Value: func(_ string, r *record.Record) (float64, bool) { return float64(r.ExSpider), r.Spider2Mode == "" }}.
			with(0, Display{LegendWith: "ex_bird", VerdictLine: true, NotByDifficulty: true}),
		spider2Final(), spider2Real(), // spider2.go: Spider 2.0's Final and Real scores
		intMetric("esm", "ESM", "Spider exact set match; needs the question's database and a gold SQL Spider's parser accepts",
			func(r *record.Record) *int { return r.ESM }).
			with(NeedESM, Display{Legend: "ESM = Spider's exact set match", Compare: true, VerdictLine: true, Chart: ChartStructure}),
		intMetric("etm", "ETM", "Enhanced Tree Matching; needs the question's database and a gold SQL that parses",
			func(r *record.Record) *int { return r.ETM }).
			with(NeedETM, Display{Legend: "ETM = Enhanced Tree Matching (SQL structure)", Compare: true, VerdictLine: true, Chart: ChartStructure}),
		Metric{ID: "flex", Label: "Flex", Group: "headline", Fields: []string{"flex", "flex_verdict"}, Unit: Percent, HigherIsBetter: true, Binary: true, Verdict: true,
			Over: JudgedWithValue, MinCoverage: DefaultMinCoverage, Applies: "eval --flex (on for --engine sqlpp): NL2SQL++'s flexible comparison, exact or column_flexible",
			Value: func(_ string, r *record.Record) (float64, bool) {
				if r.FlexVerdict == "" {
					return 0, false
				}
				return b2f(r.FlexVerdict == "exact" || r.FlexVerdict == "column_flexible"), true
			}}.
			with(NeedFlex, Display{Legend: "Flex = NL2SQL++'s flexible result comparison (extra or reordered columns allowed)", Paired: true, Compare: true, VerdictLine: true, Chart: ChartStructure}),
		softF1().
			with(NeedSoftF1, Display{Legend: "Soft-F1 = BIRD's partial credit over result cells", Paired: true, Compare: true, Chart: ChartEfficiency}),
		floatMetric("ves", "VES", "eval --ves: the BIRD paper's reward sqrt(gold time / prediction time), 0 when not correct",
			func(r *record.Record) *float64 { return r.VES }, nil).
			with(NeedTiming, Display{Legend: "VES/R-VES = BIRD's speed reward against the gold SQL (0 unless correct)", Paired: true, Compare: true, Chart: ChartEfficiency}),
		floatMetric("rves", "R-VES", "eval --ves: BIRD mini-dev's R-VES, the mean of sqrt(bucketed reward)",
			func(r *record.Record) *float64 { return r.RVESReward }, math.Sqrt).
			with(NeedTiming, Display{LegendWith: "ves", Paired: true, Compare: true, Chart: ChartEfficiency}),
	}
	ms[len(ms)-1].Fields = []string{"rves_reward"}
	for _, s := range []struct {
		id, label, legend string
		get               func(*record.Record) *float64
	}{
		{"schema_table_p", "table P", "table P/R/F1 = precision / recall / F1 of the tables the prediction uses against the gold's", func(r *record.Record) *float64 { return r.SchemaTableP }},
		{"schema_table_r", "table R", "", func(r *record.Record) *float64 { return r.SchemaTableR }},
		{"schema_table_f1", "table F1", "", func(r *record.Record) *float64 { return r.SchemaTableF1 }},
		{"schema_column_p", "column P", "column P/R/F1 = the same for columns", func(r *record.Record) *float64 { return r.SchemaColumnP }},
		{"schema_column_r", "column R", "", func(r *record.Record) *float64 { return r.SchemaColumnR }},
		{"schema_column_f1", "column F1", "", func(r *record.Record) *float64 { return r.SchemaColumnF1 }},
	} {
		m := schemaMetric(s.id, s.label, s.get)
		if m.Display.Legend = s.legend; s.legend == "" {
			m.Display.LegendWith = "schema_table_p"
			if s.id[7] == 'c' {
				m.Display.LegendWith = "schema_column_p"
			}
		}
		ms = append(ms, m)
	}
	for _, k := range ks {
		ms = append(ms, passAtMetric(k))
	}
	ms = append(ms, usageMetrics(opt.Pricing)...)
	return append(ms, llmJudgeMetrics()...)
}

// with sets the work a metric needs and how it is displayed.
func (m Metric) with(n Need, d Display) Metric {
	m.Needs, m.Display = n, d
	return m
}

func verdictMetric(id, label, applies string, v record.Verdict, higher bool) Metric {
	return Metric{ID: id, Label: label, Group: "headline", Fields: []string{"verdict"}, Unit: Percent, HigherIsBetter: higher, Binary: true,
		Over: AllJudged, MinCoverage: DefaultMinCoverage, Applies: applies,
		Value: func(_ string, r *record.Record) (float64, bool) { return b2f(r.Verdict == v), true }}
}

// intMetric is a 0/1 verdict record field that is absent when it could not be computed;
// an absent value counts as no match (the denominator stays every judged question, as
// execution accuracy's), and coverage says how many questions it was computed for.
func intMetric(id, label, applies string, get func(*record.Record) *int) Metric {
	return Metric{ID: id, Label: label, Group: "headline", Fields: []string{id}, Unit: Percent, HigherIsBetter: true, Binary: true, Verdict: true,
		Over: AllJudged, MinCoverage: DefaultMinCoverage, Applies: applies,
		Value: func(_ string, r *record.Record) (float64, bool) {
			if p := get(r); p != nil {
				return float64(*p), true
			}
			return 0, false
		}}
}

// softF1 is a score, and Soft-F1 = 1 a verdict (the results match as BIRD mini-dev
// pairs them), which agreement compares with labels like the others.
func softF1() Metric {
	m := floatMetric("soft_f1", "Soft-F1", "every judged record: BIRD mini-dev's Soft-F1 against the first gold that ran",
		func(r *record.Record) *float64 { return r.SoftF1 }, nil)
	m.Verdict = true
	return m
}

// floatMetric is a score field of every judged record; f, when set, maps the stored
// value to the averaged one (R-VES averages the square root of its reward).
func floatMetric(id, label, applies string, get func(*record.Record) *float64, f func(float64) float64) Metric {
	return Metric{ID: id, Label: label, Group: "headline", Fields: []string{id}, Unit: Percent, HigherIsBetter: true,
		Over: AllJudged, MinCoverage: DefaultMinCoverage, Applies: applies,
		Value: func(_ string, r *record.Record) (float64, bool) {
			p := get(r)
			if p == nil {
				return 0, false
			}
			if f != nil {
				return f(*p), true
			}
			return *p, true
		}}
}

// schemaMetric is a schema-selection score: macro over the judged questions where it is
// defined (a gold set that is not empty and a predicted schema).
func schemaMetric(id, label string, get func(*record.Record) *float64) Metric {
	return Metric{ID: id, Label: label, Group: "schema", Fields: []string{id}, Unit: Percent, HigherIsBetter: true,
		Over: JudgedWithValue, Needs: NeedLinking | NeedModules, Applies: "a gold schema from the gold SQL and a predicted schema (reported, or read from the SQL); undefined for an empty gold set",
		Value: func(_ string, r *record.Record) (float64, bool) {
			if p := get(r); p != nil {
				return *p, true
			}
			return 0, false
		}}
}

// passAtMetric is Pass@k: one of the first k candidates correct; a question with fewer
// than k candidates uses all it has, one without candidates counts its judged SQL.
func passAtMetric(k int) Metric {
	return Metric{ID: fmt.Sprintf("pass@%d", k), Label: fmt.Sprintf("Pass@%d", k), Group: "candidates",
		Fields: []string{"candidates", "pass_at"}, Unit: Percent, HigherIsBetter: true, Over: AllJudged, Binary: true,
		MinCoverage: DefaultMinCoverage, Applies: "a system that reported several candidates for some question",
		Needs: NeedLinking | NeedModules, Display: Display{Legend: fmt.Sprintf("Pass@%d = one of the first %d candidates is correct", k, k)},
		Value: func(_ string, r *record.Record) (float64, bool) {
			ok, _ := PassAt(r, k)
			return b2f(ok), true
		},
		Usable: func(recs []record.Record) (bool, string) {
			for i := range recs {
				if recs[i].Judged() && len(recs[i].Candidates) > 1 {
					return true, ""
				}
			}
			return false, "1 candidate"
		}}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
