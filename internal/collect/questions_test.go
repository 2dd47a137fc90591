package collect

import (
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

func TestQuestionsSelection(t *testing.T) {
	ds := &dataset.Dataset{Questions: []dataset.Question{
		{ID: "1", DBID: "a"}, {ID: "2", DBID: "a"}, {ID: "1", DBID: "a"}, // a repeat of a/1
		{ID: "1", DBID: "b"}, {ID: "3", DBID: "a"},
	}}
	odd := func(q dataset.Question) bool { return q.ID != "2" }
	tests := []struct {
		name string
		opt  Options
		want []string
	}{
		{"all, each once in order", Options{}, []string{"a/1", "a/2", "b/1", "a/3"}},
		{"limit counts before dedupe", Options{Limit: 3}, []string{"a/1", "a/2"}},
		{"select", Options{Select: odd}, []string{"a/1", "b/1", "a/3"}},
		{"limit then select", Options{Limit: 4, Select: odd}, []string{"a/1", "b/1"}},
		{"limit past the end", Options{Limit: 99}, []string{"a/1", "a/2", "b/1", "a/3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for k, q := range tc.opt.questions(ds) {
				if k != questionKey(q.DBID, q.ID) {
					t.Errorf("key %q for %s/%s", k, q.DBID, q.ID)
				}
				got = append(got, q.DBID+"/"+q.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	// Stopping early must not panic (yield's false is honoured).
	for range (&Options{}).questions(ds) {
		break
	}
}
