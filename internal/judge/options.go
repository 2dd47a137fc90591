package judge

import (
	"context"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Semantics names the execution-match semantics that decides a record's verdict. Both
// ex_bird and ex_spider are always computed; this only picks which one is "correct".
type Semantics string

// The two semantics.
const (
	Bird   Semantics = "bird"
	Spider Semantics = "spider"
)

// Options control a run.
type Options struct {
	Timeout   time.Duration // per query; 0 = none
	MaxRows   int           // per result; 0 = no cap
	MaxBytes  int64         // per result; 0 = engine.DefaultMaxBytes, negative = no cap
	Workers   int           // questions judged at once; 0 = number of CPUs
	Semantics Semantics     // decides the verdict; default Bird
	// Progress, if set, is called after each question with the number done and the total.
	Progress func(done, total int)
	// Annotators add fields to each judged record (structural match, schema metrics...).
	// They run in the worker goroutines, in order, before the record is emitted.
	Annotators []Annotator
	// Locate names a question's database for the engine Run is given: nil means the
	// dataset's SQLite file (Dataset.DBPath); a server engine locates by db_id. A
	// question whose database cannot be located is skipped.
	Locate Locator
	// Gold, when set, runs the gold SQL somewhere else than the predictions: the NL2SQL++
	// benchmark takes gold results from SQLite and runs SQL++ predictions on Couchbase.
	Gold *Target
	// SpiderMode is the rewrite before Spider's execution match (default official):
	// corrected keeps ex_spider from the official rewrite's corners and records the
	// official verdict where it differs (spider_corrected.go).
	SpiderMode SpiderMode
	// Flex adds the NL2SQL++ flexible comparison (FlexCompare) to every judged record.
	Flex bool
	// SkipSoftF1 leaves soft_f1 out of every record (a run whose metrics do not include
	// it: eval --metrics).
	SkipSoftF1 bool
	// FaultTries is how many times a query failing with an infrastructure fault is tried
	// (0: DefaultFaultTries); FaultBackoff the wait before the first retry, doubled after
	// each (0: DefaultFaultBackoff). See fault.go.
	FaultTries   int
	FaultBackoff time.Duration
	// Warn, if set, hears each retry after a fault. It may be called concurrently.
	Warn func(msg string)
}

// Locator names the database of db_id for one engine; ok is false when it has none.
type Locator func(dbID string) (db string, ok bool)

// Target is an engine and how it names each question's database.
type Target struct {
	Engine engine.Engine
	Locate Locator // nil: the dataset's SQLite file
}

// ByDBID locates a question's database by its db_id, as server engines (PostgreSQL,
// MySQL, SQL++) name them.
func ByDBID(dbID string) (string, bool) { return dbID, dbID != "" }

// Annotator adds to a record after the judge has given its verdict. dbPath is the
// question's database file ("" when the database is missing, as for skipped records).
// Annotators are called concurrently for different questions and must be safe for that.
// An error aborts the run.
type Annotator interface {
	Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error
}

// System is one system's predictions, aligned with the dataset's questions.
type System struct {
	Name  string
	Preds []*predict.Prediction // Preds[i] answers question i; nil means no prediction
	// From lets an interrupted run resume: records for questions before From were
	// already written and are not emitted again.
	From int
}

// Emit receives each record, per system in dataset order. It is called from one
// goroutine at a time.
type Emit func(system int, rec *record.Record) error
