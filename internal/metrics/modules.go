package metrics

import (
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ModulesSummary is summary.json's "modules" section: the NL2SQLBench module metrics of
// every system (schema selection, candidate generation with Pass@k, query revision,
// tokens / calls / cost end to end and per module) and the cross-system analysis.
type ModulesSummary struct {
	PassK         []int           `json:"pass_k"`
	CacheHitShare float64         `json:"cache_hit_share"`
	Pricing       string          `json:"pricing_file,omitempty"`
	Systems       []SystemModules `json:"systems"`
	Cross         *CrossSystem    `json:"cross_system,omitempty"`
	// Notes state the conventions behind the numbers, for readers of summary.json.
	Notes []string `json:"notes"`
}

// SystemModules is one system's module  Sections a system gives no data for are
// omitted (no schema selection, no revision, no usage).
type SystemModules struct {
	System              string                `json:"system"`
	SchemaSelection     *SchemaSelection      `json:"schema_selection,omitempty"`
	CandidateGeneration CandidateGeneration   `json:"candidate_generation"`
	Revision            *Revision             `json:"query_revision,omitempty"`
	Usage               *TokenCost            `json:"usage,omitempty"`
	UsageByModule       map[string]*TokenCost `json:"usage_by_module,omitempty"`
}

// moduleNotes are the conventions every modules section follows.
var moduleNotes = []string{
	"schema selection: per-question P/R/F1 averaged over judged questions (macro); F1 is the mean of per-question F1s; columns are table.column pairs; an empty gold set is undefined (left out, counted as undefined); an empty selection scores 0",
	"pred_schema_source 'pred_sql' means the system reported no schema selection and the schema was extracted from its judged SQL",
	"pass@k: correct if any of the first k candidates is correct; questions with fewer than k candidates use all they have (fewer_than_k); a record without candidates counts its judged SQL as its one candidate",
	"query revision: pre = first candidate, post = judged SQL, matched by question id; ratios with an empty denominator are n/a",
	"usage: mean_all_questions divides by every judged question; mean_nonzero_questions by those with non-zero usage (the NL2SQLBench repository's convention); unreported usage is unknown, so systems without any get no usage section",
	"cross-system: full recall = table and column recall both 1; wrong = incorrect or error; questions judged for every system only",
}

// BuildModules computes the modules section. moduleUsage[i] is system i's per-question,
// per-module usage (nil when its file has none); pricing may be nil (no cost).
func BuildModules(systems []SystemRecords, moduleUsage []map[string]map[string]record.Usage, pricing *Pricing, pricingFile string, ks []int) *ModulesSummary {
	ms := &ModulesSummary{PassK: ks, CacheHitShare: pricing.Share(), Pricing: pricingFile, Notes: moduleNotes}
	eff := map[string]*TokenCost{}
	for i, s := range systems {
		sm := SystemModules{
			System:              s.Name,
			SchemaSelection:     SchemaSelectionOf(s.Records),
			CandidateGeneration: CandidateGenerationOf(s.Records, ks),
			Revision:            RevisionOfRecords(s.Records),
			Usage:               TokenCostOf(s.Name, s.Records, pricing),
		}
		eff[s.Name] = sm.Usage
		if i < len(moduleUsage) && moduleUsage[i] != nil {
			var ids []string
			for j := range s.Records {
				r := &s.Records[j]
				if !r.Judged() {
					continue
				}
				id := r.QuestionID
				if _, ok := moduleUsage[i][id]; !ok && r.Question != "" {
					if _, ok := moduleUsage[i][strings.TrimSpace(r.Question)]; ok {
						id = strings.TrimSpace(r.Question)
					}
				}
				ids = append(ids, id)
			}
			if m := ModuleTokenCost(s.Name, moduleUsage[i], ids, pricing); len(m) > 0 {
				sm.UsageByModule = m
			}
		}
		ms.Systems = append(ms.Systems, sm)
	}
	if len(systems) > 1 || (len(systems) == 1 && ms.Systems[0].SchemaSelection != nil) {
		ms.Cross = CrossSystemOf(systems, eff)
	}
	return ms
}
