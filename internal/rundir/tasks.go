package rundir

import "github.com/nl2sqlbench/nl2sqlbench/internal/metrics"

// TaskSummary is one system's scores on a benchmark of tasks on a database copy of their
// own (livesql:DIR, evalbench:DIR): per phase (1: the first turn, 2: the follow-up),
// category and difficulty tier, how many turns were judged, correct and not judged, and
// BIRD-Interact's mean reward. Computed once from the records (internal/benchrun, tasks_summary.go).
type TaskSummary struct {
	System string    `json:"system"`
	Rows   []TaskRow `json:"rows"`
	// Reward is the mean record.Task.TaskReward over the RewardN tasks that have one;
	// RewardNotJudged tasks have none (a turn it depends on is not judged). Absent when
	// no task has one.
	Reward          *float64 `json:"reward,omitempty"`
	RewardN         int      `json:"reward_n"`
	RewardNotJudged int      `json:"reward_not_judged"`
	// Corrections (--livesql-mode corrected) counts, per correction, the turns it applied
	// to and those whose verdict it changed from the official evaluator's; absent in
	// official mode.
	Corrections []TaskCorrection `json:"corrections,omitempty"`
	// ChangedToCorrect and ChangedToIncorrect count the turns whose corrected verdict
	// differs from the official one, each way (corrected mode).
	ChangedToCorrect   int `json:"changed_to_correct,omitempty"`
	ChangedToIncorrect int `json:"changed_to_incorrect,omitempty"`
}

// TaskCorrection is one correction of corrected mode: the turns (both phases) it
// applied to, and of them those whose verdict it changed from the official one: it made
// the difference alone, or together with other corrections when none did alone
// (Jointly counts those; clean_up_sqls changes none).
type TaskCorrection struct {
	Name    string `json:"name"`
	Applied int    `json:"applied"`
	Changed int    `json:"changed"`
	Jointly int    `json:"changed_jointly,omitempty"`
}

// TaskRow counts one phase's turns of one category and difficulty ("" = all of them).
// Judged + NotJudged + NotReached = Tasks; Correct is out of Judged. NotReached counts
// follow-ups never run (the first turn did not pass, or no follow-up prediction).
type TaskRow struct {
	Phase      int    `json:"phase"`
	Category   string `json:"category,omitempty"`
	Difficulty string `json:"difficulty,omitempty"`
	Tasks      int    `json:"tasks"`
	Judged     int    `json:"judged"`
	Correct    int    `json:"correct"`
	NotJudged  int    `json:"not_judged"`
	NotReached int    `json:"not_reached,omitempty"`
	// Rate is Correct of Judged as the registry's EX: its text and Wilson's 95%
	// interval (metrics.RateValue), computed once with the counts; absent in summaries
	// written before it.
	Rate *metrics.Value `json:"rate,omitempty"`
}
