package metrics

import (
	"encoding/json"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestRevisionFormulas(t *testing.T) {
	v := func(x record.Verdict) record.Candidate { return record.Candidate{Verdict: x} }
	// Pre:  C C C I I E E E E + "x" only before, "y" only after.
	// Post: C I E C I C C E I
	pre := map[string]record.Candidate{"1": v(C), "2": v(C), "3": v(C), "4": v(I), "5": v(I), "6": v(E), "7": v(E), "8": v(E), "9": v(E), "x": v(C)}
	post := map[string]record.Candidate{"1": v(C), "2": v(I), "3": v(E), "4": v(C), "5": v(I), "6": v(C), "7": v(C), "8": v(E), "9": v(I), "y": v(C)}
	rv := RevisionOf(pre, post)
	if rv.Questions != 9 || rv.Unmatched != 2 {
		t.Fatalf("questions %d, unmatched %d", rv.Questions, rv.Unmatched)
	}
	// CR_pre = 3/9, CR_post = 4/9: CI = (4/9-3/9)/(3/9) = 1/3.
	// I2C = 1/2, E2C = 2/4, C2I = 1/3, C2E = 1/3.
	checks := []struct {
		name string
		r    Ratio
		want float64
	}{{"CI", rv.CI, 1.0 / 3}, {"I2C", rv.I2C, 0.5}, {"E2C", rv.E2C, 0.5}, {"C2I", rv.C2I, 1.0 / 3}, {"C2E", rv.C2E, 1.0 / 3}}
	for _, c := range checks {
		if !c.r.Defined() || !near(c.r.Value(), c.want) {
			t.Errorf("%s = %v/%v, want %v", c.name, c.r.Num, c.r.Den, c.want)
		}
	}
	if !near(rv.Post.Correct, 4.0/9) || !near(rv.Post.Incorrect, 3.0/9) || !near(rv.Post.Error, 2.0/9) {
		t.Errorf("post rates %+v", rv.Post)
	}
	if rv.Transitions["error->correct"] != 2 || rv.Transitions["correct->error"] != 1 {
		t.Errorf("transitions %v", rv.Transitions)
	}
}

func TestRevisionEmptyDenominatorsAreNA(t *testing.T) {
	// Nothing correct or incorrect before: CI, I2C, C2I, C2E have empty denominators.
	pre := map[string]record.Candidate{"1": {Verdict: E}}
	post := map[string]record.Candidate{"1": {Verdict: C}}
	rv := RevisionOf(pre, post)
	b, err := json.Marshal(rv)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ci", "i2c", "c2i", "c2e"} {
		if m[k] != "n/a" {
			t.Errorf("%s = %v, want n/a", k, m[k])
		}
	}
	if m["e2c"] != 1.0 {
		t.Errorf("e2c = %v, want 1", m["e2c"])
	}
	if rv.CI.Percent() != "n/a" || rv.E2C.Percent() != "100.00" {
		t.Errorf("percent: %s %s", rv.CI.Percent(), rv.E2C.Percent())
	}
	// Nothing at all: every ratio n/a, still valid JSON.
	if _, err := json.Marshal(RevisionOf(nil, nil)); err != nil {
		t.Errorf("empty revision does not marshal: %v", err)
	}
}

func TestRevisionFromRecords(t *testing.T) {
	recs := []record.Record{
		{QuestionID: "1", Verdict: C, RevisionApplied: true, Candidates: cands(I, C)},
		{QuestionID: "2", Verdict: E, ErrorCategory: record.SyntaxError, RevisionApplied: true, Candidates: cands(C)},
		{QuestionID: "3", Verdict: C, Candidates: cands(C)},  // no revision reported
		{QuestionID: "4", Verdict: C, RevisionApplied: true}, // revision without candidates
	}
	for i := range recs {
		FillRevision(&recs[i])
	}
	if recs[0].PreRevisionVerdict != I || recs[0].PostRevisionVerdict != C || recs[1].PostRevisionErrorCategory != record.SyntaxError {
		t.Errorf("filled: %+v / %+v", recs[0].Modules, recs[1].Modules)
	}
	if recs[2].PreRevisionVerdict != "" || recs[3].PreRevisionVerdict != "" {
		t.Error("records without revision or candidates got pre/post verdicts")
	}
	rv := RevisionOfRecords(recs)
	// Pre I, C; post C, E: CR_pre = CR_post = 1/2: CI = 0; I2C = 1; C2E = 1.
	if rv == nil || rv.Questions != 2 || !near(rv.CI.Value(), 0) || !near(rv.I2C.Value(), 1) || !near(rv.C2E.Value(), 1) {
		t.Errorf("revision: %+v", rv)
	}
	if RevisionOfRecords(recs[2:3]) != nil {
		t.Error("a system without revision got a revision section")
	}
}

func TestRatioJSONRoundTrip(t *testing.T) {
	for _, r := range []Ratio{{Num: 1, Den: 4}, {Num: 3, Den: 0}, {}} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Ratio
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if back.Defined() != r.Defined() || !near(back.Value(), r.Value()) || back.Percent() != r.Percent() {
			t.Errorf("%+v -> %s -> %+v", r, b, back)
		}
	}
	var r Ratio
	if err := json.Unmarshal([]byte(`"lots"`), &r); err == nil {
		t.Error(`"lots" read as a ratio`)
	}
}
