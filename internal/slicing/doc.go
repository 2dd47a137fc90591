// Package slicing splits a run's questions by what they ask and scores every system on
// each slice, and counts how incorrect answers are wrong (record.Diff).
//
// Slices are declared once, in Declared, like metrics: a slice is an id, a label and a
// function of a question's Facts (its gold SQL's sqlast.Features, evidence, difficulty,
// database), and a new slice is one entry there. The package computes summary.json's
// slices section (the headline metric per slice group, with its interval and the paired
// McNemar verdicts between systems, through metrics.Aggregate and metrics.ComparePaired,
// and each group's result_diff kinds) and its result_diffs section. benchrun.Summarize calls it
// once; outputs only render what it computed (docs/slices.md).
package slicing
