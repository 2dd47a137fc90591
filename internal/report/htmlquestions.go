package report

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
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
	Slices                     string // data-s attribute: the slice groups it is in, "joins=1 nested=no ..." (sliceFilter)
	Detailed                   bool   // results were executed for this view
	Audit                      []KV   // the gold audit's findings on this question (check, evidence)
}

// AnswerView is one system's answer to one question.
type AnswerView struct {
	SysIdx         int
	System         string
	Verdict        string
	ErrorCategory  string
	ErrorMessage   string
	SQL            string // formatted
	Facts          []Fact // the drill-down's labelled values (htmlfacts.go)
	Candidates     []record.Candidate
	Result         *ResultView
	Disagree       bool
	Counterexample *CounterexampleView // eval --test-suite found one
}

// questions joins the systems' records by dataset index.
func questions(run *rundir.Run, evidence map[int]string) []QuestionView {
	perQuestion := drillMetrics(run.PassK())
	byIdx := map[int]*QuestionView{}
	var order []int
	for si, s := range run.Systems {
		for i := range s.Records {
			r := &s.Records[i]
			q, ok := byIdx[r.Index]
			if !ok {
				q = &QuestionView{Index: r.Index, ID: r.QuestionID, DBID: r.DBID, Difficulty: r.Difficulty, Text: r.Question,
					Evidence: evidence[r.Index], GoldSQL: FormatSQL(r.GoldSQL)}
				if r.GoldSchema != nil {
					q.GoldSchema = schemaText(r.GoldSchema)
				}
				byIdx[r.Index] = q
				order = append(order, r.Index)
			}
			a := answer(si, s.Name, r, perQuestion)
			a.Counterexample = counterexampleView(run.Dir, r)
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

// drillMetrics are the registry metrics shown per question in the drill-down: those not
// shown beside the verdict (metrics.Display.VerdictLine).
func drillMetrics(ks []int) []metrics.Metric {
	var out []metrics.Metric
	for _, m := range metrics.Declared(metrics.Options{PassK: ks}) {
		if !m.Display.VerdictLine {
			out = append(out, m)
		}
	}
	return out
}

func answer(si int, system string, r *record.Record, perQuestion []metrics.Metric) AnswerView {
	a := AnswerView{SysIdx: si, System: system, Verdict: string(r.Verdict), ErrorCategory: string(r.ErrorCategory),
		ErrorMessage: r.ErrorMessage, SQL: FormatSQL(r.PredSQL), Candidates: r.Candidates,
		Facts: answerFacts(system, r, perQuestion)}
	if r.ETM != nil {
		a.Disagree = r.Judged() && (*r.ETM == 1) != (r.Verdict == record.Correct)
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
		pred := preds[q.Index][i]
		if !x.rerun(q.Answers[i].ErrorCategory) {
			// It ran past the run's timeout when judged, and the drill-down's timeout is
			// no longer: running it again would hold a core that long to show nothing.
			pred = skipTimedOut
		}
		g, p := x.pair(ctx, q.DBID, golds[q.Index], pred)
		if i == 0 {
			q.Gold = g
		}
		q.Answers[i].Result = p
	}
	q.Detailed = true
}

// rawSQL maps each question to its raw (unformatted) gold SQL and each system's SQL, in
// the order of QuestionView.Answers.
func rawSQL(run *rundir.Run) (golds map[int]string, preds map[int][]string) {
	golds, preds = map[int]string{}, map[int][]string{}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			golds[r.Index] = r.GoldSQL
			preds[r.Index] = append(preds[r.Index], r.PredSQL)
		}
	}
	return golds, preds
}

// loadEvidence reads what records do not store (BIRD's evidence) from the question file
// the user named (report and serve --dataset), never from the path the run records: a
// run directory may be anyone's. The file must hold the run's questions (each record's
// question_id and db_id at its index). It is best-effort: without the file, or one that
// cannot be read or does not match, a one-line warning says so and names the flag.
func loadEvidence(ctx context.Context, run *rundir.Run, file string) (map[int]string, string) {
	k := run.Summary.Dataset.Kind
	if kind, ok := dataset.KindNamed(k); !ok || kind.Name != k || !kind.Evidence || kind.Load == nil {
		return nil, "" // Spider has no evidence
	}
	if file == "" {
		return nil, fmt.Sprintf("evidence not shown: records do not hold it; pass %s (the run's question file) to show it", EvidenceFlag)
	}
	ds, err := dataset.Load(ctx, k+":"+file, dataset.Options{})
	if err != nil {
		return nil, fmt.Sprintf("evidence not shown: %v", err)
	}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			if r.Index < 0 || r.Index >= len(ds.Questions) || ds.Questions[r.Index].ID != r.QuestionID || ds.Questions[r.Index].DBID != r.DBID {
				return nil, fmt.Sprintf("evidence not shown: %s does not hold this run's questions (question %s of database %s is not at index %d there)", file, r.QuestionID, r.DBID, r.Index)
			}
		}
	}
	out := map[int]string{}
	for _, q := range ds.Questions {
		if q.Evidence != "" {
			out[q.Index] = q.Evidence
		}
	}
	return out, ""
}

// EvidenceFlag is the flag that names the question file for BIRD's evidence.
const EvidenceFlag = "--dataset FILE"

// Label names the question in the list and on its page: its position in the dataset
// and, when the dataset gives one that says more, its question_id ("#5 lib-006"; a
// Spider question, whose id is its position, reads "#0").
func (q QuestionView) Label() string { return QuestionLabel(q.Index, q.ID) }

// QuestionLabel names a question by its position in the dataset and its question_id
// when that says more: "#5 lib-006", but "#5" for a question whose id is its position
// (Spider's, most of BIRD dev's), so no line reads "#5 5".
func QuestionLabel(index int, id string) string {
	if id == "" || id == strconv.Itoa(index) {
		return fmt.Sprintf("#%d", index)
	}
	return fmt.Sprintf("#%d %s", index, id)
}
