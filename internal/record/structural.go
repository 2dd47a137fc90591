package record

// Structural holds the structural-match verdicts of one record: exact set match and ETM.
// Fields are added here, never renamed.
//
// ESM is a pointer so that "not computed" is told apart from "no match": it is 1 or 0
// when computed and absent from the JSON when it was not (the question's database is
// missing, or the gold SQL is one Spider's parser rejects, where the official script
// stops). Which variant was computed (official, or the stricter value / DISTINCT
// checking) is recorded once per run, in summary.json's structural section.
type Structural struct {
	ESM *int `json:"esm,omitempty"` // Spider exact set match (internal/match), 0/1
	// ETM is Enhanced Tree Matching (internal/match, etm.go), 0/1, absent when not
	// computed (database missing, gold query unusable); ETMRules lists the Table 5 rules
	// ("P0".."P8", "1".."26") that fired on the prediction or the gold query.
	ETM *int `json:"etm,omitempty"`
	// ESMPartial is Spider's partial-match breakdown of the ESM comparison, by component
	// (PartialComponents), present whenever ESM is; a component neither query has is
	// left out (see PartialScore).
	ESMPartial map[string]PartialScore `json:"esm_partial,omitempty"`
	ETMRules   []string                `json:"etm_rules,omitempty"`
	// ETMOfficial is set only under --etm-mode corrected, and only where the official
	// mode (the ETM authors' script) gives another verdict than etm: that verdict.
	// ETMModeRule then names the script quirk that decided (docs/etm-modes.md).
	ETMOfficial *int   `json:"etm_official,omitempty"`
	ETMModeRule string `json:"etm_mode_rule,omitempty"`
}
