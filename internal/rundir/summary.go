package rundir

import (
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/slicing"
)

// Summary is summary.json: what was judged, how, and every system's scores.
type Summary struct {
	// SchemaVersion is the version of this file's layout (SchemaVersion); 0 in runs
	// written before versions.
	SchemaVersion int               `json:"schema_version,omitempty"`
	Tool          string            `json:"tool"`
	CreatedAt     time.Time         `json:"created_at"`
	Dataset       DatasetInfo       `json:"dataset"`
	Settings      Settings          `json:"settings"`
	Systems       []metrics.Summary `json:"systems"`
	// Metrics holds every registry metric's value per system (metrics.Declared): the one
	// source of the numbers every output prints.
	Metrics  *metrics.Section `json:"metrics,omitempty"`
	Warnings []string         `json:"warnings,omitempty"`
	// exec_efficiency (Soft-F1, VES, R-VES on a 0-100 scale, averaged outside the
	// registry) was dropped in schema version 2: the metrics section holds them.
	Structural *match.Summary            `json:"structural,omitempty"`  // ESM (table_structural.go)
	ETM        *match.ETMSummary         `json:"etm,omitempty"`         // ETM and EX/ETM disagreements (table_etm.go)
	ESMPartial []metrics.PartialSummary  `json:"esm_partial,omitempty"` // Spider's partial-match breakdown (table_partial.go)
	Modules    *metrics.ModulesSummary   `json:"modules,omitempty"`     // module metrics, cross-system (table_modules.go)
	Flex       []metrics.FlexSummary     `json:"flex,omitempty"`        // NL2SQL++ flexible comparison (table_flex.go)
	TestSuite  *metrics.TestSuiteSummary `json:"test_suite,omitempty"`  // counterexample databases (table_testsuite.go)
	Spider2    []metrics.Spider2Summary  `json:"spider2,omitempty"`     // Spider 2.0: both modes, their disagreements
	// Skips: why records were not judged, for every output's caption (skips.go).
	Skips *Skips `json:"skips,omitempty"`
	// Tasks: tasks on a database copy (livesql:, evalbench:), per phase, category and
	// difficulty, and the reward (tasks.go).
	Tasks []TaskSummary `json:"tasks,omitempty"`
	// SpiderRewrite: where Spider's official rewrite changed a query (metrics/spider_rewrite.go).
	SpiderRewrite *metrics.SpiderRewriteSummary `json:"spider_rewrite,omitempty"`
	// Paired compares every two systems on the same questions (McNemar, paired
	// bootstrap: metrics/paired.go, docs/statistics.md); rendered by table_paired.go.
	Paired *metrics.PairedSection `json:"paired,omitempty"`
	// VsBest compares each system with the best one per metric, from Paired, with
	// Holm-corrected p-values and a verdict (metrics/vsbest.go): the first screen's answer.
	VsBest *metrics.VsBestSection `json:"vs_best,omitempty"`
	// Slices scores every system's headline metric on the questions of each slice (gold
	// SQL characteristics, evidence, difficulty, database: internal/slicing).
	Slices *slicing.Section `json:"slices,omitempty"`
	// ResultDiffs counts, per system, how incorrect answers are wrong (record.Diff).
	ResultDiffs *slicing.DiffSection `json:"result_diffs,omitempty"`
	// Manifest is the build, settings and input fingerprints of the run (manifest.go),
	// as in DIR/manifest.json; absent in runs written before it existed.
	Manifest *Manifest `json:"manifest,omitempty"`
	// Files is the sha256 of every file the run wrote that these numbers come from
	// (records, statistics, counterexample scripts), by slash path relative to the run
	// directory (integrity.go); manifest.json holds the same and summary.json's own.
	Files map[string]string `json:"files,omitempty"`
}

// DatasetInfo describes the dataset of a run.
type DatasetInfo struct {
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	DBRoot    string `json:"db_root"`
	Questions int    `json:"questions"`
}

// Settings are the judge options that shape the numbers.
type Settings struct {
	Semantics string  `json:"semantics"`
	TimeoutS  float64 `json:"timeout_s"`
	MaxRows   int     `json:"max_rows"`
	Workers   int     `json:"workers"`
	// Engine runs the predictions and GoldEngine the gold SQL; absent for SQLite files.
	Engine     string `json:"engine,omitempty"`
	GoldEngine string `json:"gold_engine,omitempty"`
	// DBIDs narrows the run to the questions on these databases (eval --db-id).
	DBIDs []string `json:"db_ids,omitempty"`
	// Metrics are the metrics the run computed (eval --metrics); absent: every metric.
	Metrics []string `json:"metrics,omitempty"`
}
