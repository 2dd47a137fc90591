package cli

import (
	"context"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
)

// This file wires the metrics that extend a run: each adds one line to annotators (fields
// on every record, computed in the judge's workers) and/or one line to extendSummary
// (sections of summary.json computed from all records).

// annotators returns what adds fields to every judged record of this run.
func annotators(ctx context.Context, cfg evalConfig, ds *dataset.Dataset) ([]judge.Annotator, error) {
	var as []judge.Annotator
	as = append(as, match.NewAnnotator(ds.Tables, match.Options{Values: cfg.ESMValues, Distinct: cfg.ESMDistinct}))
	as = append(as, moduleAnnotator(cfg, ds))
	as = append(as, match.NewETMAnnotator(cfg.ETMVerbose))
	return as, nil
}

// systemRecords is one system's judged records, for summary sections.
type systemRecords struct {
	Name    string
	Records []record.Record
}

// extendSummary adds summary sections computed from every system's records.
func extendSummary(ctx context.Context, cfg evalConfig, ds *dataset.Dataset, sum *report.RunSummary, systems []systemRecords) error {
	srs := make([]metrics.SystemRecords, len(systems))
	for i, s := range systems {
		srs[i] = metrics.SystemRecords{Name: s.Name, Records: s.Records}
	}
	sum.Metrics = metrics.Aggregate(metrics.Declared(metrics.Options{PassK: cfg.PassK.ks(), Pricing: cfg.Pricing.pricing}), srs)
	sum.Structural = match.Summarize(match.Options{Values: cfg.ESMValues, Distinct: cfg.ESMDistinct}, len(systems), func(i int) (string, []record.Record) { return systems[i].Name, systems[i].Records })
	sum.Modules = moduleSummary(cfg, systems)
	for _, s := range systems {
		if f, ok := metrics.SummarizeFlex(s.Name, s.Records); ok {
			sum.Flex = append(sum.Flex, f)
		}
	}
	sum.ETM = match.SummarizeETM(len(systems), func(i int) (string, []record.Record) { return systems[i].Name, systems[i].Records })
	return nil
}

// closeAnnotators releases what annotators hold open (ETM's read-only connections).
func closeAnnotators(as []judge.Annotator) {
	for _, a := range as {
		if c, ok := a.(io.Closer); ok {
			_ = c.Close()
		}
	}
}
