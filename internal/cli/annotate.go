package cli

import (
	"context"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
)

// This file wires the metrics that extend a run: each adds one line to annotators (fields
// on every record, computed in the judge's workers) and/or one line to extendSummary
// (sections of summary.json computed from all records).

// annotators returns what adds fields to every judged record of this run.
func annotators(ctx context.Context, cfg evalConfig, ds *dataset.Dataset) ([]judge.Annotator, error) {
	var as []judge.Annotator
	return as, nil
}

// systemRecords is one system's judged records, for summary sections.
type systemRecords struct {
	Name    string
	Records []record.Record
}

// extendSummary adds summary sections computed from every system's records.
func extendSummary(ctx context.Context, cfg evalConfig, ds *dataset.Dataset, sum *report.RunSummary, systems []systemRecords) error {
	return nil
}
