package record

import (
	"encoding/json"
	"fmt"
	"strconv"
)

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
// In records.jsonl a score is the array [score, label_total, pred_total] (it is on every
// ESM record, ten times: objects made records.jsonl a third larger), and a component
// neither query has (both totals 0, which always scores 1 and counts in no average) is
// left out of the map.
//
// For and/or the two totals are as evaluation.py returns them: swapped when the
// conjunction sets differ (label_total is then the prediction's count). The swap only
// decides which average the question counts in, and is kept for conformance.
type PartialScore struct {
	Score      int
	LabelTotal int
	PredTotal  int
}

// Trivial reports whether neither query has the component.
func (p PartialScore) Trivial() bool { return p.LabelTotal == 0 && p.PredTotal == 0 }

// MarshalJSON writes [score, label_total, pred_total].
func (p PartialScore) MarshalJSON() ([]byte, error) {
	return p.AppendJSON(make([]byte, 0, 16)), nil
}

// AppendJSON appends what MarshalJSON returns (the generated record encoder calls it:
// ten per ESM record, without allocating).
func (p PartialScore) AppendJSON(b []byte) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(p.Score), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.LabelTotal), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.PredTotal), 10)
	return append(b, ']')
}

// UnmarshalJSON reads [score, label_total, pred_total].
func (p *PartialScore) UnmarshalJSON(b []byte) error {
	var a []int
	if err := json.Unmarshal(b, &a); err != nil || len(a) != 3 {
		return fmt.Errorf("partial score %s: want [score, label_total, pred_total]", b)
	}
	p.Score, p.LabelTotal, p.PredTotal = a[0], a[1], a[2]
	return nil
}
