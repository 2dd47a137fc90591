// Package review reads human reviews of a run (reviews.jsonl) and applies them to
// judged records, so that raw and reviewed scores can be reported side by side
// (docs/review.md). A review marks a system's prediction acceptable ("accept") or not
// ("reject"), or the gold wrong ("gold_wrong") with a corrected SQL that every system's
// prediction of that question is judged again against.
//
// Reviews are read strictly and applied to a copy of a system's records (Apply).
// run.Rescore judges the corrected golds again through judge.Run and aggregates raw and
// reviewed EX with the registry, with each system's rank in both, the registry's paired
// test of raw against reviewed verdicts and the questions that moved; the cli writes
// reviewed.json, which report renders. A corrections file (question id -> corrected SQL,
// ReadCorrections) becomes gold_wrong reviews. The dashboard records a review
// (report/serve_review.go: session token, same-origin, strict body) with Append and
// re-scores through a report.Rescorer that the cli's serve gives it (the cli's
// rescoreRun, the same path as rescore), since report cannot import run.
//
// labels.go reads expert labels for agreement (reviews.jsonl, a labels JSONL, or
// NL2SQL-BUGs' published JSON); run.Agreement resolves them to records (by index,
// question_id, or NL2SQL-BUGs' question and SQL), the metrics package measures, and the
// cli writes agreement.json through rundir, which report renders with links to each
// drill-down (docs/agreement.md).
//
// To add a decision: a constant, its check in validate, and its effect in Apply.
package review
