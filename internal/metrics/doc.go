// Package metrics computes scores from judged records, and holds the metric registry.
// Every function here is pure: it reads records and returns numbers, so any stage
// (report, serve, a notebook reading records.jsonl) gets the same figures.
//
// # The registry
//
// declared.go declares every per-question metric once, as a Metric: its id (the key in
// summary.json, never renamed), label, group (which table shows it: headline, schema,
// candidates, usage), the record fields it reads, its per-question value, its
// denominator (every judged question, or the judged questions that have a value), unit
// and display rounding, whether higher is better, the coverage under which it is not
// applicable, and when it applies. Aggregate (aggregate.go) is the one place values are
// averaged: it produces summary.json's metrics section, per system and per difficulty,
// with each value's n, coverage and printed text. No output keeps a list of metric ids;
// each reads the declaration (Declaration, DisplayOf, LegendOf).
//
// Analyses that are not per-question means (query revision's ratios, usage over the
// questions with usage and per module, the cross-system tables) are defined in
// revision.go, cost.go and cross.go and assembled by BuildModules into the modules
// section; where one reports a quantity the registry also has, a test holds them equal.
// Also here: verdict tallies (Tally) and the NL2SQLBench statistics.json (counts / ids).
//
// # Intervals and paired tests
//
// interval.go gives every applicable value its 95% confidence interval inside Aggregate:
// Wilson for a metric declared Binary, a fixed-seed percentile bootstrap for means, every
// mean over n values resampled from one shared set of draws per n (bootstrap.go sums the
// resamples to the same bits as a plain dot product, faster; percentile.go reads the
// percentiles without a sort). paired.go builds the paired section that benchrun.Summarize adds
// for two systems or more (exact McNemar, paired bootstrap, every pair's differences of
// one length resampled from one set of draws). docs/statistics.md.
//
// # Selection and agreement
//
// selection.go reads eval --metrics (registry ids, the extras by_difficulty and
// esm_partial, the groups bird, spider, all) and says, as data, what work each metric
// needs (Need: hardness, Soft-F1, ESM, ETM, linking, flex, timing, test suite, modules
// section): docs/metrics-selection.md. agreement.go sets every metric declared Verdict (a
// 0/1 verdict on the prediction: EX bird, EX spider, TS-EX, ESM, ETM, Flex, Soft-F1 = 1,
// Spider2 Final) against expert labels (confusion, rates, Cohen's kappa with the
// Fleiss-Cohen-Everitt interval, the disagreements) and against each other (the kappa
// matrix): docs/agreement.md.
//
// To add a metric: one entry in Declared, with its Needs and its Display (legend entry,
// which tables show it); TestEveryMetricHasALegend fails for a metric without a legend.
// docs/architecture.md, "Where to add", has the whole path.
package metrics
