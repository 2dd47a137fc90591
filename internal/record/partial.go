package record

// PartialComponents are the components of Spider evaluation.py's partial matching, in
// the order it prints them. They are keys of Structural.ESMPartial.
var PartialComponents = []string{
	"select", "select(no AGG)", "where", "where(no OP)", "group(no Having)",
	"group", "order", "and/or", "IUEN", "keywords",
}

// PartialScore is one component of one question's partial match, as evaluation.py's
// eval_partial_match computes it: LabelTotal and PredTotal count the component's units in
// the gold and the predicted query (select items, WHERE conditions, GROUP BY columns,
// keywords ...; 0 or 1 for group, order, and/or) and Score is 1 when the prediction
// has as many units as the gold and all of them match, else 0 (the script's acc, rec and
// f1 of one question are all this one value).
//
// For and/or the two totals are as evaluation.py returns them: swapped when the
// conjunction sets differ (label_total is then the prediction's count). The swap only
// decides which average the question counts in, and is kept for conformance.
type PartialScore struct {
	Score      int `json:"score"`
	LabelTotal int `json:"label_total"`
	PredTotal  int `json:"pred_total"`
}
