// Package predict reads the outputs of NL2SQL systems: BIRD prediction JSON, Spider
// prediction text and NL2SQLBench module records, and pairs them with dataset questions.
//
// Pairing is strict: a count mismatch, a missing or duplicate key, or a db_id that
// disagrees with the dataset is an error that names the offending line or key. (The
// official BIRD scripts pair by position and silently mis-score; we refuse instead.)
//
// To add a format: write a reader in its own file returning a *Set, and teach Detect
// to recognise it.
package predict

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// Prediction is a system's output for one question.
type Prediction struct {
	Key  string // BIRD: the JSON key; Spider text: the 0-based line index; records: question_id
	Line int    // 1-based line in the file where the prediction starts (0 if unknown)
	DBID string // db_id the system claims, if the format carries one
	SQL  string // the final SQL to judge

	record.Usage
	SelectedSchema map[string][]string // schema-selection module output
	Candidates     []string            // candidate-generation module outputs, in order
	Revised        bool                // a query-revision module output was present
}

// Set is one prediction file, read.
type Set struct {
	Path   string
	Format string // "bird", "spider" or "records"
	Items  []Prediction
}

// QuestionRef is what pairing needs to know about a dataset question.
type QuestionRef struct {
	Index int
	ID    string
	DBID  string
	Text  string
}
