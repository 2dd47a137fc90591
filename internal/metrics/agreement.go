package metrics

import (
	"fmt"
	"math"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Agreement: every 0/1 verdict the registry declares (Metric.Verdict) set against expert
// labels, and against each other (docs/agreement.md). Cohen's kappa's 95% interval is
// analytic: kappa +- 1.96 times the large-sample standard error of Fleiss, Cohen and
// Everitt (1969), clipped to [-1, 1]; a hand computation of a small case is in the tests.

// KappaMethod names how kappa's interval is computed, as agreement.json records it.
const KappaMethod = "analytic: kappa +- 1.96 x the asymptotic standard error of Fleiss, Cohen & Everitt (1969), clipped to [-1, 1]"

// Label is an expert's judgement of one system's prediction, resolved to its record.
type Label struct {
	System  string
	Index   int
	Correct bool
	Note    string
}

// Confusion counts one rater (a verdict) against a reference (the labels, or another
// verdict): TP both say correct, FP the verdict says correct and the reference not, FN
// the verdict says incorrect and the reference correct, TN both say incorrect.
type Confusion struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
	TN int `json:"tn"`
}

// N is the number of paired judgements.
func (c Confusion) N() int { return c.TP + c.FP + c.FN + c.TN }

func (c *Confusion) add(verdict, reference bool) {
	switch {
	case verdict && reference:
		c.TP++
	case verdict:
		c.FP++
	case reference:
		c.FN++
	default:
		c.TN++
	}
}

// Kappa is Cohen's kappa with its standard error and 95% interval.
type Kappa struct {
	Value, SE, Low, High float64
}

// CohenKappa computes kappa for two raters of two categories from their confusion
// matrix; ok is false when kappa is undefined (no pairs, or chance agreement 1: both
// raters gave one same category throughout).
func CohenKappa(c Confusion) (k Kappa, ok bool) {
	n := float64(c.N())
	if n == 0 {
		return k, false
	}
	// p[i][j]: the verdict says i, the reference says j (0 correct, 1 incorrect).
	p := [2][2]float64{{float64(c.TP) / n, float64(c.FP) / n}, {float64(c.FN) / n, float64(c.TN) / n}}
	row := [2]float64{p[0][0] + p[0][1], p[1][0] + p[1][1]}
	col := [2]float64{p[0][0] + p[1][0], p[0][1] + p[1][1]}
	po := p[0][0] + p[1][1]
	pe := row[0]*col[0] + row[1]*col[1]
	if pe >= 1 {
		return k, false
	}
	kappa := (po - pe) / (1 - pe)
	var a, b float64
	for i := 0; i < 2; i++ {
		t := 1 - (row[i]+col[i])*(1-kappa)
		a += p[i][i] * t * t
		j := 1 - i
		s := col[i] + row[j]
		b += p[i][j] * s * s
	}
	b *= (1 - kappa) * (1 - kappa)
	cc := kappa - pe*(1-kappa)
	v := (a + b - cc*cc) / (n * (1 - pe) * (1 - pe))
	se := math.Sqrt(math.Max(v, 0))
	return Kappa{Value: kappa, SE: se, Low: math.Max(-1, kappa-1.96*se), High: math.Min(1, kappa+1.96*se)}, true
}

// VerdictAgreement is one verdict against the labels.
type VerdictAgreement struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Confusion
	// N counts the labelled judged records the verdict has a value for; NoVerdict those
	// it has none for (not computed: ESM on a gold its parser refuses, ...).
	N         int `json:"n"`
	NoVerdict int `json:"no_verdict"`
	// Accuracy is (TP + TN) / N; FPRate FP / (FP + TN), the share of the predictions the
	// labels call incorrect that the verdict accepts; FNRate FN / (FN + TP); FPShare
	// FP / (TP + FP), the share of what the verdict accepts that the labels reject. Nil
	// where the denominator is 0.
	Accuracy *float64 `json:"accuracy"`
	FPRate   *float64 `json:"fp_rate"`
	FNRate   *float64 `json:"fn_rate"`
	FPShare  *float64 `json:"fp_share"`
	// Kappa and its interval; nil when undefined.
	Kappa     *float64 `json:"kappa"`
	KappaSE   *float64 `json:"kappa_se,omitempty"`
	KappaLow  *float64 `json:"kappa_low,omitempty"`
	KappaHigh *float64 `json:"kappa_high,omitempty"`
	// The values as every output prints them.
	AccuracyText string `json:"accuracy_text"`
	FPRateText   string `json:"fp_rate_text"`
	FNRateText   string `json:"fn_rate_text"`
	FPShareText  string `json:"fp_share_text"`
	KappaText    string `json:"kappa_text"`
	// Disagree lists the labelled records where the verdict and the label differ.
	Disagree []Disagreement `json:"disagree"`
}

// Disagreement is one record where a verdict and its label differ.
type Disagreement struct {
	System     string `json:"system"`
	Index      int    `json:"index"`
	QuestionID string `json:"question_id"`
	DBID       string `json:"db_id"`
	Verdict    int    `json:"verdict"` // the verdict's value: 1 correct, 0 incorrect
	Label      string `json:"label"`   // correct or incorrect
	Note       string `json:"note,omitempty"`
}

// Verdicts returns the registry's 0/1 verdicts, in declaration order.
func Verdicts(ms []Metric) []Metric {
	var out []Metric
	for _, m := range ms {
		if m.Verdict {
			out = append(out, m)
		}
	}
	return out
}

// verdictLabel names a verdict: a score that is a verdict at 1 says so ("Soft-F1 = 1").
func verdictLabel(m *Metric) string {
	if m.Binary {
		return m.Label
	}
	return m.Label + " = 1"
}

// verdictOf reads metric m's verdict on r; ok is false when r is not judged or m has no
// value for it.
func verdictOf(m *Metric, system string, r *record.Record) (correct, ok bool) {
	if !r.Judged() {
		return false, false
	}
	v, ok := m.Value(system, r)
	return ok && v == 1, ok
}

// Agree sets every verdict of ms (the registry's, or any list: only those marked
// Verdict are used) against the labels, over the systems' judged records. Labels of
// records that are missing or not judged are left out (the caller counts them); a
// verdict no labelled record has a value for is left out of the result.
func Agree(ms []Metric, systems []SystemRecords, labels []Label) []VerdictAgreement {
	byKey := map[string]map[int]*record.Record{}
	for _, s := range systems {
		m := map[int]*record.Record{}
		for i := range s.Records {
			m[s.Records[i].Index] = &s.Records[i]
		}
		byKey[s.Name] = m
	}
	var out []VerdictAgreement
	for _, m := range Verdicts(ms) {
		a := VerdictAgreement{ID: m.ID, Label: verdictLabel(&m), Disagree: []Disagreement{}}
		for _, l := range labels {
			r := byKey[l.System][l.Index]
			if r == nil || !r.Judged() {
				continue
			}
			v, ok := verdictOf(&m, l.System, r)
			if !ok {
				a.NoVerdict++
				continue
			}
			a.add(v, l.Correct)
			if v != l.Correct {
				a.Disagree = append(a.Disagree, Disagreement{System: l.System, Index: r.Index, QuestionID: r.QuestionID, DBID: r.DBID,
					Verdict: int(b2f(v)), Label: labelText(l.Correct), Note: l.Note})
			}
		}
		if a.N = a.Confusion.N(); a.N == 0 {
			continue
		}
		a.fill()
		out = append(out, a)
	}
	return out
}

func labelText(correct bool) string {
	if correct {
		return "correct"
	}
	return "incorrect"
}

// fill computes the rates and kappa from the counts, and their texts.
func (a *VerdictAgreement) fill() {
	c := a.Confusion
	a.Accuracy, a.AccuracyText = ratio(c.TP+c.TN, c.N())
	a.FPRate, a.FPRateText = ratio(c.FP, c.FP+c.TN)
	a.FNRate, a.FNRateText = ratio(c.FN, c.FN+c.TP)
	a.FPShare, a.FPShareText = ratio(c.FP, c.TP+c.FP)
	k, ok := CohenKappa(c)
	if !ok {
		a.KappaText = "n/a: one answer throughout"
		return
	}
	a.Kappa, a.KappaSE, a.KappaLow, a.KappaHigh = &k.Value, &k.SE, &k.Low, &k.High
	a.KappaText = KappaText(k)
}

// KappaText prints kappa and its interval at the one rounding every output uses.
func KappaText(k Kappa) string {
	return fmt.Sprintf("%.2f [%.2f, %.2f]", k.Value, k.Low, k.High)
}

// ratio is num/den as a Percent value and its text; nil and "n/a" when den is 0.
func ratio(num, den int) (*float64, string) {
	if den == 0 {
		return nil, "n/a"
	}
	v := float64(num) / float64(den)
	return &v, Percent.Format(v)
}

// KappaMatrix is every pair of verdicts set against each other over the same records.
type KappaMatrix struct {
	IDs    []string    `json:"ids"`
	Labels []string    `json:"labels"`
	Pairs  []KappaPair `json:"pairs"` // each unordered pair once, A before B in IDs' order
}

// KappaPair is two verdicts over the judged records both have a value for; A is read as
// the rater, B as the reference, so FP counts A correct where B says incorrect.
type KappaPair struct {
	A string `json:"a"`
	B string `json:"b"`
	Confusion
	N         int      `json:"n"`
	Agree     *float64 `json:"agree"` // observed agreement (TP + TN) / N
	Kappa     *float64 `json:"kappa"`
	KappaLow  *float64 `json:"kappa_low,omitempty"`
	KappaHigh *float64 `json:"kappa_high,omitempty"`
	AgreeText string   `json:"agree_text"`
	KappaText string   `json:"kappa_text"`
}

// Pair returns the pair of a and b in either order; nil when there is none.
func (k *KappaMatrix) Pair(a, b string) *KappaPair {
	for i := range k.Pairs {
		p := &k.Pairs[i]
		if (p.A == a && p.B == b) || (p.A == b && p.B == a) {
			return p
		}
	}
	return nil
}

// VerdictMatrix sets every pair of verdicts of ms against each other over the systems'
// judged records; a verdict no record has a value for is left out.
func VerdictMatrix(ms []Metric, systems []SystemRecords) KappaMatrix {
	vs := Verdicts(ms)
	type cell struct{ v, ok bool }
	var cols [][]cell
	var km KappaMatrix
	for _, m := range vs {
		var col []cell
		has := false
		for _, s := range systems {
			for i := range s.Records {
				v, ok := verdictOf(&m, s.Name, &s.Records[i])
				col = append(col, cell{v, ok})
				has = has || ok
			}
		}
		if !has {
			continue
		}
		km.IDs, km.Labels = append(km.IDs, m.ID), append(km.Labels, verdictLabel(&m))
		cols = append(cols, col)
	}
	for i := range cols {
		for j := i + 1; j < len(cols); j++ {
			p := KappaPair{A: km.IDs[i], B: km.IDs[j]}
			for r := range cols[i] {
				if cols[i][r].ok && cols[j][r].ok {
					p.add(cols[i][r].v, cols[j][r].v)
				}
			}
			p.N = p.Confusion.N()
			p.Agree, p.AgreeText = ratio(p.TP+p.TN, p.N)
			if k, ok := CohenKappa(p.Confusion); ok {
				p.Kappa, p.KappaLow, p.KappaHigh, p.KappaText = &k.Value, &k.Low, &k.High, KappaText(k)
			} else {
				p.KappaText = "n/a"
			}
			km.Pairs = append(km.Pairs, p)
		}
	}
	return km
}
