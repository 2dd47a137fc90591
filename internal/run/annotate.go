package run

import (
	"context"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/linking"
	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
)

// This file wires the metrics that add fields to every judged record, computed in the
// judge's workers: each is one line in annotators. Their summary sections are lines in
// Summarize (summary.go).

// annotators returns what adds fields to every judged record of this run.
func annotators(ctx context.Context, cfg Config, ds *dataset.Dataset) ([]judge.Annotator, error) {
	var as []judge.Annotator
	as = append(as, match.NewAnnotator(ds.Tables, match.Options{Values: cfg.ESMValues, Distinct: cfg.ESMDistinct}))
	as = append(as, moduleAnnotator(cfg, ds))
	as = append(as, match.NewETMAnnotator(cfg.ETMVerbose))
	return as, nil
}

// moduleAnnotator fills every record's schema-linking and module fields.
func moduleAnnotator(cfg Config, ds *dataset.Dataset) *linking.Annotator {
	return linking.New(ds, linking.Options{PassK: cfg.passK()})
}

// closeAnnotators releases what annotators hold open (ETM's read-only connections).
func closeAnnotators(as []judge.Annotator) {
	for _, a := range as {
		if c, ok := a.(io.Closer); ok {
			_ = c.Close()
		}
	}
}
