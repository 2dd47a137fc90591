package benchrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/counterex"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/livesql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/llmjudge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// Config is everything an evaluation needs to judge a run. Where its results are
// written (the run directory, resuming) is the caller's business.
type Config struct {
	DatasetSpec string // KIND:PATH
	DBRoot      string
	Tables      string
	DiffJSON    string // BIRD question JSON giving a gold .sql dataset its difficulties
	// Alternatives is a file of accepted alternative golds (--alternatives, docs/review.md).
	Alternatives string
	Preds        []string // [NAME=]FILE
	Timeout      time.Duration
	Workers      int
	MaxRows      int
	// MaxResultBytes caps each result's bytes; 0: engine.DefaultMaxBytes.
	MaxResultBytes int64
	Semantics      string // bird, spider or "" (spider for Spider datasets, else bird)
	AllowMissing   bool
	// Efficiency timing (VES, R-VES): off unless VES is set; see timeCorrect.
	VES           bool
	Timing        string // official or robust
	VESIterations int
	VESBudget     time.Duration // whole timing phase
	VESItemBudget time.Duration // one prediction: iterations x (gold + prediction)

	ESMValues, ESMDistinct bool   // stricter exact set match variants (match.Options); off = official
	ETMVerbose             bool   // keep etm_rules on every record, not only on ETM matches
	ETMMode                string // "official" (default: the ETM authors' script) or "corrected" (etm_mode.go)

	// TestSuite searches a counterexample database for every EX-correct prediction
	// (internal/counterex), with TestSuiteSeed and TestSuiteBudget (zero: the default).
	TestSuite       bool
	TestSuiteSeed   int64
	TestSuiteBudget counterex.Budget
	// TestSuiteDomain is --test-suite-domain: realistic (zero: the default) or declared.
	TestSuiteDomain counterex.Domain
	// Proof adds the bounded proof (internal/prove) to the search: ts_proof on every
	// EX-correct record, with ProofBound rows per table and ProofBudget solver time
	// (zero: the defaults).
	Proof       bool
	ProofBound  int
	ProofBudget time.Duration

	// Server runs the predictions somewhere other than the dataset's SQLite files; nil:
	// the SQLite files. Engine and GoldEngine name where predictions and gold SQL run,
	// for the summary's settings ("" for SQLite files).
	Server             Server
	Engine, GoldEngine string
	DBIDs              []string // judge only the questions on these databases; nil: all
	Flex               bool     // add the NL2SQL++ flexible comparison
	// Shard judges only one shard of the questions left after DBIDs (shard.go); nil: all.
	Shard *dataset.Shard

	PassK       []int            // Pass@k's k list; nil: metrics.DefaultPassK
	Pricing     *metrics.Pricing // prices tokens for the modules section; nil: no cost
	PricingPath string           // where Pricing came from, for the summary

	HashDBs bool // the manifest holds every database's sha256, not only its size and time

	Spider2Mode string // Spider 2.0 comparison: official or strict ("": official)
	// SpiderMode is the rewrite before Spider's execution match (ex_spider): official
	// ("", test-suite-sql-eval's) or corrected (spider_mode.go).
	SpiderMode string
	DuckDBLib  string // libduckdb.so for DuckDB files ("": $NL2SQLBENCH_LIBDUCKDB)
	// ResumedDuckDB, when eval --resume continues a run, is its manifest's duckdb
	// setting: Prepare then loads no library to fingerprint this run (no code is loaded
	// before the manifests matched); it compares the library's path, and the caller
	// checks the version with CheckDuckDB once they match. nil: not resuming.
	ResumedDuckDB *string

	// LLMJudge, when set (eval --llm-judge), asks an LLM about the chosen records
	// (internal/llmjudge), after every other annotator; the cli builds it (endpoint,
	// cache, prompt, cap), and its Setting goes into the manifest.
	LLMJudge *llmjudge.Judge

	// LiveSQLMode is --livesql-mode for livesql:DIR and evalbench:DIR (tasks.go):
	// official ("" too); corrected is not yet.
	LiveSQLMode string
	// TaskCode is --task-code: "python" runs a turn's Python test cases in the sandbox of
	// package taskcode (Prepare finds python3 and sets TestRunner); "": they are not run.
	// It is the user's decision: recorded in the manifest, never taken from args.json.
	TaskCode string
	// TestRunner runs a turn's Python test cases; nil: a turn that needs them is not
	// judged (record.NotJudgedTaskCode). Prepare sets it for TaskCode "python"; a test
	// may set its own.
	TestRunner livesql.TestRunner
	// TaskDBDir is where SQLite task templates and copies live; "": the user's cache
	// directory (taskDBDir). Tests set it.
	TaskDBDir string
	// noTestsWhy is why a turn that needs its test cases is not judged when TestRunner
	// is nil (record.NotJudgedTaskCode, or record.NotJudgedNoPython).
	noTestsWhy string
	// taskIDs judges only these tasks (instance ids) of a task dataset; nil: all. Set by
	// CollectTasks for the tasks a --limit collected.
	taskIDs map[string]bool

	// Metrics are the --metrics values: registry ids, extras and groups (selection.go);
	// nil: every metric.
	Metrics []string
}

// passK is the k list in force.
func (c *Config) passK() []int {
	if len(c.PassK) == 0 {
		return metrics.DefaultPassK
	}
	return c.PassK
}

// Server opens where predictions run when that is not the dataset's SQLite files
// (PostgreSQL, MySQL, SQL++). The cli implements it from its --engine flags, reading
// secrets from the environment.
type Server interface {
	// Open returns the prediction engine, how it names a question's database, and where
	// gold SQL runs (nil: on the same engine). sqlite is the run's SQLite engine, for
	// gold SQL kept on the files. Eval closes the engine when the run ends.
	Open(workers int, sqlite engine.Engine) (engine.Engine, judge.Locator, *judge.Target, error)
	// Ping fails when eng cannot run a query on ds's databases, so an unreachable server
	// stops a run before every question becomes a gold_error.
	Ping(ctx context.Context, eng engine.Engine, ds *dataset.Dataset) error
}

// ErrConfig marks a mistake in a Config (a bad name, an unknown database): the cli
// reports it as a usage error.
var ErrConfig = errors.New("invalid run configuration")

// configError is a Config mistake; its message names the flag the cli takes it from.
type configError struct{ msg string }

func (e *configError) Error() string        { return e.msg }
func (e *configError) Is(target error) bool { return target == ErrConfig }

func configf(format string, a ...any) error {
	return &configError{msg: fmt.Sprintf(format, a...)}
}

// StoppedError is Eval's error when its context ends while judging: every record the
// Sink was given is complete, and a run resumed from them continues after them. Done
// counts the records judged (resumed ones included) of Total (questions x systems).
type StoppedError struct {
	Err         error
	Done, Total int
}

// stopped is the StoppedError of res's records so far.
func stopped(err error, res *Result, questions int) *StoppedError {
	e := &StoppedError{Err: err, Total: questions * len(res.Systems)}
	for _, s := range res.Systems {
		e.Done += len(s.Records)
	}
	return e
}

func (e *StoppedError) Error() string { return e.Err.Error() }
func (e *StoppedError) Unwrap() error { return e.Err }

// maxResultBytes is the byte cap in force.
func (c Config) maxResultBytes() int64 {
	if c.MaxResultBytes <= 0 {
		return engine.DefaultMaxBytes
	}
	return c.MaxResultBytes
}
