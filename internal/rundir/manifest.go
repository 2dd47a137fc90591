package rundir

import (
	"encoding/json"
	"time"
)

// Manifest says exactly what produced a run: the build, every setting that shapes a
// verdict and the fingerprints of every input file. The cli writes it as
// DIR/manifest.json before the first record and summary.json carries it, so a number
// can always be traced to its inputs, and --resume refuses to continue a run with
// inputs that differ from those it started with.
//
// To extend: a new setting is an entry of benchrun's table of recorded settings, kept in
// ManifestSettings.Extra under its key (resume compares every field by its JSON name,
// and every key of Extra); never rename a field or a key, older run directories hold it.
type Manifest struct {
	// SchemaVersion is the version of the run directory's layout (SchemaVersion); 0 in
	// runs written before versions.
	SchemaVersion int    `json:"schema_version,omitempty"`
	Tool          string `json:"tool"`
	// Version is the module version of the build ("(devel)" for a source build);
	// Revision and Modified are its VCS revision and whether the tree had changes.
	Version      string `json:"version"`
	Revision     string `json:"vcs_revision,omitempty"`
	RevisionTime string `json:"vcs_time,omitempty"`
	Modified     bool   `json:"vcs_modified,omitempty"`
	// Executable is the sha256 of the running binary: two builds of one modified
	// tree share a revision but not this (resume compares it when the revision does
	// not pin the source).
	Executable    string    `json:"executable_sha256,omitempty"`
	GoVersion     string    `json:"go_version"`
	SQLiteVersion string    `json:"sqlite_version"`
	StartedAt     time.Time `json:"started_at"`
	// Host is the name of the machine the run went on: VES times from different hosts
	// are not comparable (merge refuses to mix them unless told to).
	Host string `json:"host,omitempty"`

	Settings ManifestSettings `json:"settings"`
	Dataset  FileDigest       `json:"dataset"`
	Tables   *FileDigest      `json:"tables,omitempty"` // the dataset's tables.json, if any
	// DiffJSON is the question JSON that gave a BIRD gold .sql dataset its difficulties.
	DiffJSON *FileDigest `json:"diff_json,omitempty"`
	// Alternatives is the file of accepted alternative golds (--alternatives).
	Alternatives *FileDigest `json:"alternatives,omitempty"`
	// Spider2Eval and Spider2Gold are a Spider 2.0 suite's eval config and its gold result
	// CSVs (every file's name and contents): the verdicts depend on both.
	Spider2Eval *FileDigest      `json:"spider2_eval,omitempty"`
	Spider2Gold *FileDigest      `json:"spider2_gold,omitempty"`
	Predictions []PredictionFile `json:"predictions"`
	// Databases are the databases of the judged questions, by db_id: size and
	// modification time always, their sha256 only with eval --hash-dbs (HashedDBs).
	Databases []DatabaseFile `json:"databases"`
	HashedDBs bool           `json:"hashed_dbs,omitempty"`
	// MergedFrom are the shard runs `merge` combined into this run (shard.go).
	MergedFrom []MergedShard `json:"merged_from,omitempty"`

	// Files and SummarySHA256 are written when the run finishes (integrity.go): the
	// sha256 of every file of the run by slash path relative to its directory (those
	// summary.json lists, and files added later by rescore or audit), and of
	// summary.json itself.
	Files         map[string]string `json:"files,omitempty"`
	SummarySHA256 string            `json:"summary_sha256,omitempty"`
}

// ManifestSettings are the settings that shape verdicts and scores. Workers and budgets,
// which change how long a run takes but not what it finds, are not among them.
type ManifestSettings struct {
	DatasetKind string  `json:"dataset_kind"`
	DBRoot      string  `json:"db_root"`
	Semantics   string  `json:"semantics"`
	TimeoutS    float64 `json:"timeout_s"`
	MaxRows     int     `json:"max_rows"`
	// MaxResultBytes is the byte cap on each result; absent in manifests written before
	// it existed.
	MaxResultBytes int64    `json:"max_result_bytes,omitempty"`
	AllowMissing   bool     `json:"allow_missing"`
	Engine         string   `json:"engine"`
	GoldEngine     string   `json:"gold_engine"`
	DBIDs          []string `json:"db_ids"`
	Flex           bool     `json:"flex"`
	ESMValues      bool     `json:"esm_values"`
	ESMDistinct    bool     `json:"esm_distinct"`
	ETMVerbose     bool     `json:"etm_verbose"`
	// ETMMode is the ETM mode ("official" or "corrected"); absent in manifests written
	// before it existed (their ETM mixed both), so such a run does not resume.
	ETMMode string `json:"etm_mode,omitempty"`
	// SpiderMode is the rewrite before Spider's execution match ("official" or
	// "corrected"); absent in manifests written before it existed (all official).
	SpiderMode    string `json:"spider_mode,omitempty"`
	PassK         []int  `json:"pass_k"`
	VES           bool   `json:"ves"`
	Timing        string `json:"timing,omitempty"`         // with VES
	VESIterations int    `json:"ves_iterations,omitempty"` // with VES
	Pricing       string `json:"pricing,omitempty"`        // where token prices came from
	Spider2Mode   string `json:"spider2_mode,omitempty"`   // Spider 2.0 runs: official or strict
	LiveSQLMode   string `json:"livesql_mode,omitempty"`   // livesql:/evalbench: runs: official or corrected
	// TaskCode is --task-code of a livesql:/evalbench: run: "python" when the tasks' own
	// test code ran (in the sandbox), "" when it did not (such turns are not judged).
	TaskCode string `json:"task_code,omitempty"`
	// DuckDB is the DuckDB library that ran queries on DuckDB files ("v1.5.6 /path/libduckdb.so");
	// "" when the run uses none.
	DuckDB string `json:"duckdb,omitempty"`
	// Shard is the part of the questions this run judged (eval --shard); nil: all of
	// them. Being a setting, resume refuses to continue a run with another shard.
	Shard *ShardInfo `json:"shard,omitempty"`
	// TestSuite is the counterexample search's seed and budget ("" when off).
	TestSuite string `json:"test_suite,omitempty"`
	// Metrics are the metrics the run computed (eval --metrics, expanded to ids);
	// absent: every metric. A resume with another selection is refused.
	Metrics []string `json:"metrics,omitempty"`
	// LLMJudge names the LLM judge (eval --llm-judge): endpoint, model, the prompt
	// template's sha256 and which records it judges ("" when off). A resume with another
	// judge is refused.
	LLMJudge string `json:"llm_judge,omitempty"`
	// Extra are the settings declared only in the run's table of recorded settings
	// (benchrun's recordedSettings, the entries declaring their flag), by key, each as JSON; a key is absent
	// while its setting has its zero value. Resume compares each like a field.
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
}

// FileDigest fingerprints one input file.
type FileDigest struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// PredictionFile is one system's prediction file.
type PredictionFile struct {
	System string `json:"system"`
	FileDigest
}

// DatabaseFile is one database the run judges on. Missing is true when no file for
// the db_id exists (its questions are skipped); SHA256 is set only with --hash-dbs.
type DatabaseFile struct {
	DBID    string    `json:"db_id"`
	Path    string    `json:"path,omitempty"`
	Missing bool      `json:"missing,omitempty"`
	Size    int64     `json:"size,omitempty"`
	ModTime time.Time `json:"mod_time,omitzero"`
	SHA256  string    `json:"sha256,omitempty"`
}
