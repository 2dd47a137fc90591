package dataset

import "errors"

// Question is one benchmark question with everything the judge needs.
type Question struct {
	Index      int      // 0-based position in the dataset file
	ID         string   // question_id (BIRD, JSONL) or the index as text (Spider)
	DBID       string   // database id
	Text       string   // the natural-language question
	Evidence   string   // BIRD's external knowledge; empty elsewhere
	Gold       []string // accepted gold SQL, at least one; a prediction matching any is correct
	Difficulty string   // BIRD: simple/moderate/challenging; Spider: easy/medium/hard/extra
}

// Dataset is a loaded benchmark.
type Dataset struct {
	Kind   string // "bird", "spider", "spider2" or "jsonl"
	Path   string // the question file that was read
	DBRoot string // where databases are looked up
	// Confined makes DBPath return only database files that resolve inside DBRoot
	// (DBPathInside): set when the database ids come from a run directory, which may be
	// anyone's, and the root from the user.
	Confined bool
	Tables   string // tables.json path, if any
	// DiffJSON is the question JSON that gave a BIRD gold .sql its question ids and
	// difficulties (bird_gold.go), "" otherwise.
	DiffJSON string
	// Alternatives is the file of accepted alternative golds laid over the questions
	// (alternatives.go), "" without one.
	Alternatives string
	Questions    []Question
	// Spider2 is set for a Spider 2.0 suite (kind spider2): its tasks, eval config and
	// gold result files, aligned with Questions.
	Spider2 *Spider2Suite
	// Warnings are problems that did not stop loading (a difficulty that could not be
	// derived, a repeated question_id in BIRD data, ...). Callers should show them.
	Warnings []string
	// warningDB names the database a warning is about (by index in Warnings), for
	// NarrowWarnings; warnings without one concern the whole dataset.
	warningDB map[int]string
}

// Options override where databases and schemas are found.
type Options struct {
	DBRoot string // --db-root
	Tables string // --tables
	// DiffJSON is the question JSON giving a BIRD gold .sql its difficulties (--diff-json,
	// BIRD's --diff_json_path); "" looks beside the .sql (DiffJSONFor).
	DiffJSON string
	// Alternatives is a file of accepted alternative golds (alternatives.go), "" for none.
	Alternatives string
	// NoHardness leaves a Spider question's difficulty unknown instead of deriving it
	// from its gold SQL (a parse per question against tables.json): a run whose metrics
	// are not broken down by difficulty (eval --metrics ex) needs no parsing at all.
	NoHardness bool
}

// Unknown is the difficulty of a question whose difficulty is not given or cannot be
// derived.
const Unknown = "unknown"

// Sentinel errors.
var (
	ErrUnknownKind = errors.New("unknown dataset kind")
	ErrBadSpec     = errors.New("dataset must be given as KIND:PATH")
	ErrMalformed   = errors.New("malformed question file")
	ErrMissing     = errors.New("required field missing")
	ErrDuplicateID = errors.New("duplicate question_id")
)
