package match

import (
	"context"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestETMAnnotatorModes: official mode fills etm alone; corrected mode fills etm with its
// own verdict and, only where official mode differs, etm_official and the quirk that
// decided. A window-function gold gets a verdict in both (it had none).
func TestETMAnnotatorModes(t *testing.T) {
	path := etmModeDB(t).path
	tests := []struct {
		name        string
		gold        []string
		pred        string
		official    int
		corrected   int
		offRecorded *int // etm_official under corrected mode
		rulePrefix  string
	}{
		{"alias: modes differ", []string{"SELECT p_id, count(*) FROM c GROUP BY p_id ORDER BY count(*) DESC LIMIT 1"},
			"SELECT p_id, count(*) AS n FROM c GROUP BY p_id ORDER BY n DESC LIMIT 1", 0, 1, ptr(0), "alias"},
		{"rule 10: modes differ", []string{"SELECT p_id, max(v) FROM c GROUP BY p_id"},
			"SELECT p_id, v FROM c GROUP BY p_id ORDER BY v DESC LIMIT 1", 1, 0, ptr(1), "rule10"},
		{"second gold decides", []string{"SELECT name FROM p", "SELECT p_id, count(*) FROM c GROUP BY p_id ORDER BY count(*) DESC LIMIT 1"},
			"SELECT p_id, count(*) AS n FROM c GROUP BY p_id ORDER BY n DESC LIMIT 1", 0, 1, ptr(0), "alias"},
		{"modes agree", []string{"SELECT count(*) FROM c"}, "SELECT count(id) FROM c", 1, 1, nil, ""},
		{"window gold", []string{"SELECT name, RANK() OVER (ORDER BY id DESC) AS r FROM p"},
			"SELECT name FROM p ORDER BY id DESC LIMIT 1", 0, 0, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := &dataset.Question{Index: 1, Gold: tc.gold}
			for _, m := range []ETMMode{ETMOfficial, ETMCorrected} {
				a := NewETMAnnotatorMode(false, m)
				defer a.Close()
				rec := &record.Record{PredSQL: tc.pred}
				if err := a.Annotate(context.Background(), q, path, rec); err != nil {
					t.Fatal(err)
				}
				want := tc.official
				if m == ETMCorrected {
					want = tc.corrected
				}
				if rec.ETM == nil || *rec.ETM != want {
					t.Fatalf("%s: etm %v, want %d", m, rec.ETM, want)
				}
				wantOff := tc.offRecorded
				if m == ETMOfficial {
					wantOff = nil
				}
				if (rec.ETMOfficial == nil) != (wantOff == nil) || (wantOff != nil && *rec.ETMOfficial != *wantOff) {
					t.Errorf("%s: etm_official %v, want %v", m, rec.ETMOfficial, wantOff)
				}
				if wantOff != nil && (len(rec.ETMModeRule) < len(tc.rulePrefix) || rec.ETMModeRule[:len(tc.rulePrefix)] != tc.rulePrefix) {
					t.Errorf("%s: etm_mode_rule %q, want %s...", m, rec.ETMModeRule, tc.rulePrefix)
				}
			}
		})
	}
}
