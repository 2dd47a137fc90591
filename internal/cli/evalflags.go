package cli

import (
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// evalFlags is eval's flag table: every flag declared once, with how a run directory
// remembers it. bind declares the flag (name, type, default, help, the field it fills); a
// helper declaring a group (bindDatasetFlags, bindEngineFlags, bindTestSuite,
// bindLLMJudge) is the bind of its first entry. key names the manifest setting the flag
// shapes in benchrun.RecordedSettings. The resume rules (resumeargs.go) are derived from
// it; TestEvalFlagTable holds it equal to eval's flags and to benchrun's table.
//
// To add an eval flag that shapes verdicts: one entry in benchrun's recordedSettings
// (declaring its flag; settingFlags binds it) and its benchrun.Config field. Any other: one entry
// here, remembered in args.json and taken back by --resume unless keep says otherwise (one
// that loads code, reaches the network, reads a secret or names a configuration file is
// keep: restate, with why); one naming a file is abs: absPath.
var evalFlags = append([]evalFlag{
	// bindDatasetFlags declares the 3 flags below.
	{name: "dataset", key: "dataset_kind", abs: dataset.AbsSpec, bind: func(f *pflag.FlagSet, c *evalConfig) {
		bindDatasetFlags(f, &c.DatasetSpec, &c.DBRoot, &c.Tables, dataset.KindFlagHelp(dataset.AnyKind))
	}},
	{name: "db-root", key: "db_root", abs: absPath},
	{name: "tables", abs: absPath},
	{name: "alternatives", abs: absPath, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.Alternatives, "alternatives", "", "JSONL of accepted alternative golds, one {\"question_id\" or \"index\", \"sql\": [...]} per line, added to each question's golds (docs/review.md)")
	}},
	{name: "diff-json", abs: absPath, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.DiffJSON, "diff-json", "", "with --dataset bird:GOLD.sql: BIRD's question JSON giving each question its difficulty (as BIRD's --diff_json_path; default: the JSON beside the .sql, e.g. mini_dev_sqlite.json for mini_dev_sqlite_gold.sql)")
	}},
	{name: "pred", abs: benchrun.AbsPredSpec, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringArrayVar(&c.Preds, "pred", nil, "prediction file as [NAME=]FILE; repeat for several systems")
	}},
	{name: "out", keep: commandLine, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.Out, "out", "", "run directory (default runs/<kind>-<time>)")
	}},
	{name: "timeout", key: "timeout_s", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.DurationVar(&c.Timeout, "timeout", engine.DefaultTimeout, "per-query timeout (must be positive)")
	}},
	{name: "workers", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.IntVar(&c.Workers, "workers", min(runtime.NumCPU(), maxWorkers), "questions judged in parallel (1..256)")
	}},
	{name: "max-rows", key: "max_rows", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.IntVar(&c.MaxRows, "max-rows", engine.DefaultMaxRows, "largest result read per query (must be positive); larger ones get error category row_limit")
	}},
	{name: "max-result-bytes", key: "max_result_bytes", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.Int64Var(&c.MaxResultBytes, "max-result-bytes", engine.DefaultMaxBytes, "largest result read per query, in bytes (text and blob lengths plus 16 per value; must be positive); larger ones get error category row_limit")
	}},
	{name: "semantics", key: "semantics", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.Semantics, "semantics", "", "semantics deciding the verdict: bird or spider (default: spider for spider datasets, else bird)")
	}},
	{name: "spider-mode", key: "spider_mode", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.SpiderMode, "spider-mode", "official", "ex_spider with Spider's rewrite as test-suite-sql-eval does it (official) or plugging only real placeholders and dropping only top-level DISTINCT (corrected; records also carry ex_spider_official where the two differ); docs/spider-modes.md")
	}},
	{name: "json", keep: output, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.JSON, "json", false, "print the summary as JSON on stdout (and nothing else)")
	}},
	{name: "audit", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.Audit, "audit", false, "after judging, audit the gold SQL and the predictions judged correct into DIR/audit.jsonl (docs/audit.md; SQLite databases only)")
	}},
	{name: "details", keep: output, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.Details, "details", false, "print every table (confidence intervals, paired comparisons, schema selection, candidates, revision, usage, cross-system, ETM, flex), not only the headline scores")
	}},
	{name: "resume", keep: commandLine, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.Resume, "resume", false, "continue an interrupted run in --out, keeping its records; refused when any input or setting differs from its manifest.json")
	}},
	{name: "force", keep: commandLine, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.Force, "force", false, "replace the run already in --out: the new run is written beside it and takes its place only once complete")
	}},
	{name: "hash-dbs", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.HashDBs, "hash-dbs", false, "put every database's sha256 in the manifest (default: size and modification time only)")
	}},
	{name: "allow-missing", key: "allow_missing", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.AllowMissing, "allow-missing", false, "judge questions without a prediction as errors instead of refusing the file")
	}},
	{name: "ves", key: "ves", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.VES, "ves", false, "after judging, time correct predictions against their gold for VES and R-VES (slow: see --ves-iterations)")
	}},
	{name: "timing", key: "timing", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.Timing, "timing", "official", "VES timing: official (BIRD's scripts) or robust (warmed up, interleaved, median: stable across runs)")
	}},
	{name: "ves-iterations", key: "ves_iterations", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.IntVar(&c.VESIterations, "ves-iterations", 100, "timed (prediction, gold) pairs per correct prediction")
	}},
	{name: "ves-budget", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.DurationVar(&c.VESBudget, "ves-budget", 2*time.Hour, "refuse (or stop) a timing phase estimated to take longer than this; 0 = no limit")
	}},
	{name: "ves-item-budget", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.DurationVar(&c.VESItemBudget, "ves-item-budget", 30*time.Second, "refuse a correct prediction whose iterations x (gold + prediction) would take longer than this; 0 = no limit")
	}},
	{name: "esm-values", key: "esm_values", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.ESMValues, "esm-values", false, "exact set match also compares literal values (stricter than the official metric)")
	}},
	{name: "esm-distinct", key: "esm_distinct", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.ESMDistinct, "esm-distinct", false, "exact set match also compares DISTINCT in column units (stricter than the official metric)")
	}},
	{name: "etm-verbose", key: "etm_verbose", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.ETMVerbose, "etm-verbose", false, "record the ETM rules that fired (etm_rules) for every question, not only for ETM matches")
	}},
	{name: "etm-mode", key: "etm_mode", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.ETMMode, "etm-mode", "official", "ETM as the authors' script computes it (official) or with our corrections (corrected; records also carry etm_official where the two differ); docs/etm-modes.md")
	}},
	{name: "pass-k", key: "pass_k", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.Var((*passKFlag)(&c.PassK), "pass-k", "k list for Pass@k over each question's candidates (default 1,5,10,15,20)")
	}},
	// bindEngineFlags declares the 8 flags below.
	{name: "engine", key: "engine", keep: restate, why: "runs queries on a server or loads a library", bind: func(f *pflag.FlagSet, c *evalConfig) {
		bindEngineFlags(f, &c.Engines)
	}},
	{name: "duckdb-lib", key: "duckdb", keep: restate, why: "loads a library"},
	{name: "dsn-env", keep: restate, why: "reads a secret"},
	{name: "gold-engine", key: "gold_engine"},
	{name: "sqlpp-endpoint", keep: restate, why: "reaches the network"},
	{name: "sqlpp-user", keep: restate, why: "logs in"},
	{name: "sqlpp-password-env", keep: restate, why: "reads a secret"},
	{name: "sqlpp-bucket", keep: restate, why: "reaches the network"},
	{name: "spider2-mode", key: "spider2_mode", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.Spider2Mode, "spider2-mode", "official", "Spider 2.0 (--dataset spider2:SUITE_DIR): compare result tables as its evaluate.py does (official) or rows as rows, NULL apart from 0 (strict); see docs/spider2.md")
	}},
	{name: "livesql-mode", key: "livesql_mode", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.LiveSQLMode, "livesql-mode", "official", "tasks on a database copy (--dataset livesql:DIR or evalbench:DIR): judge as the official LiveSQLBench evaluator does, quirks included (official), or with its faults fixed (corrected: empty results, DISTINCT ON, conditions.decimal, clean_up_sqls; records and the summary count what changed) and, for evalbench:, as EvalBench does (official: ordered records, a dql's first statement, its sanitize_sql) or as bags of rows with every statement run (corrected); see docs/tasks.md")
	}},
	{name: "task-code", key: "task_code", keep: restate, why: "runs code from the dataset", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.TaskCode, "task-code", "", "python: run the tasks' own Python test cases (--dataset livesql:DIR) in a sandboxed python3 that reaches only the task's database copy, through nl2sqlbench (docs/taskcode.md); without it such turns are not judged; never taken from args.json on --resume")
	}},
	// bindTestSuite declares the 7 flags below.
	{name: "test-suite", key: "test_suite", bind: func(f *pflag.FlagSet, c *evalConfig) {
		bindTestSuite(f, &c.Config)
	}},
	{name: "test-suite-seed", key: "test_suite"},
	{name: "test-suite-budget", key: "test_suite"},
	{name: "test-suite-domain", key: "test_suite"},
	{name: "proof", key: "test_suite"},
	{name: "proof-bound", key: "test_suite"},
	{name: "proof-budget", key: "test_suite"},
	{name: "flex", key: "flex", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.BoolVar(&c.Flex, "flex", false, "add the NL2SQL++ flexible result comparison (flex, flex_verdict; on by default with --engine sqlpp)")
	}},
	{name: "db-id", key: "db_ids", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringArrayVar(&c.DBIDs, "db-id", nil, "judge only the questions on this database (repeat for several); records keep their index in the whole dataset")
	}},
	{name: "shard", key: "shard", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringVar(&c.ShardArg, "shard", "", shardUsage)
	}},
	{name: "metrics", key: "metrics", bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.StringArrayVar(&c.Metrics, "metrics", nil, metricsUsage)
	}},
	{name: "pricing", key: "pricing", keep: restate, why: "reads a configuration file", abs: absPath, bind: func(f *pflag.FlagSet, c *evalConfig) {
		f.Var(&c.PricingFile, "pricing", "pricing table (YAML or JSON: $ per 1M input / cached input / output tokens per model) for cost; see docs/pricing.example.yaml")
	}},
	// bindLLMJudge declares the 4 flags below.
	{name: "llm-judge", key: "llm_judge", keep: restate, why: "reads a configuration file, reaches the network and reads a secret", abs: absPath, bind: func(f *pflag.FlagSet, c *evalConfig) {
		bindLLMJudge(f, &c.LLMJudgeFlags)
	}},
	{name: "llm-judge-on", key: "llm_judge"},
	{name: "llm-judge-prompt", key: "llm_judge", keep: restate, why: "reads a prompt template", abs: absPath},
	{name: "llm-judge-max-cost"},
}, settingFlags()...)

// settingFlags are the entries of the settings benchrun's table declares with their flag
// (benchrun.SettingFlag).
func settingFlags() []evalFlag {
	var out []evalFlag
	for _, r := range benchrun.RecordedSettings() {
		if f := r.Flag; f != nil {
			keep := remembered
			if f.Restate != "" {
				keep = restate
			}
			out = append(out, evalFlag{name: f.Name, key: r.Key, keep: keep, why: f.Restate, bind: func(fs *pflag.FlagSet, c *evalConfig) {
				bindSettingFlag(fs, f, f.Value(&c.Config))
			}})
		}
	}
	return out
}

// bindSettingFlag declares f on fs, filling v (a pointer to its Config field).
func bindSettingFlag(fs *pflag.FlagSet, f *benchrun.SettingFlag, v any) {
	switch v := v.(type) {
	case *bool:
		fs.BoolVar(v, f.Name, orZero[bool](f.Default), f.Usage)
	case *string:
		fs.StringVar(v, f.Name, orZero[string](f.Default), f.Usage)
	case *int:
		fs.IntVar(v, f.Name, orZero[int](f.Default), f.Usage)
	case *time.Duration:
		fs.DurationVar(v, f.Name, orZero[time.Duration](f.Default), f.Usage)
	case *[]string:
		fs.StringArrayVar(v, f.Name, orZero[[]string](f.Default), f.Usage)
	default:
		panic(fmt.Sprintf("--%s: a setting of type %T has no flag", f.Name, v)) // a mistake in benchrun's table
	}
}

// orZero is d as a T (nil: T's zero); another type panics, a mistake in the table.
func orZero[T any](d any) (v T) {
	if d != nil {
		v = d.(T)
	}
	return v
}

// evalFlag is one entry of evalFlags.
type evalFlag struct {
	name string
	key  string // the manifest setting it shapes ("": none)
	// bind declares the flag on f, filling c; nil: declared by its group's first entry.
	bind func(f *pflag.FlagSet, c *evalConfig)
	keep keepRule
	why  string              // keep: restate: what taking it from a run directory would do
	abs  func(string) string // remembered as an absolute path (a file or folder)
}

// keepRule is how args.json treats a flag.
type keepRule int

const (
	// remembered: args.json keeps it and --resume takes it back.
	remembered keepRule = iota
	// output: where the run is printed; a resume gives its own.
	output
	// commandLine: where the run is written and whether it replaces one; args.json can
	// never set it.
	commandLine
	// restate: remembered, but --resume takes it only from the command line (untrusted).
	restate
)

// bindEvalFlags declares every flag of evalFlags on f.
func bindEvalFlags(f *pflag.FlagSet, c *evalConfig) {
	for _, fl := range evalFlags {
		if fl.bind != nil {
			fl.bind(f, c)
		}
	}
}

// evalFlagRules derives resumeargs.go's maps from evalFlags.
func evalFlagRules() (notRemembered, neverRemembered map[string]bool, untrusted map[string]string, paths map[string]func(string) string) {
	notRemembered, neverRemembered = map[string]bool{}, map[string]bool{}
	untrusted, paths = map[string]string{}, map[string]func(string) string{}
	for _, fl := range evalFlags {
		switch fl.keep {
		case commandLine:
			neverRemembered[fl.name] = true
			notRemembered[fl.name] = true
		case output:
			notRemembered[fl.name] = true
		case restate:
			untrusted[fl.name] = fl.why
		}
		if fl.abs != nil {
			paths[fl.name] = fl.abs
		}
	}
	return notRemembered, neverRemembered, untrusted, paths
}
