package demo

import (
	"strings"
	"testing"
)

// TestDescriptions: every demo system has a note, and the deliberately broken questions
// are those the data breaks (their evidence says so) with the verdicts the data gives.
func TestDescriptions(t *testing.T) {
	f := buildDemo(t)
	for _, name := range f.SystemOrder {
		if SystemNotes[name] == "" {
			t.Errorf("system %s has no note in SystemNotes", name)
		}
	}
	if len(SystemNotes) != len(f.SystemOrder) {
		t.Errorf("SystemNotes names %d systems, the demo has %d", len(SystemNotes), len(f.SystemOrder))
	}
	want := map[string]string{missingDBQID: "skipped", brokenGoldQID: "gold_error"}
	if len(Deliberate) != len(want) {
		t.Fatalf("Deliberate lists %d questions, want %d", len(Deliberate), len(want))
	}
	evidence := map[string]string{}
	for _, q := range readQuestions(t, f.Questions) {
		evidence[q.ID] = q.Evidence
	}
	for _, b := range Deliberate {
		if want[b.QuestionID] != b.Verdict {
			t.Errorf("%s: verdict %q, want %q", b.QuestionID, b.Verdict, want[b.QuestionID])
		}
		if !strings.Contains(strings.ToLower(evidence[b.QuestionID]), "deliberate") {
			t.Errorf("%s: its evidence does not say it is broken on purpose: %q", b.QuestionID, evidence[b.QuestionID])
		}
	}
}
