package report

import (
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func TestWriteETM(t *testing.T) {
	s := &rundir.Summary{ETM: &match.ETMSummary{Systems: []match.ETMSystemSummary{{
		System:  "sysA",
		Overall: match.ETMGroup{Name: "all", Judged: 4, ETM: 2, Rate: 0.5, EXOnly: 1, ETMOnly: 1},
		ByDifficulty: []match.ETMGroup{
			{Name: "easy", Judged: 2, ETM: 2, Rate: 1},
			{Name: "hard", Judged: 2, Rate: 0},
		},
		EXOnly: []int{7}, ETMOnly: []int{9},
	}}}}
	var b strings.Builder
	if err := writeETM(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"EX/ETM disagreements", "sysA              1              1            0", "sysA: suspected EX false positives (EX yes, ETM no): #7", "(ETM yes, EX no): #9"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := writeETM(&b, &rundir.Summary{}); err != nil || b.Len() != 0 {
		t.Errorf("no ETM section: wrote %q, err %v", b.String(), err)
	}
	long := make([]int, maxListed+5)
	if got := indexList(long); !strings.Contains(got, "(5 more in summary.json)") {
		t.Errorf("indexList truncation: %q", got)
	}
}

func TestWriteETMModeDiffs(t *testing.T) {
	s := &rundir.Summary{ETM: &match.ETMSummary{Mode: "corrected", Systems: []match.ETMSystemSummary{{
		System:    "sysA",
		Overall:   match.ETMGroup{Name: "all", Judged: 2, ETM: 1, Rate: 0.5},
		ModeDiffs: []match.ETMModeDiff{{Index: 595, ETM: 1, Official: 0, Rule: "alias (P6 / script rule 106)"}},
	}, {System: "sysB"}}}}
	var b strings.Builder
	if err := writeETM(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"ETM corrected vs official (the authors' script): 1 question differ", "sysA    #595      1    0         alias (P6 / script rule 106)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	s.ETM.Systems[0].ModeDiffs = nil
	b.Reset()
	if err := writeETM(&b, s); err != nil || strings.Contains(b.String(), "vs official") {
		t.Errorf("no differences: wrote %q, err %v", b.String(), err)
	}
}
