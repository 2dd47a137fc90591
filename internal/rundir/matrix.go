package rundir

import (
	"fmt"
	"path/filepath"
)

// An experiment matrix directory (docs/matrix.md): DIR/matrix.json, and one cell per
// dataset x model x pipeline (or dataset x system) in DIR/cells/<dataset>/<cell>/, each a
// collect run directory with its judged run in eval/ and its identity in cell.json.
const (
	MatrixFile     = "matrix.json"
	MatrixHTMLFile = "matrix.html"
	CellsDir       = "cells"
	CellFile       = "cell.json"
	CellEvalDir    = "eval"
	SupersededDir  = "superseded" // cells whose inputs changed, moved aside, never deleted
	MaxMatrix      = 64 << 20
	MaxCell        = 1 << 20
)

// Cell statuses in matrix.json and cell.json.
const (
	CellDone     = "done"
	CellRunning  = "running" // started, not finished: a rerun resumes it
	CellPending  = "pending" // not started
	CellFailed   = "failed"  // the last attempt ended in an error (Error says which)
	CellNotShard = "not_in_shard"
)

// Matrix is DIR/matrix.json: the plan's hash, every cell's state and the grid's summary
// (computed once by run.MatrixSummary; every output renders it).
type Matrix struct {
	SchemaVersion int            `json:"schema_version"`
	PlanSHA256    string         `json:"plan_sha256"`
	Shard         string         `json:"shard,omitempty"` // "I/N" when this directory ran one shard of the cells
	Cells         []MatrixCell   `json:"cells"`
	Summary       *MatrixSummary `json:"summary,omitempty"`
}

// MatrixCell is one cell's identity and state.
type MatrixCell struct {
	Name     string `json:"name"` // <dataset>/<model>+<pipeline> or <dataset>/<system>
	Dataset  string `json:"dataset"`
	Model    string `json:"model,omitempty"`
	Pipeline string `json:"pipeline,omitempty"`
	System   string `json:"system,omitempty"` // a prediction file on disk
	// InputSHA256 hashes everything that shapes the cell's results (docs/matrix.md): a
	// changed plan reuses a cell only when this is unchanged.
	InputSHA256 string `json:"input_sha256"`
	Status      string `json:"status"`
	Error       string `json:"error,omitempty"`
	// ModulesSHA256 is the sha256 of the module records the cell was judged from (collected
	// cells): a cell whose modules.jsonl changed afterwards is refused.
	ModulesSHA256 string `json:"modules_sha256,omitempty"`
	// LLMCalls is what the cell's last run asked the endpoint (cached answers excluded).
	LLMCalls int64 `json:"llm_calls"`
}

// CellDirName is a cell's directory under DIR/cells.
func CellDirName(name string) string { return filepath.Join(CellsDir, filepath.FromSlash(name)) }

// ReadMatrix reads DIR/matrix.json within its cap; a missing file's error matches
// os.ErrNotExist. A file of another schema version is refused.
func ReadMatrix(dir string) (*Matrix, error) {
	path, err := Resolve(dir, MatrixFile)
	if err != nil {
		return nil, err
	}
	var m Matrix
	if err := readJSON(path, MaxMatrix, &m); err != nil {
		return nil, err
	}
	if m.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("read %s: schema_version %d, this build reads %d", path, m.SchemaVersion, SchemaVersion)
	}
	return &m, nil
}

// WriteMatrix writes DIR/matrix.json atomically.
func WriteMatrix(dir string, m *Matrix) error {
	m.SchemaVersion = SchemaVersion
	return WriteJSON(filepath.Join(dir, MatrixFile), m)
}

// ReadCell reads a cell's cell.json (dir is the cell's directory) within its cap.
func ReadCell(dir string) (*MatrixCell, error) {
	path, err := Resolve(dir, CellFile)
	if err != nil {
		return nil, err
	}
	var c MatrixCell
	if err := readJSON(path, MaxCell, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// WriteCell writes a cell's cell.json atomically.
func WriteCell(dir string, c *MatrixCell) error { return WriteJSON(filepath.Join(dir, CellFile), c) }

// MatrixSummary is the grid compared (docs/matrix.md): every cell's headline metric with
// its interval, cost and latency per correct answer, the marginal effect of each pipeline
// and model with paired tests, and the best cell of each dataset against the runner-up.
type MatrixSummary struct {
	Metric    string         `json:"metric"` // the registry id compared ("ex")
	Label     string         `json:"label"`
	Alpha     float64        `json:"alpha"`
	Cells     []CellResult   `json:"cells"`
	Marginals []Marginal     `json:"marginals"`
	Pairs     []MarginalPair `json:"marginal_tests"`
	Best      []BestCell     `json:"best"`
	Datasets  []string       `json:"datasets"`
	Models    []string       `json:"models"`
	Pipelines []string       `json:"pipelines"`
	Systems   []string       `json:"systems,omitempty"`
	Warnings  []string       `json:"warnings,omitempty"`
	Missing   []string       `json:"missing_cells,omitempty"` // cells not done: left out of every figure
}

// CellResult is one finished cell's figures, read from its summary.json and records.
type CellResult struct {
	Name     string   `json:"name"`
	Dataset  string   `json:"dataset"`
	Model    string   `json:"model,omitempty"`
	Pipeline string   `json:"pipeline,omitempty"`
	System   string   `json:"system,omitempty"`
	Value    *float64 `json:"value"` // the metric, from the cell's summary.json
	Text     string   `json:"text"`
	CIText   string   `json:"ci_text,omitempty"`
	CILow    *float64 `json:"ci_low,omitempty"`
	CIHigh   *float64 `json:"ci_high,omitempty"`
	Judged   int      `json:"judged"`
	Correct  int      `json:"correct"`
	// Usage over the cell's judged questions; cost from the model's pricing (Priced).
	Tokens     int     `json:"total_tokens"`
	LLMCalls   int     `json:"llm_calls"`
	LatencyMS  int64   `json:"latency_ms"`
	Cost       float64 `json:"cost_usd"`
	Priced     bool    `json:"priced"`
	UsageKnown bool    `json:"usage_known"`
	// Per correct answer: nil when no answer is correct or usage is unknown.
	CostPerCorrect      *float64 `json:"cost_per_correct_usd,omitempty"`
	LatencyPerCorrectMS *float64 `json:"latency_per_correct_ms,omitempty"`
	TokensPerCorrect    *float64 `json:"tokens_per_correct,omitempty"`
	// Tasks is a task dataset's cell (livesql:, evalbench:): its turns by phase, from the
	// cell's summary.json tasks section; Value is the first turn's.
	Tasks *CellTasks `json:"tasks,omitempty"`
}

// CellTasks is a task cell's scores: the first turns (judged, correct), the follow-ups
// (of a kind that has them) and BIRD-Interact's mean reward (where it is meaningful: a
// kind with follow-ups).
type CellTasks struct {
	FirstJudged     int      `json:"first_turn_judged"`
	FirstCorrect    int      `json:"first_turn_correct"`
	FirstText       string   `json:"first_turn_text"`
	FollowUps       bool     `json:"follow_ups"` // the kind has follow-ups (livesql)
	FollowUpJudged  int      `json:"follow_up_judged,omitempty"`
	FollowUpCorrect int      `json:"follow_up_correct,omitempty"`
	FollowUpText    string   `json:"follow_up_text,omitempty"`
	Reward          *float64 `json:"reward,omitempty"`
}

// Marginal is one level of a factor (a pipeline, or a model) on one dataset: the mean of
// its cells' metric over the other factor's levels.
type Marginal struct {
	Dataset string  `json:"dataset"`
	Factor  string  `json:"factor"` // pipeline or model
	Level   string  `json:"level"`
	Mean    float64 `json:"mean"`
	Text    string  `json:"text"`
	Cells   int     `json:"cells"`
}

// MarginalPair tests two levels of a factor on one dataset, paired on the questions both
// judged under each level of the other factor (an exact McNemar test over those pairs).
type MarginalPair struct {
	Dataset string  `json:"dataset"`
	Factor  string  `json:"factor"`
	A       string  `json:"a"`
	B       string  `json:"b"`
	N       int     `json:"n"` // (question, other level) pairs
	AOnly   int     `json:"a_only"`
	BOnly   int     `json:"b_only"`
	Diff    float64 `json:"diff"` // A - B, in the metric's unit
	P       float64 `json:"p"`
	Text    string  `json:"text"`
}

// BestCell is a dataset's best cell against its runner-up, paired on their shared
// questions.
type BestCell struct {
	Dataset     string  `json:"dataset"`
	Best        string  `json:"best"`
	RunnerUp    string  `json:"runner_up,omitempty"`
	N           int     `json:"n"`
	Diff        float64 `json:"diff"`
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	Text        string  `json:"text"`
}
