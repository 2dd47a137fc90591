// Package dataset loads benchmark questions into one shape, Question (id, db_id, text,
// evidence, accepted gold SQL, difficulty), and says where each question's database
// lives. It reads BIRD JSON or BIRD's gold .sql (with its question JSON for difficulty),
// Spider JSON or gold files, Spider 2.0 suites and nl2sqlbench JSONL.
//
// A file that fails to load as its KIND is sniffed (hint.go) so that the error names the
// KIND it belongs to, or says it is a prediction file. Question files' JSON arrays are
// split in one validating pass (jsonfast.go), falling back to encoding/json, which names
// the problem, for anything unusual. Options.NoHardness leaves Spider's difficulty
// unknown, so a run whose metrics need no breakdown parses no SQL. An --alternatives file
// (alternatives.go) adds accepted alternative golds to the questions it names; the
// manifest records its sha256 (docs/review.md). SplitShards (shard.go) splits questions
// into shards, databases kept whole (docs/scale.md).
//
// A Spider 2.0 suite (spider2) has no gold SQL: Dataset.Spider2 holds its tasks, eval
// config (condition_cols, ignore_order) and gold result CSVs (variants, and those missing
// from a copy); a question's difficulty is its task's backend (sqlite, bigquery,
// snowflake), so per-difficulty tables read per backend.
//
// To add a benchmark: write a loader in its own file (like spider.go or bird.go) that
// fills a Dataset, give its KIND a constant and a case in Load's switch (load.go), and
// its database layout in DBCandidates (dbpath.go); describe its format in
// docs/input-formats.md.
package dataset
