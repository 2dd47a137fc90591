// Package record defines the judged record, the spine of nl2sqlbench: one Record is one
// line of DIR/<system>/records.jsonl, and every stage after the judge reads these records.
//
// A Record holds the question (index, question_id, db_id, difficulty), the prediction, its
// verdict (correct, incorrect, error, skipped, gold_error), the error category and
// message, ex_bird and ex_spider, row counts, timing, and what the system reported about
// its modules (selected schema, candidates, revision, tokens, calls). <system> is
// SystemDir(name), the one mapping eval, report and serve use; summary.json records it per
// system as dir.
//
// Writer streams records, one write per line, and ReadJSONL reads them back through
// safefile.ReadLines, finding a torn last line after an interruption so that a run can
// resume. The Writer's encoder is generated (record_json_gen.go, by
// internal/record/internal/gencodec): encoding/json's bytes exactly, without its
// reflection (docs/performance.md, "Writing records").
//
// To extend: a new metric adds fields in its own section type, in its own file
// (efficiency.go, schema.go, modules.go, structural.go, flex.go, ...), flattened into the
// JSON object, with a new JSON name (omitempty when it is optional); then run
// go generate ./internal/record (TestGeneratedUpToDate fails until then). Never rename or
// retype an existing field: other tools and older run directories depend on it.
package record
