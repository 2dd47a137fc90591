// Package run orchestrates an evaluation and returns what it found as data: the cli
// decides where anything goes. It exists so that eval, demo and collect's two-pass runs
// share one run path that can be tested without a command line, and so that the cli is
// left with flags, printing and the run directory.
//
// An evaluation has two steps. Prepare loads the dataset, reads and pairs every
// prediction file and narrows the run to Config.DBIDs; the caller then knows the
// systems (and their directory names) and can read the records of an interrupted run.
// Eval judges what those records do not cover, streaming every new record to the
// caller's Sink; with Config.VES it times the correct predictions and hands each
// system's records back to the Sink once more, timed; it returns the records, each
// system's statistics and the summary (Summarize, summary.go). Warnings and progress go
// to an Observer as they happen. TwoPass (twopass.go) chains two collect runs with a
// judged run between them, for the NL2SQL++ two-pass benchmark; the caller judges
// through its Passes, which is how the judged run directories get written.
//
// To extend a run: a per-question metric is an entry in the registry (metrics.Declared),
// which Summarize aggregates into summary.json's metrics section; when it needs record
// fields filled while judging, a judge.Annotator added in annotators (annotate.go). An
// analysis that is not a per-question mean is a section of summary.json: a line in
// Summarize.
package run
