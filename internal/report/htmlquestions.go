package report

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// QuestionView is one question across every system of a run: the list row and its drill-down.
type QuestionView struct {
	Index                      int
	ID, DBID, Difficulty, Text string
	Evidence                   string
	GoldSQL                    string // formatted
	Gold                       *ResultView
	GoldSchema                 string
	Answers                    []AnswerView
	Filter                     string // data-v attribute: "0:correct 1:error ..."
	Disagree                   string // data-dis attribute: system indexes where EX and ETM disagree
	Detailed                   bool   // results were executed for this view
}

// AnswerView is one system's answer to one question.
type AnswerView struct {
	SysIdx         int
	System         string
	Verdict        string
	ErrorCategory  string
	ErrorMessage   string
	SQL            string // formatted
	Metrics        []KV   // every metric verdict the record carries
	ETMRules       []string
	SelectedSchema string
	PredSchema     string
	Candidates     []record.Candidate
	Extra          []KV
	Result         *ResultView
	Disagree       bool
}

// questions joins the systems' records by dataset index.
func questions(run *Run, evidence map[int]string) []QuestionView {
	byIdx := map[int]*QuestionView{}
	var order []int
	for si, s := range run.Systems {
		for i := range s.Records {
			r := &s.Records[i]
			q, ok := byIdx[r.Index]
			if !ok {
				q = &QuestionView{Index: r.Index, ID: r.QuestionID, DBID: r.DBID, Difficulty: r.Difficulty, Text: r.Question,
					Evidence: evidence[r.Index], GoldSQL: FormatSQL(r.GoldSQL)}
				if gs, ok := r.schemaMap("gold_schema"); ok {
					q.GoldSchema = schemaText(gs)
				}
				byIdx[r.Index] = q
				order = append(order, r.Index)
			}
			a := answer(si, s.Name, r)
			q.Answers = append(q.Answers, a)
			q.Filter += fmt.Sprintf("%d:%s ", si, r.Verdict)
			if a.Disagree {
				q.Disagree += fmt.Sprintf("%d ", si)
			}
		}
	}
	sort.Ints(order)
	out := make([]QuestionView, 0, len(order))
	for _, i := range order {
		out = append(out, *byIdx[i])
	}
	return out
}

func answer(si int, system string, r *Rec) AnswerView {
	a := AnswerView{SysIdx: si, System: system, Verdict: string(r.Verdict), ErrorCategory: string(r.ErrorCategory),
		ErrorMessage: r.ErrorMessage, SQL: FormatSQL(r.PredSQL), Candidates: r.Candidates, Extra: r.extraFields()}
	a.Metrics = append(a.Metrics, KV{"verdict", string(r.Verdict)}, KV{"EX (bird)", fmt.Sprint(r.ExBird)}, KV{"EX (spider)", fmt.Sprint(r.ExSpider)})
	for _, m := range []struct{ label, key string }{{"ESM", "esm"}, {"ETM", "etm"}} {
		if v, ok := r.num(m.key); ok {
			a.Metrics = append(a.Metrics, KV{m.label, trimFloat(v)})
		}
	}
	if fv, ok := r.str("flex_verdict"); ok {
		a.Metrics = append(a.Metrics, KV{"Flex", fv})
	}
	if etm, ok := r.num("etm"); ok && r.Judged() {
		a.Disagree = (etm == 1) != (r.Verdict == record.Correct)
	}
	a.ETMRules, _ = r.strList("etm_rules")
	if len(r.SelectedSchema) > 0 {
		a.SelectedSchema = schemaText(r.SelectedSchema)
	}
	if ps, ok := r.schemaMap("pred_schema"); ok {
		a.PredSchema = schemaText(ps)
	}
	return a
}

// schemaText prints a schema as "table(col, col); table(...)" with tables sorted.
func schemaText(m map[string][]string) string {
	var ts []string
	for t := range m {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	var parts []string
	for _, t := range ts {
		parts = append(parts, t+"("+strings.Join(m[t], ", ")+")")
	}
	return strings.Join(parts, "; ")
}

// fillResults executes gold and predictions for q (see htmlresults.go).
func fillResults(ctx context.Context, x *executor, q *QuestionView, golds map[int]string, preds map[int][]string) {
	if ctx.Err() != nil {
		return
	}
	for i := range q.Answers {
		g, p := x.pair(ctx, q.DBID, golds[q.Index], preds[q.Index][i])
		if i == 0 {
			q.Gold = g
		}
		q.Answers[i].Result = p
	}
	q.Detailed = true
}

// rawSQL maps each question to its raw (unformatted) gold SQL and each system's SQL, in
// the order of QuestionView.Answers.
func rawSQL(run *Run) (golds map[int]string, preds map[int][]string) {
	golds, preds = map[int]string{}, map[int][]string{}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			golds[r.Index] = r.GoldSQL
			preds[r.Index] = append(preds[r.Index], r.PredSQL)
		}
	}
	return golds, preds
}

// loadEvidence reads the dataset again for what records do not store (BIRD's evidence).
// It is best-effort: a dataset that moved or cannot be read gives a warning, not an error.
func loadEvidence(ctx context.Context, run *Run) (map[int]string, string) {
	k := run.Summary.Dataset.Kind
	if k != dataset.KindBIRD && k != dataset.KindJSONL {
		return nil, "" // Spider has no evidence
	}
	ds, err := dataset.Load(ctx, k+":"+run.Summary.Dataset.Path, dataset.Options{DBRoot: run.Summary.Dataset.DBRoot})
	if err != nil {
		return nil, fmt.Sprintf("evidence not shown: %v", err)
	}
	out := map[int]string{}
	for _, q := range ds.Questions {
		if q.Evidence != "" {
			out[q.Index] = q.Evidence
		}
	}
	return out, ""
}
