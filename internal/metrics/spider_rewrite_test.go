package metrics

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestSummarizeSpiderRewrite(t *testing.T) {
	one := 1
	rec := func(i int, v record.Verdict, changed, corners []string, official *int) record.Record {
		r := record.Record{Index: i, QuestionID: "q" + string(rune('0'+i)), Verdict: v}
		r.SpiderRewriteChanged, r.SpiderRewriteCorners, r.ExSpiderOfficial = changed, corners, official
		return r
	}
	a := SystemRecords{Name: "A", Records: []record.Record{
		rec(0, record.Correct, nil, nil, nil),
		rec(1, record.Error, []string{"pred"}, []string{"value_in_name"}, &one),
		rec(2, record.Correct, []string{"gold", "pred"}, []string{"distinct_in_aggregate"}, nil),
		rec(3, record.Skipped, []string{"pred"}, []string{"value_quoted"}, nil), // not judged: not counted
	}}
	b := SystemRecords{Name: "B", Records: []record.Record{
		rec(0, record.Correct, []string{"gold"}, []string{"distinct_nested"}, nil),
		rec(1, record.Correct, nil, nil, nil),
		rec(2, record.Incorrect, []string{"gold"}, []string{"distinct_in_aggregate"}, nil),
		rec(3, record.Skipped, nil, nil, nil),
	}}
	tests := []struct {
		name      string
		mode      string
		systems   []SystemRecords
		nilResult bool
		questions int
		gold      int
		first     string
		pred      []int // per system
		warning   []string
	}{
		{"official", "official", []SystemRecords{a, b}, false, 3, 2, "q0", []int{2, 0},
			[]string{"on 3 questions (the gold on 2; the prediction: A 2, B 0)", "first: question q0 (gold: distinct_nested)", "--spider-mode corrected judges without it"}},
		{"corrected", "corrected", []SystemRecords{a}, false, 2, 1, "q1", []int{2},
			[]string{"on 2 questions", "first: question q1 (pred: value_in_name)", "differing from the official on: A 1"}},
		{"official, nothing changed", "official", []SystemRecords{{Name: "C", Records: a.Records[:1]}}, true, 0, 0, "", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := SummarizeSpiderRewrite(tc.mode, tc.systems)
			if tc.nilResult {
				if s != nil || s.Warning() != "" {
					t.Fatalf("got %+v, want no section and no warning", s)
				}
				return
			}
			if s == nil || s.First == nil {
				t.Fatalf("got %+v, want a section with a first question", s)
			}
			var pred []int
			for _, sys := range s.Systems {
				pred = append(pred, sys.Pred)
			}
			if s.Questions != tc.questions || s.Gold != tc.gold || s.First.QuestionID != tc.first || !slices.Equal(pred, tc.pred) {
				t.Errorf("got questions %d gold %d first %s pred %v, want %d %d %s %v", s.Questions, s.Gold, s.First.QuestionID, pred, tc.questions, tc.gold, tc.first, tc.pred)
			}
			w := s.Warning()
			for _, part := range tc.warning {
				if !strings.Contains(w, part) {
					t.Errorf("warning %q lacks %q", w, part)
				}
			}
		})
	}
	if s := SummarizeSpiderRewrite("corrected", []SystemRecords{a}); !slices.Equal(s.Systems[0].ModeDiffs, []int{1}) || s.Systems[0].Corners["distinct_in_aggregate"] != 1 {
		t.Errorf("mode diffs %v, corners %v", s.Systems[0].ModeDiffs, s.Systems[0].Corners)
	}
}

// TestSpiderRewriteWarningManySystems: the warning names ten systems' counts and says how
// many more there are (200 systems made it one line of 3,800 characters).
func TestSpiderRewriteWarningManySystems(t *testing.T) {
	var systems []SystemRecords
	for i := range 200 {
		r := record.Record{Index: 0, QuestionID: "q0", Verdict: record.Correct}
		r.SpiderRewriteChanged, r.SpiderRewriteCorners = []string{"pred"}, []string{"value_quoted"}
		systems = append(systems, SystemRecords{Name: fmt.Sprintf("sys%03d", i), Records: []record.Record{r}})
	}
	for _, mode := range []string{"official", "corrected"} {
		w := SummarizeSpiderRewrite(mode, systems).Warning()
		if !strings.Contains(w, "sys009 1 and 190 more systems (summary.json's spider_rewrite)") || strings.Contains(w, "sys010") || len(w) > 600 {
			t.Errorf("%s: warning (%d characters) %q", mode, len(w), w)
		}
	}
}
