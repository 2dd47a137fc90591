package record

// Task failure kinds (Task.TaskFailure, FollowUp.Failure): why a turn of a task that
// runs on its own database copy (LiveSQLBench / BIRD-Interact, EvalBench; internal/benchrun,
// tasks.go) did not pass.
const (
	FailPrediction = "prediction_error" // the predicted SQL failed to run
	FailTimeout    = "timeout"          // the predicted SQL ran past the timeout
	FailMismatch   = "mismatch"         // its result or the state it left differs from the gold's
	FailAssertion  = "assertion"        // a test case's assertion failed
	FailTestError  = "test_error"       // a test case itself failed to run
)

// NotJudgedTaskCode is why a turn that needs its Python test cases has no verdict until
// the run is asked to run them (--task-code python).
const NotJudgedTaskCode = "needs --task-code python"

// NotJudgedNoPython is why such a turn has no verdict when --task-code python was given
// but this machine has no python3 to run the test cases.
const NotJudgedNoPython = "needs python3 (not found)"

// Task is one task of a benchmark whose tasks run on a database copy of their own, judged
// by comparison or test cases, some with a follow-up turn. The record's own fields are
// its first turn: question_id is the task's instance_id and verdict the first turn's;
// a turn that could not be judged has verdict skipped and TaskNotJudged says why (it is
// never counted wrong). Absent on records of other datasets.
type Task struct {
	// TaskCategory is Query or Management (LiveSQLBench), or dql, dml or ddl (EvalBench).
	TaskCategory string `json:"task_category,omitempty"`
	// TaskFailure is the kind of failure (the Fail* constants) when the turn did not pass.
	TaskFailure string `json:"task_failure,omitempty"`
	// TaskNotJudged says why the turn has no verdict (NotJudgedTaskCode, ...).
	TaskNotJudged string `json:"task_not_judged,omitempty"`
	// TaskRan is every statement run on the task's copy, in order, with what came of it.
	TaskRan []TaskStep `json:"task_ran,omitempty"`
	// TaskReward is BIRD-Interact's reward for the task: 0.7 for the first turn passed,
	// plus 0.3 for the follow-up passed on a first try. Absent while a turn it depends
	// on is not judged.
	TaskReward *float64 `json:"task_reward,omitempty"`
	// FollowUp is the second turn, run on the database the first turn's prediction left.
	FollowUp *FollowUp `json:"follow_up,omitempty"`
	// TaskOfficialVerdict (--livesql-mode corrected) is the official evaluator's verdict
	// of the first turn where it differs from the corrected one (correct or incorrect).
	TaskOfficialVerdict Verdict `json:"task_official_verdict,omitempty"`
	// TaskCorrections (--livesql-mode corrected) are the corrections that applied to the
	// first turn (livesql.Correction: empty_result, distinct_kept, decimal, clean_up_sqls).
	TaskCorrections []string `json:"task_corrections,omitempty"`
	// TaskChangedBy (corrected mode, where TaskOfficialVerdict is set) are the
	// corrections that made the difference: each that alone turns the official verdict
	// into this one, or, when none does alone, all that applied (together).
	TaskChangedBy []string `json:"task_changed_by,omitempty"`
}

// FollowUp is a task's second turn, judged like the first.
type FollowUp struct {
	Verdict       Verdict       `json:"verdict"`
	Category      string        `json:"category,omitempty"`
	Difficulty    string        `json:"difficulty,omitempty"`
	Question      string        `json:"question,omitempty"`
	GoldSQL       string        `json:"gold_sql"`
	PredSQL       string        `json:"pred_sql"`
	ErrorCategory ErrorCategory `json:"error_category,omitempty"`
	ErrorMessage  string        `json:"error_message,omitempty"`
	Failure       string        `json:"failure,omitempty"`
	NotJudged     string        `json:"not_judged,omitempty"`
	Ran           []TaskStep    `json:"ran,omitempty"`
	// OfficialVerdict, Corrections and ChangedBy: as the record's TaskOfficialVerdict,
	// TaskCorrections and TaskChangedBy, for the follow-up.
	OfficialVerdict Verdict  `json:"official_verdict,omitempty"`
	Corrections     []string `json:"corrections,omitempty"`
	ChangedBy       []string `json:"changed_by,omitempty"`
}

// TaskStep is one statement run on a task's copy: which step of the task ran it
// (preprocess, prediction, test, gold, eval_query, ...), the SQL, and its error or row
// count.
type TaskStep struct {
	Step  string `json:"step"`
	SQL   string `json:"sql"`
	Rows  int    `json:"rows,omitempty"`
	Error string `json:"error,omitempty"`
}
