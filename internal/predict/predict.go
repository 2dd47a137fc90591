package predict

import (
	"errors"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Formats a Set can have.
const (
	FormatBIRD    = "bird"
	FormatSpider  = "spider"
	FormatRecords = "records"
)

// Prediction is a system's output for one question.
type Prediction struct {
	Key  string // BIRD: the JSON key; Spider text: the 0-based line index; records: question_id
	Line int    // 1-based line in the file where the prediction starts (0 if unknown)
	DBID string // db_id the system claims, if the format carries one
	SQL  string // the final SQL to judge
	// Question is the question text, for records that carry no question_id (then Key is
	// empty and pairing is by this text).
	Question string

	record.Usage
	SelectedSchema map[string][]string // schema-selection module output
	Candidates     []string            // candidate-generation module outputs, in order
	Revised        bool                // a query-revision module output was present
}

// Set is one prediction file, read.
type Set struct {
	Path   string
	Format string // "bird", "spider", "list" or "records"
	Items  []Prediction
	// Notes say how the file was read where it departs from its format's plain form
	// (a Spider text file with BIRD's separators); the run prints them as warnings.
	Notes []string
}

// QuestionRef is what pairing needs to know about a dataset question.
type QuestionRef struct {
	Index int
	ID    string
	DBID  string
	Text  string
}

// PairOptions relax pairing.
type PairOptions struct {
	// AllowMissing makes a question without a prediction pair with nil instead of
	// failing: for a prediction file that covers only part of the dataset.
	AllowMissing bool
	// IgnoreExtra drops predictions that answer no question in qs instead of failing:
	// for pairing a full prediction file with a filtered subset of the dataset.
	IgnoreExtra bool
}

// Sentinel errors. Reading errors wrap ErrMalformed (or ErrDuplicate); pairing errors
// are *PairError values wrapping one of the others.
var (
	ErrMalformed     = errors.New("malformed prediction file")
	ErrUnknownFormat = errors.New("unknown prediction format")
	ErrCountMismatch = errors.New("prediction count does not match the question count")
	ErrMissing       = errors.New("question has no prediction")
	ErrDuplicate     = errors.New("duplicate prediction")
	ErrUnknownKey    = errors.New("prediction answers no question")
	ErrDBMismatch    = errors.New("prediction db_id disagrees with the dataset")
	ErrAmbiguous     = errors.New("prediction matches several different questions")
)

// PairError is one pairing problem, located in the prediction file by Line and/or Key.
type PairError struct {
	Path string
	Line int    // 1-based line in the prediction file, 0 if not applicable
	Key  string // the prediction's key (or question text), "" if not applicable
	Msg  string
	Err  error // the sentinel: ErrCountMismatch, ErrMissing, ErrDuplicate, ...
	// Predictions and Questions are the two counts of an ErrCountMismatch (0 otherwise),
	// so a caller that knows the benchmark can say which file the other count belongs to.
	Predictions, Questions int
}

func (e *PairError) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Line)
	}
	if e.Key != "" {
		loc = fmt.Sprintf("%s: key %q", loc, e.Key)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Unwrap returns the sentinel, so errors.Is(err, ErrMissing) works.
func (e *PairError) Unwrap() error { return e.Err }
