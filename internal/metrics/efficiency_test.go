package metrics

import (
	"math"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func fp(x float64) *float64 { return &x }

func effRec(diff string, v record.Verdict, f1 float64, ves, rves *float64) record.Record {
	r := record.Record{Difficulty: diff, Verdict: v}
	r.SoftF1 = fp(f1)
	r.VES, r.RVESReward = ves, rves
	if ves != nil {
		r.Timing = "robust"
	}
	return r
}

func TestExecEfficiency(t *testing.T) {
	timed := []record.Record{
		effRec("easy", record.Correct, 1, fp(1.5), fp(1.25)),
		effRec("easy", record.Incorrect, 0.5, fp(0), fp(0)),
		effRec("hard", record.Correct, 1, fp(0.5), fp(0.25)),
		effRec("hard", record.Error, 0, fp(0), fp(0)),
		{Difficulty: "hard", Verdict: record.Skipped}, // not judged: left out
	}
	s := SummarizeExecEfficiency(SystemRecords{Name: "sys", Records: timed})
	if s.Timing != "robust" {
		t.Errorf("timing %q", s.Timing)
	}
	o := s.Overall
	// Soft-F1 (1 + .5 + 1 + 0) / 4; VES (1.5 + .5) / 4; R-VES (sqrt 1.25 + sqrt .25) / 4
	want := []struct {
		name      string
		got, want float64
	}{
		{"soft_f1", o.SoftF1, 62.5},
		{"ves", *o.VES, 50},
		{"rves", *o.RVES, 100 * (math.Sqrt(1.25) + 0.5) / 4},
		{"easy rves", *s.ByDifficulty[0].RVES, 100 * math.Sqrt(1.25) / 2},
		{"hard soft_f1", s.ByDifficulty[1].SoftF1, 50},
	}
	for _, w := range want {
		if math.Abs(w.got-w.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", w.name, w.got, w.want)
		}
	}
	if o.Judged != 4 || o.Timed != 4 {
		t.Errorf("judged %d timed %d, want 4 4", o.Judged, o.Timed)
	}
	if len(s.ByDifficulty) != 2 || s.ByDifficulty[0].Name != "easy" {
		t.Errorf("by difficulty: %+v", s.ByDifficulty)
	}

	// Untimed (or partly timed) records give Soft-F1 only.
	untimed := []record.Record{effRec("easy", record.Correct, 1, nil, nil), effRec("easy", record.Correct, 1, fp(1), fp(1))}
	u := ExecEfficiencyOf("all", untimed)
	if u.VES != nil || u.RVES != nil || u.SoftF1 != 100 || u.Timed != 1 {
		t.Errorf("partly timed: %+v", u)
	}
	if e := ExecEfficiencyOf("none", nil); e.Judged != 0 || e.SoftF1 != 0 {
		t.Errorf("empty: %+v", e)
	}
}
