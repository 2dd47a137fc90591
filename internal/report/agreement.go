package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The agreement section (agreement.json, written by `nl2sqlbench agreement`): every 0/1
// verdict against expert labels and the kappa matrix between verdicts, printed from the
// file's texts (docs/agreement.md).

// AgreementView is the agreement section of the HTML report and the dashboard.
type AgreementView struct {
	Tables   []TextTable
	Disagree []AgreementList
}

// AgreementList is one verdict's disagreements with the labels.
type AgreementList struct {
	Label string
	Items []AgreementItem
}

// AgreementItem is one disagreeing record, linked to its drill-down by Index.
type AgreementItem struct {
	System, QuestionID, Verdict, Label, Note string
	Index                                    int
}

// Agreement builds the section; nil without agreement.json.
func Agreement(run *rundir.Run) *AgreementView {
	a := run.Agreement
	if a == nil {
		return nil
	}
	v := &AgreementView{Tables: AgreementTables(a)}
	for _, va := range a.Verdicts {
		l := AgreementList{Label: va.Label}
		for _, d := range va.Disagree {
			l.Items = append(l.Items, AgreementItem{System: d.System, QuestionID: d.QuestionID, Index: d.Index,
				Verdict: verdictWord(d.Verdict), Label: d.Label, Note: d.Note})
		}
		if len(l.Items) > 0 {
			v.Disagree = append(v.Disagree, l)
		}
	}
	return v
}

func verdictWord(v int) string {
	if v == 1 {
		return "correct"
	}
	return "incorrect"
}

// AgreementTables are the agreement with labels (when the run has labels) and the kappa
// matrix between verdicts.
func AgreementTables(a *rundir.Agreement) []TextTable {
	if a == nil {
		return nil
	}
	var out []TextTable
	scope := "every system, pooled"
	if a.System != "" {
		scope = "system " + a.System
	}
	if a.Labels != "" {
		t := TextTable{Title: "Agreement of each verdict with expert labels",
			Caption: fmt.Sprintf("%d labels (%s format) from %s; %d on judged predictions of %s. FP: the verdict says correct, the label incorrect. "+
				"FP rate = FP / labelled incorrect; FN rate = FN / labelled correct; FP share = FP / verdict correct (%%). Kappa: Cohen's, 95%% interval %s.%s",
				a.LabelsRead, a.Format, a.Labels, a.Labelled, scope, a.KappaMethod, agreementLeftOut(a)),
			Head: []string{"verdict", "n", "TP", "FP", "FN", "TN", "accuracy", "FP rate", "FN rate", "FP share", "kappa [95%]", "no verdict"}}
		for _, v := range a.Verdicts {
			t.Rows = append(t.Rows, []string{v.Label, strconv.Itoa(v.N), strconv.Itoa(v.TP), strconv.Itoa(v.FP), strconv.Itoa(v.FN), strconv.Itoa(v.TN),
				v.AccuracyText, v.FPRateText, v.FNRateText, v.FPShareText, v.KappaText, strconv.Itoa(v.NoVerdict)})
		}
		out = append(out, t)
	}
	m := a.Matrix
	if len(m.IDs) > 1 {
		t := TextTable{Title: matrixTitle,
			Caption: fmt.Sprintf("Over the judged predictions both verdicts have a value for (%s); each cell: kappa [95%%] and n.", scope),
			Head:    append([]string{"verdict"}, m.Labels...)}
		for i, a := range m.IDs {
			row := []string{m.Labels[i]}
			for _, b := range m.IDs {
				p := m.Pair(a, b)
				if a == b || p == nil {
					row = append(row, "")
					continue
				}
				row = append(row, fmt.Sprintf("%s n=%d", p.KappaText, p.N))
			}
			t.Rows = append(t.Rows, row)
		}
		out = append(out, t)
	}
	return out
}

const matrixTitle = "Cohen's kappa between verdicts"

func agreementLeftOut(a *rundir.Agreement) string {
	var parts []string
	for _, x := range []struct {
		n    int
		what string
	}{{a.NotJudged, "on skipped or gold_error questions"}, {a.OtherSystems, "of other systems"},
		{a.Unmatched, "matching no question and SQL of the run"}, {a.GoldWrong, "gold_wrong reviews (about the gold)"}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", x.n, x.what))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Left out: " + strings.Join(parts, "; ") + "."
}

// DrillDown names the commands that make a run's question pages: the HTML report
// (DIR/report.html) and the dashboard. The caller writes them as they run, program and
// quoting included; an empty one is not mentioned.
type DrillDown struct {
	Report, Serve string
}

// WriteAgreement prints the agreement section on a terminal: the tables, then each
// verdict's disagreements with where their drill-down is (report.html#qN, made by
// drill.Report, or the dashboard's /run/RUN/q/N, started by drill.Serve).
func WriteAgreement(w io.Writer, a *rundir.Agreement, dir string, drill DrillDown) error {
	for _, t := range AgreementTables(a) {
		matrix := t.Title == matrixTitle
		fmt.Fprintf(w, "%s\n", t.Title)
		rows := [][]string{t.Head}
		for _, r := range t.Rows {
			if matrix { // one screen wide: kappa alone, its interval and n in the file
				r = append([]string(nil), r...)
				for i := 1; i < len(r); i++ {
					if f := strings.Fields(r[i]); len(f) > 0 {
						r[i] = f[0]
					}
				}
			}
			rows = append(rows, r)
		}
		writeWordGrid(w, rows, true)
		caption := t.Caption
		if matrix {
			caption = strings.Replace(caption, "each cell: kappa [95%] and n.", "each cell: kappa (its 95% interval and n: --json, agreement.json or the report).", 1)
		}
		fmt.Fprintf(w, "%s\n\n", caption)
	}
	if len(a.Matrix.IDs) < 2 && a.Labels == "" {
		fmt.Fprintf(w, "fewer than two verdicts have values in this run: no kappa matrix\n")
	}
	listed := false
	for _, v := range a.Verdicts {
		if len(v.Disagree) == 0 {
			continue
		}
		listed = true
		fmt.Fprintf(w, "%s disagrees with the labels on %d:\n", v.Label, len(v.Disagree))
		for _, d := range v.Disagree {
			note := ""
			if d.Note != "" {
				note = ": " + d.Note
			}
			fmt.Fprintf(w, "  %s #%d (question_id %s, %s): %s says %s, labelled %s%s\n", d.System, d.Index, d.QuestionID, d.DBID, v.Label, verdictWord(d.Verdict), d.Label, note)
		}
	}
	if listed {
		line := fmt.Sprintf("drill-down: #N is %s/report.html#qN", strings.TrimSuffix(dir, "/"))
		if drill.Report != "" {
			line += " (" + drill.Report + ")"
		}
		if drill.Serve != "" {
			line += ", or /run/<run>/q/N in the dashboard (" + drill.Serve + ")"
		}
		fmt.Fprintln(w, line)
	}
	return nil
}
