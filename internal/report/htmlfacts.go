package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// The drill-down's table of one answer: a label beside each value, read from the record
// and the registry's per-question values (never an aggregate), in words a reader of the
// report knows without the record's field names.

// Fact is one labelled row of an answer's table; Hint is the row's tooltip.
type Fact struct{ Label, Value, Hint string }

// matchText prints a per-question 0/1 verdict.
func matchText(v int) string {
	if v == 1 {
		return "match"
	}
	return "no match"
}

// answerFacts lists what the record says about one answer, verdicts first.
func answerFacts(system string, r *record.Record, perQuestion []metrics.Metric) []Fact {
	v := string(r.Verdict)
	if r.ErrorCategory != "" {
		v += " (" + strings.ReplaceAll(string(r.ErrorCategory), "_", " ") + ")"
	}
	fs := []Fact{{Label: "verdict", Value: v, Hint: "the judged SQL's verdict under the run's semantics"}}
	if r.Judged() { // a skipped or gold_error question has no EX: it must never read as wrong
		fs = append(fs,
			Fact{"EX, BIRD semantics", matchText(r.ExBird), "rows compared as sets (BIRD evaluation_ex)"},
			Fact{"EX, Spider semantics", matchText(r.ExSpider), "rows compared as bags, in order when the gold orders (Spider test-suite)"})
		fs = append(fs, rewriteFacts(r)...)
	}
	if r.ESM != nil {
		fs = append(fs, Fact{"ESM (exact set match)", matchText(*r.ESM), "Spider's exact set match of the SQL's components"})
	}
	if r.ETM != nil {
		fs = append(fs, Fact{"ETM (tree match)", matchText(*r.ETM), "Enhanced Tree Matching of the SQL trees"})
	}
	if r.TSEX != nil {
		fs = append(fs, Fact{"TS-EX (counterexample search)", matchText(*r.TSEX), "EX correct and no realistic database (one the data's profile allows) found on which the prediction and the gold differ (eval --test-suite)"})
	}
	if r.TSProof != "" {
		v := r.TSProof
		if p := r.Proof; p != nil {
			v = fmt.Sprintf("%s (at most %d rows per table, solver %d ms)", v, p.Bound, p.SolverMS)
			if p.Reason != "" {
				v += ": " + p.Reason
			}
		}
		fs = append(fs, Fact{"bounded proof (eval --proof)", v, metrics.ProofPromise})
	}
	if len(r.ETMRules) > 0 {
		fs = append(fs, Fact{"ETM rules fired", strings.Join(r.ETMRules, ", "), "the equivalence rules ETM applied"})
	}
	if r.FlexVerdict != "" {
		fs = append(fs, Fact{"Flex (NL2SQL++)", r.FlexVerdict, "NL2SQL++'s flexible result comparison"})
	}
	if r.Judged() {
		for i := range perQuestion {
			m := &perQuestion[i]
			if m.Usable != nil && len(r.Candidates) < 2 {
				continue // Pass@k of a single candidate is its verdict
			}
			if val, ok := m.Value(system, r); ok {
				fs = append(fs, Fact{humanLabel(m.Label), unitText(m.Unit, val), m.Applies})
			}
		}
	}
	if len(r.SelectedSchema) > 0 {
		fs = append(fs, Fact{"schema selected", schemaText(r.SelectedSchema), "the tables and columns the system reported selecting"})
	}
	if r.PredSchema != nil {
		fs = append(fs, Fact{"schema used by the SQL", schemaText(r.PredSchema), "the tables and columns the judged SQL reads"})
	}
	return fs
}

// humanLabel spells out the schema columns' P and R.
func humanLabel(label string) string {
	switch {
	case strings.HasSuffix(label, " P"):
		return strings.TrimSuffix(label, " P") + " precision"
	case strings.HasSuffix(label, " R"):
		return strings.TrimSuffix(label, " R") + " recall"
	case label == "cost $":
		return "cost"
	case label == "latency ms":
		return "latency"
	}
	return label
}

// unitText prints one question's value with its unit: rates in %, counts as whole
// numbers when they are.
func unitText(u metrics.Unit, v float64) string {
	switch u {
	case metrics.Percent:
		return u.Format(v) + "%"
	case metrics.Tokens, metrics.Calls:
		if v == math.Trunc(v) {
			return fmt.Sprintf("%.0f", v)
		}
		return u.Format(v)
	case metrics.Dollars:
		return "$" + u.Format(v)
	case metrics.Millis:
		return u.Format(v) + " ms"
	}
	return u.Format(v)
}

// rewriteFacts says where Spider's official rewrite changed what the answer's queries
// mean, and the official EX where --spider-mode corrected judged otherwise.
func rewriteFacts(r *record.Record) []Fact {
	var fs []Fact
	if len(r.SpiderRewriteChanged) > 0 {
		v := "changes the " + strings.Join(r.SpiderRewriteChanged, " and ")
		if len(r.SpiderRewriteCorners) > 0 {
			v += ": " + strings.Join(r.SpiderRewriteCorners, ", ")
		}
		fs = append(fs, Fact{"Spider's rewrite", v, "Spider's official rewrite changes what this query means (docs/spider-modes.md)"})
	}
	if r.ExSpiderOfficial != nil {
		fs = append(fs, Fact{"EX, Spider semantics, official rewrite", matchText(*r.ExSpiderOfficial), "--spider-mode corrected: the official rewrite's verdict, which differs"})
	}
	return fs
}
