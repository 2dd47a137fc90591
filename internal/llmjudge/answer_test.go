package llmjudge

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		name, text string
		correct    bool
		category   string
		wantErr    string // "" : parses
	}{
		{"plain correct", `{"verdict": "correct", "category": "none", "rationale": "Same rows."}`, true, "none", ""},
		{"fenced incorrect", "```json\n{\"verdict\": \"incorrect\", \"category\": \"condition\", \"rationale\": \"Misses the year filter.\"}\n```", false, "condition", ""},
		{"bare fence", "```\n{\"verdict\": \"Incorrect\", \"category\": \"Table\", \"rationale\": \"Wrong join.\"}\n```", false, "table", ""},
		{"extra key ignored", `{"verdict": "correct", "category": "none", "rationale": "ok", "confidence": 0.9}`, true, "none", ""},
		{"prose before", `Sure! {"verdict": "correct", "category": "none", "rationale": "ok"}`, false, "", "not a JSON object"},
		{"prose after", `{"verdict": "correct", "category": "none", "rationale": "ok"} Hope this helps.`, false, "", "text after the JSON object"},
		{"two objects", `{"verdict": "correct", "category": "none", "rationale": "ok"}{"verdict": "incorrect", "category": "value", "rationale": "no"}`, false, "", "text after the JSON object"},
		{"duplicate key", `{"verdict": "incorrect", "category": "value", "rationale": "no", "verdict": "correct"}`, false, "", `key "verdict" given twice`},
		{"unknown verdict", `{"verdict": "partially correct", "category": "none", "rationale": "hm"}`, false, "", "neither correct nor incorrect"},
		{"unknown category", `{"verdict": "incorrect", "category": "syntax", "rationale": "hm"}`, false, "", "not in the taxonomy"},
		{"correct with a category", `{"verdict": "correct", "category": "value", "rationale": "hm"}`, false, "", "none goes with correct"},
		{"incorrect without one", `{"verdict": "incorrect", "category": "none", "rationale": "hm"}`, false, "", "none goes with correct"},
		{"empty rationale", `{"verdict": "correct", "category": "none", "rationale": "  "}`, false, "", "empty rationale"},
		{"missing category", `{"verdict": "correct", "rationale": "ok"}`, false, "", `no "category"`},
		{"verdict not a string", `{"verdict": true, "category": "none", "rationale": "ok"}`, false, "", `"verdict" is not a string`},
		{"array", `[{"verdict": "correct"}]`, false, "", "not a JSON object"},
		{"unclosed fence", "```json\n{\"verdict\": \"correct\", \"category\": \"none\", \"rationale\": \"ok\"}", false, "", "code fence"},
		{"two fences", "```json\n{}\n```\n```json\n{}\n```", false, "", "code fence"},
		{"truncated", `{"verdict": "correct", "category": "none", "rationale": "o`, false, "", "does not parse"},
		{"empty", "", false, "", "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseAnswer(tt.text)
			if tt.wantErr != "" {
				if err == nil || !errors.Is(err, ErrUnparsable) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseAnswer = %+v, %v; want an ErrUnparsable error containing %q", a, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Correct != tt.correct || a.Category != tt.category || a.Rationale == "" {
				t.Errorf("ParseAnswer = %+v, want correct=%v category=%s", a, tt.correct, tt.category)
			}
		})
	}
}

func TestParseAnswerClipsRationale(t *testing.T) {
	a, err := ParseAnswer(`{"verdict": "correct", "category": "none", "rationale": "` + strings.Repeat("é", 2*maxRationale) + `"}`)
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(a.Rationale)); n != maxRationale+1 || !strings.HasSuffix(a.Rationale, "…") {
		t.Errorf("rationale of %d runes, want %d and a cut mark", n, maxRationale+1)
	}
}
