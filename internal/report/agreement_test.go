package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func agreementFixture() *rundir.Agreement {
	k := 0.4
	return &rundir.Agreement{Labels: "labels.jsonl", Format: "labels", LabelsRead: 3, Labelled: 2, NotJudged: 1, KappaMethod: "analytic",
		Verdicts: []metrics.VerdictAgreement{{ID: "ex_bird", Label: "EX bird", Confusion: metrics.Confusion{TP: 1, FP: 1}, N: 2, Kappa: &k,
			AccuracyText: "50.00", FPRateText: "100.00", FNRateText: "0.00", FPShareText: "50.00", KappaText: "n/a: one answer throughout",
			Disagree: []metrics.Disagreement{{System: "sys<b>", Index: 7, QuestionID: "q7", DBID: "db", Verdict: 1, Label: "incorrect", Note: "<i>wrong</i> table"}}}},
		Matrix: metrics.KappaMatrix{IDs: []string{"ex_bird", "etm"}, Labels: []string{"EX bird", "ETM"},
			Pairs: []metrics.KappaPair{{A: "ex_bird", B: "etm", N: 5, KappaText: "0.62 [0.10, 1.00]"}}}}
}

// TestAgreementSection renders the section in the static report (links to #qN) and in
// the dashboard (links to the question's page), escaped, with the file's texts as they are.
func TestAgreementSection(t *testing.T) {
	run := &rundir.Run{Agreement: agreementFixture()}
	for _, tc := range []struct {
		name   string
		static bool
		link   string
	}{{"report", true, `href="#q7"`}, {"dashboard", false, `href="/run/r/q/7"`}} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Page{Static: tc.static, Base: "/run/r/", Agreement: Agreement(run)}
			var b bytes.Buffer
			if err := pageTemplates.ExecuteTemplate(&b, "page", p); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, want := range []string{`<h2 id="agreement">`, tc.link, "sys&lt;b&gt; #7", "&lt;i&gt;wrong&lt;/i&gt; table", "n/a: one answer throughout",
				"0.62 [0.10, 1.00] n=5", "Left out: 1 on skipped or gold_error questions."} {
				if !strings.Contains(out, want) {
					t.Errorf("page lacks %q", want)
				}
			}
			if strings.Contains(out, "<i>wrong</i>") {
				t.Error("a label's note is not escaped")
			}
		})
	}
	var b bytes.Buffer
	if err := WriteAgreement(&b, run.Agreement, "runs/x/", DrillDown{Report: "./nl2sqlbench report runs/x --html runs/x/report.html"}); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "sys<b> #7 (question_id q7, db): EX bird says correct, labelled incorrect: <i>wrong</i> table") ||
		!strings.Contains(out, "runs/x/report.html#qN (./nl2sqlbench report runs/x --html runs/x/report.html)") {
		t.Errorf("terminal:\n%s", out)
	}
}
