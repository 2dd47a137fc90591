package metrics

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// usageMetrics are the end-to-end usage means per judged question (a question that
// reported no usage counts 0; coverage says how many did): tokens, LLM calls, cost (when
// a pricing table prices the system) and latency.
func usageMetrics(p *Pricing) []Metric {
	usage := func(id, label, legend string, unit Unit, fields []string, applies string, v func(system string, r *record.Record) (float64, bool)) Metric {
		return Metric{ID: id, Label: label, Group: "usage", Fields: fields, Unit: unit, Over: AllJudged, Applies: applies, Value: v,
			Needs: NeedModules, Display: Display{Legend: legend}}
	}
	return []Metric{
		usage("tokens", "tokens", "tokens = prompt + completion tokens per question", Tokens, []string{"prompt_tokens", "completion_tokens", "total_tokens"},
			"a system that reported token counts: prompt + completion, else the reported total",
			func(_ string, r *record.Record) (float64, bool) {
				t, _, _, _ := tokensOf(r.Usage)
				return float64(t), t > 0
			}),
		usage("calls", "calls", "calls = LLM calls per question", Calls, []string{"llm_calls"}, "a system that reported LLM calls",
			func(_ string, r *record.Record) (float64, bool) { return float64(r.LLMCalls), r.LLMCalls > 0 }),
		usage("cost", "cost $", "cost $ = US dollars per question at the --pricing table's prices", Dollars, []string{"prompt_tokens", "completion_tokens", "total_tokens"},
			"token counts and a pricing table (--pricing) that prices the system",
			func(system string, r *record.Record) (float64, bool) {
				_, m, ok := p.ModelFor(system)
				t, pr, co, _ := tokensOf(r.Usage)
				if !ok || t == 0 {
					return 0, false
				}
				return m.Cost(pr, co, p.Share()), true
			}),
		usage("latency_ms", "latency ms", "latency ms = the system's wall time per question", Millis, []string{"latency_ms"}, "a system that reported its wall time per question",
			func(_ string, r *record.Record) (float64, bool) { return float64(r.LatencyMS), r.LatencyMS > 0 }),
	}
}
