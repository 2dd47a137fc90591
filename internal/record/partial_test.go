package record

import (
	"encoding/json"
	"testing"
)

// TestPartialScoreJSON: a score is the array [score, label_total, pred_total] both ways,
// and anything else is refused.
func TestPartialScoreJSON(t *testing.T) {
	in := map[string]PartialScore{"where": {Score: 0, LabelTotal: 2, PredTotal: 1}}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"where":[0,2,1]}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	var out map[string]PartialScore
	if err := json.Unmarshal(b, &out); err != nil || out["where"] != in["where"] {
		t.Errorf("round trip: %+v, %v", out, err)
	}
	for _, bad := range []string{`{"where":[1,2]}`, `{"where":{"score":1}}`, `{"where":"x"}`} {
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
