package report

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestRewriteFacts(t *testing.T) {
	zero := 0
	tests := []struct {
		name string
		rec  record.Record
		want []string // label: value
	}{
		{"untouched", record.Record{}, nil},
		{"official mode", record.Record{SpiderRewrite: record.SpiderRewrite{SpiderRewriteChanged: []string{"pred"}, SpiderRewriteCorners: []string{"value_in_name"}}},
			[]string{"Spider's rewrite: changes the pred: value_in_name"}},
		{"corrected mode", record.Record{SpiderRewrite: record.SpiderRewrite{SpiderRewriteChanged: []string{"gold", "pred"},
			SpiderRewriteCorners: []string{"distinct_in_aggregate"}, ExSpiderOfficial: &zero}},
			[]string{"Spider's rewrite: changes the gold and pred: distinct_in_aggregate", "EX, Spider semantics, official rewrite: no match"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range rewriteFacts(&tc.rec) {
				got = append(got, f.Label+": "+f.Value)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("fact %d: %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}
