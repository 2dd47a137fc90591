package record

// Spider2Match is a Spider 2.0 task judged on its result table (internal/judge,
// spider2*.go): both modes' verdicts are kept, so a table of where they disagree can be
// rendered from records alone. Absent on records of other datasets.
type Spider2Match struct {
	// ExSpider2 is 1 when the run's mode (Spider2Mode) matched a gold variant. Absent on
	// skipped records (no prediction, no gold, a backend not available).
	ExSpider2 *int `json:"ex_spider2,omitempty"`
	// Spider2Mode is "official" or "strict": which verdict decided ExSpider2.
	Spider2Mode string `json:"spider2_mode,omitempty"`
	// Spider2Variant is the gold file that matched in the run's mode.
	Spider2Variant string `json:"spider2_variant,omitempty"`
	// Spider2Official and Spider2Strict are each mode's score (0/1).
	Spider2Official *int `json:"spider2_official,omitempty"`
	Spider2Strict   *int `json:"spider2_strict,omitempty"`
	// Spider2Why says which of evaluate.py's rules makes the modes disagree.
	Spider2Why string `json:"spider2_why,omitempty"`
	// Spider2Backend is where the task's SQL runs: sqlite, bigquery or snowflake.
	Spider2Backend string `json:"spider2_backend,omitempty"`
	// Spider2Pred is the prediction file judged (<instance_id>.csv or .sql).
	Spider2Pred string `json:"spider2_pred,omitempty"`
}
