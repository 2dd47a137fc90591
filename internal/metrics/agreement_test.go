package metrics

import (
	"math"
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestCohenKappaHand checks kappa and its standard error against a computation by hand.
//
// TP 20, FP 5, FN 10, TN 15 (n 50): p = [[.4 .1] [.2 .3]], rows (verdict) .5 .5, columns
// (reference) .6 .4; po = .7, pe = .5*.6 + .5*.4 = .5, kappa = (.7-.5)/(1-.5) = .4.
// Fleiss-Cohen-Everitt: A = .4(1-1.1*.6)^2 + .3(1-.9*.6)^2 = .04624 + .06348 = .10972;
// B = (1-.4)^2 (.1(.6+.5)^2 + .2(.4+.5)^2) = .36 * .283 = .10188; C = (.4-.5*.6)^2 = .01;
// var = (A+B-C) / (50 (1-.5)^2) = .2016/12.5 = .016128, SE = .1269961;
// interval .4 -+ 1.96 SE = [.1510876, .6489124].
func TestCohenKappaHand(t *testing.T) {
	tests := []struct {
		name              string
		c                 Confusion
		ok                bool
		kappa, se, lo, hi float64
	}{
		{"hand", Confusion{TP: 20, FP: 5, FN: 10, TN: 15}, true, 0.4, 0.12699606, 0.15108772, 0.64891228},
		// Swapping the raters transposes the matrix: kappa and its SE are symmetric.
		{"transposed", Confusion{TP: 20, FP: 10, FN: 5, TN: 15}, true, 0.4, 0.12699606, 0.15108772, 0.64891228},
		// Perfect agreement: kappa 1, SE 0 (A = p11(1-2p1)^2... sums to C).
		{"perfect", Confusion{TP: 7, TN: 3}, true, 1, 0, 1, 1},
		// Agreement at chance level exactly: po = pe = .5.
		{"chance", Confusion{TP: 5, FP: 5, FN: 5, TN: 5}, true, 0, 0.2236068, -0.43826932, 0.43826932},
		{"empty", Confusion{}, false, 0, 0, 0, 0},
		{"one answer throughout", Confusion{TP: 9}, false, 0, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, ok := CohenKappa(tc.c)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			for _, x := range []struct {
				name      string
				got, want float64
			}{{"kappa", k.Value, tc.kappa}, {"se", k.SE, tc.se}, {"low", k.Low, tc.lo}, {"high", k.High, tc.hi}} {
				if math.Abs(x.got-x.want) > 1e-7 {
					t.Errorf("%s = %.9f, want %.9f", x.name, x.got, x.want)
				}
			}
		})
	}
}

func fp64(v float64) *float64 { return &v }

// verdictRec is a record with the given EX, ETM (nil: absent) and Soft-F1.
func verdictRec(i int, v record.Verdict, bird, spider int, etm *int, f1 *float64) record.Record {
	r := record.Record{Index: i, QuestionID: "q" + string(rune('0'+i)), Verdict: v, ExBird: bird, ExSpider: spider}
	r.ETM, r.SoftF1 = etm, f1
	return r
}

// TestAgree sets the registry's verdicts against labels on four records.
func TestAgree(t *testing.T) {
	recs := []record.Record{
		verdictRec(0, record.Correct, 1, 1, ip(1), fp64(1)),
		verdictRec(1, record.Correct, 1, 0, ip(0), fp64(0.5)),
		verdictRec(2, record.Incorrect, 0, 0, nil, fp64(0.2)), // ETM not computed
		verdictRec(3, record.Error, 0, 0, nil, fp64(0)),
		verdictRec(4, record.Skipped, 0, 0, nil, nil),
	}
	labels := []Label{
		{System: "A", Index: 0, Correct: true},
		{System: "A", Index: 1, Correct: false, Note: "wrong column"},
		{System: "A", Index: 2, Correct: true, Note: "gold too strict"},
		{System: "A", Index: 3, Correct: false},
		{System: "A", Index: 4, Correct: true}, // not judged: left out
	}
	got := Agree(Declared(Options{}), []SystemRecords{{Name: "A", Records: recs}}, labels)
	ids := []string{}
	by := map[string]VerdictAgreement{}
	for _, a := range got {
		ids = append(ids, a.ID)
		by[a.ID] = a
	}
	if want := []string{"ex_bird", "ex_spider", "etm", "soft_f1"}; !slices.Equal(ids, want) {
		t.Fatalf("verdicts = %v, want %v (ts_ex, esm, flex have no value here)", ids, want)
	}
	tests := []struct {
		id        string
		c         Confusion
		noVerdict int
		disagree  []int
	}{
		{"ex_bird", Confusion{TP: 1, FP: 1, FN: 1, TN: 1}, 0, []int{1, 2}},
		{"ex_spider", Confusion{TP: 1, FN: 1, TN: 2}, 0, []int{2}},
		{"etm", Confusion{TP: 1, TN: 1}, 2, nil},
		{"soft_f1", Confusion{TP: 1, FN: 1, TN: 2}, 0, []int{2}},
	}
	for _, tc := range tests {
		a := by[tc.id]
		if a.Confusion != tc.c || a.NoVerdict != tc.noVerdict || a.N != tc.c.N() {
			t.Errorf("%s: confusion %+v no_verdict %d n %d, want %+v %d %d", tc.id, a.Confusion, a.NoVerdict, a.N, tc.c, tc.noVerdict, tc.c.N())
		}
		var dis []int
		for _, d := range a.Disagree {
			dis = append(dis, d.Index)
		}
		if !slices.Equal(dis, tc.disagree) {
			t.Errorf("%s: disagree %v, want %v", tc.id, dis, tc.disagree)
		}
	}
	if l := by["soft_f1"].Label; l != "Soft-F1 = 1" {
		t.Errorf("soft_f1's label %q, want Soft-F1 = 1", l)
	}
	b := by["ex_bird"]
	if b.AccuracyText != "50.00" || b.FPRateText != "50.00" || b.FNRateText != "50.00" || b.FPShareText != "50.00" || b.KappaText != "0.00 [-0.98, 0.98]" {
		t.Errorf("ex_bird texts: acc %s fp %s fn %s fpshare %s kappa %s", b.AccuracyText, b.FPRateText, b.FNRateText, b.FPShareText, b.KappaText)
	}
	if d := b.Disagree[1]; d.QuestionID != "q2" || d.Verdict != 0 || d.Label != "correct" || d.Note != "gold too strict" {
		t.Errorf("disagreement = %+v", d)
	}
	if s := by["ex_spider"]; s.FPRateText != "0.00" || s.FPShareText != "0.00" {
		t.Errorf("ex_spider fp rate %s, fp share %s; want 0.00", s.FPRateText, s.FPShareText)
	}
	if e := by["etm"]; e.KappaText != "1.00 [1.00, 1.00]" || e.FPRateText != "0.00" {
		t.Errorf("etm: kappa %q fp %q", e.KappaText, e.FPRateText)
	}
}

// TestVerdictsDeclared pins which registry metrics are 0/1 verdicts: EX under its two
// semantics and not the primary duplicate, never the error and incorrect rates or Pass@k.
func TestVerdictsDeclared(t *testing.T) {
	var ids []string
	for _, m := range Verdicts(Declared(Options{})) {
		ids = append(ids, m.ID)
	}
	for _, want := range []string{"ex_bird", "ex_spider", "ts_ex", "esm", "etm", "flex", "soft_f1", "ex_spider2"} {
		if !slices.Contains(ids, want) {
			t.Errorf("verdict %s missing from %v", want, ids)
		}
	}
	for _, not := range []string{"ex", "incorrect", "error", "ves", "pass@1"} {
		if slices.Contains(ids, not) {
			t.Errorf("%s is not a verdict on the prediction, yet listed in %v", not, ids)
		}
	}
}

// TestVerdictMatrix checks the pairwise kappas between verdicts.
func TestVerdictMatrix(t *testing.T) {
	var recs []record.Record
	// EX bird and EX spider agree on 3 of 4; ESM is computed for two records only.
	for i, v := range [][3]int{{1, 1, 1}, {1, 0, -1}, {0, 0, 0}, {0, 0, -1}} {
		r := record.Record{Index: i, Verdict: record.Incorrect, ExBird: v[0], ExSpider: v[1]}
		if v[2] >= 0 {
			r.ESM = ip(v[2])
		}
		recs = append(recs, r)
	}
	recs = append(recs, record.Record{Index: 9, Verdict: record.GoldError, ExBird: 1}) // not judged
	km := VerdictMatrix(Declared(Options{}), []SystemRecords{{Name: "A", Records: recs}})
	if want := []string{"ex_bird", "ex_spider", "esm"}; !slices.Equal(km.IDs, want) {
		t.Fatalf("ids = %v, want %v", km.IDs, want)
	}
	p := km.Pair("ex_spider", "ex_bird")
	if p == nil || p.A != "ex_bird" || p.Confusion != (Confusion{TP: 1, FP: 1, TN: 2}) || p.AgreeText != "75.00" {
		t.Fatalf("ex_bird x ex_spider = %+v", p)
	}
	// po .75, pe .5*.25 + .5*.75 = .5, kappa .5.
	if *p.Kappa != 0.5 {
		t.Errorf("kappa = %v, want 0.5", *p.Kappa)
	}
	if q := km.Pair("ex_bird", "esm"); q == nil || q.N != 2 || q.KappaText != "1.00 [1.00, 1.00]" {
		t.Errorf("ex_bird x esm = %+v", q)
	}
}
