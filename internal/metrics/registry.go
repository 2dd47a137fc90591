package metrics

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// The metric registry: every per-question metric of nl2sqlbench is declared once, as a
// Metric (declared.go), and aggregated once, by Aggregate (aggregate.go), into
// summary.json's "metrics" section. Every output (terminal, --json, Markdown, the HTML
// report, the dashboard) prints that section's values and texts and never averages
// records itself, so one metric reads the same everywhere.
//
// To add a metric: one entry in Declared (its id, label, the record fields it reads, its
// per-question value, its denominator, unit, when it applies, the work it needs and how
// outputs display it, legend included), and, if a judge annotator fills its record
// field, one line wiring that annotator into the run. No output keeps a list of metric
// ids: each reads the declaration (Declaration, DisplayOf).

// Unit says how a metric's value reads and is printed.
type Unit string

// Units.
const (
	Percent Unit = "%"      // a mean of per-question values in [0, 1] (or near: VES), shown x100
	Tokens  Unit = "tokens" // a mean token count per question
	Calls   Unit = "calls"  // a mean count of LLM calls per question
	Dollars Unit = "$"      // a mean cost per question in US dollars
	Millis  Unit = "ms"     // a mean wall time per question in milliseconds
)

// Format prints a value in this unit at the one rounding every output uses.
func (u Unit) Format(v float64) string {
	switch u {
	case Percent:
		return fmt.Sprintf("%.2f", 100*v)
	case Tokens, Millis:
		return fmt.Sprintf("%.1f", v)
	case Calls:
		return fmt.Sprintf("%.2f", v)
	case Dollars:
		return fmt.Sprintf("%.6f", v)
	}
	return fmt.Sprintf("%g", v)
}

// Over names a metric's denominator.
type Over string

// Denominators.
const (
	// AllJudged averages over every judged question (correct, incorrect or error); a
	// judged question without a value counts 0, as the official tools count it.
	AllJudged Over = "judged"
	// JudgedWithValue averages over the judged questions that have a value (schema F1 is
	// undefined for an empty gold set; I2C only exists where the first candidate was
	// incorrect).
	JudgedWithValue Over = "judged_with_value"
	// AllRecords averages over every record of the slice, judged or not (a record
	// without a value counts 0): Spider 2.0's "Real" score divides by every task of the
	// suite, submitted or not.
	AllRecords Over = "all_records"
)

// DefaultMinCoverage is the share of judged questions a metric must have a value for to
// be reported as a number; below it the metric reads "n/a: covers n of N".
const DefaultMinCoverage = 0.9

// Metric declares one per-question metric.
type Metric struct {
	ID    string // key in summary.json ("ex", "soft_f1", "pass@5"); never renamed
	Label string // column header ("EX", "Soft-F1", "Pass@5")
	Group string // which table shows it: "headline", "schema", "candidates", "revision", "usage"
	// Fields are the record fields the value reads (or that an annotator fills for it).
	Fields         []string
	Unit           Unit
	HigherIsBetter bool
	Over           Over
	// MinCoverage is the share of judged questions with a value below which the metric
	// is not applicable; 0 for metrics that by definition cover a subset.
	MinCoverage float64
	// Applies says when the metric exists, for readers of summary.json.
	Applies string
	// Value is the metric's value for one judged record; ok is false when it has none.
	Value func(system string, r *record.Record) (v float64, ok bool)
	// Binary marks a metric whose per-question value is 0 or 1 (a rate): its interval
	// is Wilson's; other metrics' intervals are bootstrapped (interval.go).
	Binary bool
	// Verdict marks a metric whose per-question value says whether the prediction
	// answers the question: 1 correct, anything else incorrect (Soft-F1 = 1). Agreement
	// (agreement.go) compares each such verdict with expert labels and with the others.
	Verdict bool
	// Usable, when set, says whether a system's records can carry the metric at all
	// (Pass@k needs several candidates); reason is shown instead of a number.
	Usable func(recs []record.Record) (ok bool, reason string)
	// Needs is the work beyond executing and comparing results that the metric needs
	// (selection.go): what eval --metrics turns on for it.
	Needs Need
	// Display says how outputs show the metric.
	Display Display
}

// Display is where and how outputs show a metric, beside its Group's table.
type Display struct {
	// Legend explains the label in words, in every legend that prints it ("EX =
	// execution accuracy ..."). A metric explained with another's entry names it in
	// LegendWith instead ("error" is explained with "incorrect": "incorrect/error = ...").
	Legend     string
	LegendWith string
	// Paired: the paired table (eval --details, the reports) shows its tests; every
	// headline metric's tests are in summary.json's paired section regardless.
	Paired bool
	// Compare: the first screen may compare systems on it against the best one
	// (summary.json's vs_best): a score, not a share of failures.
	Compare bool
	// VerdictLine: the drill-down shows it with a question's verdict instead of listing
	// its per-question value.
	VerdictLine bool
	// NotByDifficulty: the difficulty table leaves it out (a share beside EX, or EX under
	// the other semantics, read from the headline table).
	NotByDifficulty bool
	// Chart names the HTML report's bar chart that draws it beside the others of that
	// chart (ChartStructure, ChartEfficiency); "" for none. The report asks ChartIDs for
	// a chart's metrics instead of naming them.
	Chart string
}

// PrimaryID is the headline metric's id: EX under the run's semantics, the share of
// correct verdicts (what a chart of verdicts or of EX against cost draws).
const PrimaryID = "ex"

// The HTML report's registry-drawn bar charts.
const (
	ChartStructure  = "structure"  // EX against the structural and flexible matches
	ChartEfficiency = "efficiency" // partial credit and speed rewards
)

// ChartIDs lists, in the registry's order, the metrics a chart draws.
func ChartIDs(chart string) []string {
	var ids []string
	for _, m := range Declared(Options{}) {
		if m.Display.Chart == chart {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// Definition is a Metric as summary.json describes it.
type Definition struct {
	ID             string   `json:"id"`
	Label          string   `json:"label"`
	Group          string   `json:"group"`
	Fields         []string `json:"fields"`
	Unit           Unit     `json:"unit"`
	HigherIsBetter bool     `json:"higher_is_better"`
	Over           Over     `json:"over"`
	MinCoverage    float64  `json:"min_coverage"`
	Applies        string   `json:"applies,omitempty"`
}

// Definition returns the metric's description.
func (m *Metric) Definition() Definition {
	return Definition{ID: m.ID, Label: m.Label, Group: m.Group, Fields: m.Fields, Unit: m.Unit,
		HigherIsBetter: m.HigherIsBetter, Over: m.Over, MinCoverage: m.MinCoverage, Applies: m.Applies}
}

// Value is one metric's aggregate over one slice of one system's records.
type Value struct {
	ID   string `json:"id,omitempty"`   // the metric (set on the overall value)
	Name string `json:"name,omitempty"` // the difficulty (set on per-difficulty values)
	// Value is the mean over the denominator; nil when no judged question has a value.
	Value *float64 `json:"value"`
	// N counts the judged questions with a value; Denominator the questions averaged
	// over; Judged the judged questions of the slice; Coverage = N / Judged.
	N           int     `json:"n"`
	Denominator int     `json:"denominator"`
	Judged      int     `json:"judged"`
	Coverage    float64 `json:"coverage"`
	// Applicable is false when the metric cannot be reported for this slice: no value,
	// coverage under the metric's minimum, or a system that cannot carry it.
	Applicable bool `json:"applicable"`
	// Text is the value as every output prints it ("83.23", "n/a: covers 1 of 52").
	Text string `json:"text"`
	// CILow and CIHigh bound the value's 95% confidence interval, computed by CIMethod
	// ("wilson" for rates, "bootstrap" for means: docs/statistics.md); CIText prints them
	// at the unit's rounding ("[80.81, 85.40]"). Set only when Applicable.
	CILow        *float64 `json:"ci_low,omitempty"`
	CIHigh       *float64 `json:"ci_high,omitempty"`
	CIMethod     string   `json:"ci_method,omitempty"`
	CIText       string   `json:"ci_text,omitempty"`
	ByDifficulty []Value  `json:"by_difficulty,omitempty"`
}

// Float is the value, or NaN when there is none or it is not applicable.
func (v *Value) Float() float64 {
	if v == nil || v.Value == nil || !v.Applicable {
		return math.NaN()
	}
	return *v.Value
}

// naText says why a value is not a number.
func naText(n, judged int, reason string) string {
	switch {
	case reason != "":
		return "n/a: " + reason
	case judged == 0:
		return "n/a: nothing judged"
	}
	return fmt.Sprintf("n/a: covers %d of %d", n, judged)
}

// declarations indexes the default registry by id, built once.
var declarations = sync.OnceValue(func() map[string]Metric {
	out := map[string]Metric{}
	for _, m := range Declared(Options{}) {
		out[m.ID] = m
	}
	return out
})

// Declaration returns the registry's declaration of metric id, for outputs that render
// a summary.json: its legend and display. Pass@k is declared for any k. ok is false for
// an id the registry does not declare (a summary written by another build).
func Declaration(id string) (Metric, bool) {
	if m, ok := declarations()[id]; ok {
		return m, true
	}
	if k, err := strconv.Atoi(strings.TrimPrefix(id, "pass@")); err == nil && k > 0 && strings.HasPrefix(id, "pass@") {
		return passAtMetric(k), true
	}
	return Metric{}, false
}

// DisplayOf is metric id's display (the zero Display for an undeclared id).
func DisplayOf(id string) Display {
	m, _ := Declaration(id)
	return m.Display
}

// LegendOf is the legend entry that explains metric id's label, following LegendWith;
// "" when none does.
func LegendOf(id string) string {
	d := DisplayOf(id)
	if d.LegendWith != "" {
		return DisplayOf(d.LegendWith).Legend
	}
	return d.Legend
}
