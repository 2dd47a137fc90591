package benchrun

import (
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// DemoConfig is the run `demo` judges, exactly as eval would: the embedded demo's
// questions and databases (files, from demo.Materialize), its systems in their order,
// its small limits and its made-up prices, with workers questions judged in parallel.
func DemoConfig(files *demo.Files, workers int) (Config, error) {
	pr, err := metrics.ParsePricing([]byte(demo.Pricing))
	if err != nil {
		return Config{}, fmt.Errorf("demo pricing: %w", err)
	}
	cfg := Config{
		DatasetSpec: "jsonl:" + files.Questions,
		DBRoot:      files.DBRoot,
		Timeout:     demo.Timeout,
		MaxRows:     demo.MaxRows,
		Workers:     workers,
		Pricing:     pr,
		PricingPath: demo.PricingName,
	}
	for _, name := range files.SystemOrder {
		cfg.Preds = append(cfg.Preds, name+"="+files.Systems[name])
	}
	return cfg, nil
}

// DemoWarnings are the warnings of a demo run worth printing: none when the questions
// not judged are exactly demo.Deliberate's, with their verdicts, for every system (the
// demo announces those), else every warning of the run.
func DemoWarnings(res *Result) []string {
	if res == nil || res.Summary == nil {
		return nil
	}
	want := map[string]string{}
	for _, b := range demo.Deliberate {
		want[b.QuestionID] = b.Verdict
	}
	expected := true
	for _, s := range res.Systems {
		seen := 0
		for i := range s.Records {
			r := &s.Records[i]
			if r.Verdict != record.Skipped && r.Verdict != record.GoldError {
				continue
			}
			seen++
			expected = expected && want[r.QuestionID] == string(r.Verdict)
		}
		expected = expected && seen == len(want)
	}
	if expected {
		return nil
	}
	return res.Summary.Warnings
}
