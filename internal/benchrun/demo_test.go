package benchrun

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestDemoConfig: the demo judges every system of its files in their order, with its
// small limits and its prices.
func TestDemoConfig(t *testing.T) {
	files := &demo.Files{Questions: "/d/q.jsonl", DBRoot: "/d/db", SystemOrder: []string{"b", "a"},
		Systems: map[string]string{"a": "/d/a.jsonl", "b": "/d/b.jsonl"}}
	cfg, err := DemoConfig(files, 3)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DatasetSpec != "jsonl:/d/q.jsonl" || cfg.DBRoot != "/d/db" || cfg.Workers != 3 ||
		cfg.Timeout != demo.Timeout || cfg.MaxRows != demo.MaxRows {
		t.Errorf("DemoConfig = %+v", cfg)
	}
	if want := []string{"b=/d/b.jsonl", "a=/d/a.jsonl"}; !reflect.DeepEqual(cfg.Preds, want) {
		t.Errorf("Preds = %q, want %q", cfg.Preds, want)
	}
	if cfg.Pricing == nil || !strings.HasPrefix(cfg.PricingPath, "the demo's made-up prices") {
		t.Errorf("pricing %v from %q", cfg.Pricing, cfg.PricingPath)
	}
}

// TestDemoWarnings: a demo run's warnings are held back only when exactly the demo's
// deliberately broken questions went unjudged, with their verdicts, for every system.
func TestDemoWarnings(t *testing.T) {
	deliberate := func() []record.Record {
		var rs []record.Record
		for _, b := range demo.Deliberate {
			rs = append(rs, record.Record{QuestionID: b.QuestionID, Verdict: record.Verdict(b.Verdict)})
		}
		return append(rs, record.Record{QuestionID: "ok-1", Verdict: record.Correct})
	}
	warnings := []string{"2 questions skipped"}
	result := func(recs ...[]record.Record) *Result {
		res := &Result{Summary: &rundir.Summary{Warnings: warnings}}
		for _, r := range recs {
			res.Systems = append(res.Systems, SystemResult{Name: "s", Records: r})
		}
		return res
	}
	other := deliberate()
	other[len(other)-1].Verdict = record.GoldError // one more question not judged
	swapped := deliberate()
	swapped[0].Verdict, swapped[1].Verdict = swapped[1].Verdict, swapped[0].Verdict
	for _, tc := range []struct {
		name string
		res  *Result
		want []string
	}{
		{"no run", nil, nil},
		{"only the deliberate ones", result(deliberate(), deliberate()), nil},
		{"one more unjudged", result(deliberate(), other), warnings},
		{"verdicts swapped", result(swapped), warnings},
		{"none unjudged", result([]record.Record{{QuestionID: "ok-1", Verdict: record.Correct}}), warnings},
	} {
		if got := DemoWarnings(tc.res); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: DemoWarnings = %q, want %q", tc.name, got, tc.want)
		}
	}
}
