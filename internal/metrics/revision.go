package metrics

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Query revision (NL2SQLBench paper, Section 3.1.3, eq. 8-12): CR / IR / ER after revision,
// and how revision moved questions between correct (C), incorrect (I) and error (E):
//
//	CI  = (CR_post - CR_pre) / CR_pre
//	I2C = |I_pre ∩ C_post| / |I_pre|     E2C = |E_pre ∩ C_post| / |E_pre|
//	C2I = |C_pre ∩ I_post| / |C_pre|     C2E = |C_pre ∩ E_post| / |C_pre|
//
// Pre and post verdicts are matched by question id; only questions judged both before
// and after count. A ratio whose denominator is zero is n/a (never NaN or Inf).

// Ratio is a quotient that may be undefined. It marshals as its value, or as the string
// "n/a" when the denominator is zero.
type Ratio struct {
	Num, Den float64
}

// Defined reports whether the denominator is non-zero.
func (r Ratio) Defined() bool { return r.Den != 0 }

// Value is Num/Den, or 0 when undefined.
func (r Ratio) Value() float64 {
	if !r.Defined() {
		return 0
	}
	return r.Num / r.Den
}

// Percent formats the ratio as a percentage with two decimals, or "n/a".
func (r Ratio) Percent() string {
	if !r.Defined() {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", 100*r.Value())
}

// MarshalJSON writes the value, or "n/a".
func (r Ratio) MarshalJSON() ([]byte, error) {
	if !r.Defined() {
		return []byte(`"n/a"`), nil
	}
	return json.Marshal(r.Value())
}

// UnmarshalJSON reads what MarshalJSON writes (a value v becomes v/1), so summary.json
// reads back.
func (r *Ratio) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case float64:
		*r = Ratio{Num: x, Den: 1}
	case string:
		if x != "n/a" {
			return fmt.Errorf("ratio: %q is neither a number nor \"n/a\"", x)
		}
		*r = Ratio{}
	case nil:
		*r = Ratio{}
	default:
		return fmt.Errorf("ratio: %s is neither a number nor \"n/a\"", b)
	}
	return nil
}

// Revision is one system's query-revision scores.
type Revision struct {
	Questions int          `json:"questions"` // matched questions judged before and after
	Pre       VerdictRates `json:"pre"`
	Post      VerdictRates `json:"post"`
	CI        Ratio        `json:"ci"`
	I2C       Ratio        `json:"i2c"`
	E2C       Ratio        `json:"e2c"`
	C2I       Ratio        `json:"c2i"`
	C2E       Ratio        `json:"c2e"`
	// Transitions counts questions by pre -> post verdict ("incorrect->correct": 3).
	Transitions map[string]int `json:"transitions"`
	// Unmatched counts question ids present on only one side.
	Unmatched int `json:"unmatched"`
}

// RevisionOf compares pre- and post-revision verdicts matched by question id.
func RevisionOf(pre, post map[string]record.Candidate) Revision {
	rv := Revision{Transitions: map[string]int{}}
	ids := make([]string, 0, len(pre))
	for id := range pre {
		if _, ok := post[id]; ok {
			ids = append(ids, id)
		} else {
			rv.Unmatched++
		}
	}
	for id := range post {
		if _, ok := pre[id]; !ok {
			rv.Unmatched++
		}
	}
	sort.Strings(ids)
	var before, after []record.Candidate
	count := map[record.Verdict]int{}
	for _, id := range ids {
		a, b := pre[id], post[id]
		if !judgedVerdict(a.Verdict) || !judgedVerdict(b.Verdict) {
			continue
		}
		before = append(before, a)
		after = append(after, b)
		count[a.Verdict]++
		rv.Transitions[string(a.Verdict)+"->"+string(b.Verdict)]++
	}
	rv.Questions = len(before)
	rv.Pre, rv.Post = RatesOf(before), RatesOf(after)
	rv.CI = Ratio{Num: rv.Post.Correct - rv.Pre.Correct, Den: rv.Pre.Correct}
	tr := func(from, to record.Verdict) Ratio {
		return Ratio{Num: float64(rv.Transitions[string(from)+"->"+string(to)]), Den: float64(count[from])}
	}
	rv.I2C = tr(record.Incorrect, record.Correct)
	rv.E2C = tr(record.Error, record.Correct)
	rv.C2I = tr(record.Correct, record.Incorrect)
	rv.C2E = tr(record.Correct, record.Error)
	return rv
}

// RevisionOfRecords scores the records that carry pre- and post-revision verdicts. It
// returns nil when none does (the system reported no revision).
func RevisionOfRecords(recs []record.Record) *Revision {
	pre, post := map[string]record.Candidate{}, map[string]record.Candidate{}
	for i := range recs {
		r := &recs[i]
		if r.PreRevisionVerdict == "" || r.PostRevisionVerdict == "" {
			continue
		}
		id := r.QuestionID
		if id == "" {
			id = fmt.Sprint(r.Index)
		}
		pre[id] = record.Candidate{Verdict: r.PreRevisionVerdict, ErrorCategory: r.PreRevisionErrorCategory}
		post[id] = record.Candidate{Verdict: r.PostRevisionVerdict, ErrorCategory: r.PostRevisionErrorCategory}
	}
	if len(pre) == 0 {
		return nil
	}
	rv := RevisionOf(pre, post)
	return &rv
}

// FillRevision sets a record's pre/post revision verdicts: the first candidate before,
// the judged SQL after. Records without a reported revision or without candidates get
// none.
func FillRevision(r *record.Record) {
	r.PreRevisionVerdict, r.PreRevisionErrorCategory = "", ""
	r.PostRevisionVerdict, r.PostRevisionErrorCategory = "", ""
	if !r.RevisionApplied || len(r.Candidates) == 0 {
		return
	}
	c := r.Candidates[0]
	r.PreRevisionVerdict, r.PreRevisionErrorCategory = c.Verdict, c.ErrorCategory
	r.PostRevisionVerdict, r.PostRevisionErrorCategory = r.Verdict, r.ErrorCategory
}

func judgedVerdict(v record.Verdict) bool {
	return v == record.Correct || v == record.Incorrect || v == record.Error
}
