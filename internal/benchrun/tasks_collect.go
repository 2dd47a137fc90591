package benchrun

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// collect for tasks on a database copy (livesql:DIR, evalbench:DIR; docs/tasks.md):
//
//	DIR/turn1/            the first turns asked (a collect run directory: modules.jsonl,
//	                      cache.jsonl, collect.json) and turn1/preds.jsonl, their predictions
//	DIR/turn1/eval/       the first turns judged (livesql: the follow-ups wait for it)
//	DIR/follow_up/        the follow-ups asked, only of tasks whose first turn passed: the
//	                      follow-up is judged on the database the first turn's predicted
//	                      SQL left, so it is asked only once that turn is known to pass
//	DIR/preds.jsonl       the task prediction file (pred_sqls, follow_up_pred_sqls)
//	DIR/eval/             preds.jsonl judged
//	DIR/task_collect.json TaskCollectReport
//
// Each turn is an ordinary collect run, so an interrupted run resumes where it stopped
// and sends no request twice; the judged runs are redone from the records (as TwoPass's).
// An evalbench: dataset has no follow-ups: its first turns are judged once, in DIR/eval.

// Directories and files of a task collect run.
const (
	Turn1Dir       = "turn1"
	FollowUpDir    = "follow_up"
	TaskPredsFile  = "preds.jsonl"
	TaskReportFile = "task_collect.json"
	turn1System    = "turn1"
	// TaskCollectFormat is TaskCollectReport.Format.
	TaskCollectFormat = 1
)

// TaskCollect is a task dataset loaded for collect: the options every turn starts from
// (Base: its Dataset holds one question per task, its Tasks the first turns) and what the
// follow-up prompts need.
type TaskCollect struct {
	Base    collect.Options
	kind    string
	dialect string
	live    []taskset.Task // kind livesql, aligned with Base.Dataset.Questions
	kb      map[string]map[int]taskset.Knowledge
	schema  map[string]string // by database
}

// IsTaskDataset reports whether spec names a dataset of tasks on a database copy
// (livesql:DIR, evalbench:DIR), which collect asks through CollectTasks.
func IsTaskDataset(spec string) bool { return isTaskKind(spec) }

// taskDialects names an engine's SQL for a prompt, and its evalbench setup folder.
var taskDialects = map[string][2]string{
	"postgres": {"PostgreSQL", "postgres"},
	"sqlite":   {"SQLite", "sqlite"},
	"mysql":    {"MySQL", "mysql"},
}

// OpenTaskCollect loads a task dataset for collect: every task (of dbIDs' databases,
// nil: all) as a question, its first-turn prompt, its schema as the dataset ships it.
// engine is eval's --engine (livesql: postgres only).
func OpenTaskCollect(ctx context.Context, cfg *collect.Config, spec, engineName string, dbIDs []string) (*TaskCollect, error) {
	if err := cfg.CheckTasks(); err != nil {
		return nil, err
	}
	tc, err := loadTaskCollect(ctx, spec, engineName, dbIDs)
	if err != nil {
		return nil, err
	}
	tc.Base.Config = cfg
	return tc, nil
}

// withConfig is tc for another pipeline config (a matrix cell's): the tasks shared.
func (tc *TaskCollect) withConfig(cfg *collect.Config) *TaskCollect {
	c := *tc
	c.Base.Config = cfg
	return &c
}

// loadTaskCollect is OpenTaskCollect without a config: the tasks and their prompts.
func loadTaskCollect(ctx context.Context, spec, engineName string, dbIDs []string) (*TaskCollect, error) {
	kind, dir, _ := strings.Cut(spec, ":")
	kind = strings.ToLower(kind)
	if engineName == "" {
		engineName = EngineSQLite
	}
	d, ok := taskDialects[engineName]
	if !ok {
		return nil, configf("--dataset %s: --engine sqlite, postgres or mysql (not %s)", kind, engineName)
	}
	tc := &TaskCollect{kind: kind, dialect: d[0], schema: map[string]string{}}
	ds := &dataset.Dataset{Kind: kind, DBRoot: dir}
	tasks := map[string]collect.TaskTurn{}
	setupDir := d[1]
	add := func(id, db, text string, turn collect.TaskTurn) {
		ds.Questions = append(ds.Questions, dataset.Question{Index: len(ds.Questions), ID: id, DBID: db, Text: text, Difficulty: dataset.Unknown})
		tasks[collect.QuestionKey(db, id)] = turn
	}
	switch kind {
	case dataset.KindLiveSQL:
		if engineName != "postgres" {
			return nil, configf("--dataset livesql: its setup is PostgreSQL's; run it with --engine postgres (not %s)", engineName)
		}
		setupDir = taskset.LiveSQLDialect()
		l, err := taskset.LoadLiveSQL(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("load livesql dataset: %w", err)
		}
		ds.Path, tc.kb = l.File, l.Knowledge
		for _, t := range l.Tasks {
			if len(dbIDs) > 0 && !slices.Contains(dbIDs, t.DB) {
				continue
			}
			s, err := tc.schemaOf(dir, t.DB, setupDir)
			if err != nil {
				return nil, err
			}
			tc.live = append(tc.live, t)
			add(t.ID, t.DB, t.Query, collect.TaskTurn{Dialect: tc.dialect, Schema: s, Knowledge: tc.knowledge(t.DB, t.Knowledge),
				Question: t.Query, Changes: t.Category == taskset.Management})
		}
	case dataset.KindEvalBench:
		e, err := taskset.LoadEvalBench(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("load evalbench dataset: %w", err)
		}
		ds.Path = e.File
		for _, t := range e.Tasks {
			if len(dbIDs) > 0 && !slices.Contains(dbIDs, t.DB) {
				continue
			}
			s, err := tc.schemaOf(dir, t.DB, setupDir)
			if err != nil {
				return nil, err
			}
			add(t.ID, t.DB, t.Prompt, collect.TaskTurn{Dialect: tc.dialect, Schema: s, Question: t.Prompt, Changes: t.QueryType != "dql"})
		}
	default:
		return nil, configf("--dataset %s: not a task dataset", spec)
	}
	if len(ds.Questions) == 0 {
		return nil, configf("--dataset %s: no task (on the --db-id databases)", spec)
	}
	tc.Base = collect.Options{Dataset: ds, Tasks: tasks}
	return tc, nil
}

func (tc *TaskCollect) schemaOf(dir, db, setupDir string) (string, error) {
	if s, ok := tc.schema[db]; ok {
		return s, nil
	}
	s, err := taskset.SchemaText(dir, db, setupDir)
	if err != nil {
		return "", err
	}
	tc.schema[db] = s
	return s, nil
}

// knowledge is the knowledge-base entries ids name, in their order (an id the base has
// not was refused when the dataset was loaded).
func (tc *TaskCollect) knowledge(db string, ids []int) []collect.KnowledgeEntry {
	var out []collect.KnowledgeEntry
	for _, id := range ids {
		k, ok := tc.kb[db][id]
		if !ok {
			continue
		}
		out = append(out, collect.KnowledgeEntry{ID: k.ID, Name: k.Name, Description: k.Description, Definition: collect.KnowledgeDefinition(k.Definition)})
	}
	return out
}

// TaskCollectReport is DIR/task_collect.json: what was asked and how it was judged. The
// counts are of the tasks collected (--limit: the first N).
type TaskCollectReport struct {
	Format int    `json:"format"`
	Kind   string `json:"kind"`
	Tasks  int    `json:"tasks"`
	// First turns judged (not skipped for want of --task-code), and correct.
	FirstJudged  int `json:"first_turn_judged"`
	FirstCorrect int `json:"first_turn_correct"`
	// Follow-ups asked (those whose first turn passed), and judged correct.
	FollowUpsAsked   int        `json:"follow_ups_asked"`
	FollowUpsCorrect int        `json:"follow_ups_correct"`
	MeanReward       *float64   `json:"mean_reward,omitempty"` // livesql: BIRD-Interact's, over the tasks that have one
	Turn1            PassTokens `json:"turn1_tokens"`
	FollowUp         PassTokens `json:"follow_up_tokens"`
	Predictions      string     `json:"predictions"`
	Eval             string     `json:"eval"`
}

// CollectTasks asks tc's tasks into out and judges them (eval: the dataset, engine,
// server, --livesql-mode and --task-code of the judged runs; CollectTasks sets the
// rest). final names the system of the judged predictions. obs hears every step.
func CollectTasks(ctx context.Context, out string, tc *TaskCollect, eval Config, final string, obs PassObserver) (*TaskCollectReport, error) {
	rep, err := collectTasks(ctx, out, tc, eval, final, realPasses(obs))
	if err != nil {
		return nil, err
	}
	return rep, rundir.WriteJSON(filepath.Join(out, TaskReportFile), rep)
}

func collectTasks(ctx context.Context, out string, tc *TaskCollect, eval Config, final string, ps passRunner) (*TaskCollectReport, error) {
	cfg := tc.Base.Config
	sum1, err := runPass(ctx, ps, tc.Base, 1, filepath.Join(out, Turn1Dir), tc.Base.Select, nil)
	if err != nil {
		return nil, err
	}
	recs1, err := collect.ReadRecords(filepath.Join(out, Turn1Dir, collect.ModulesFile))
	if err != nil {
		return nil, err
	}
	first := map[string]predict.ModuleRecord{} // by question key
	for _, r := range recs1 {
		first[collect.QuestionKey(r.DBID, string(r.QuestionID))] = r
	}
	// The tasks asked, in dataset order (--limit: the first N).
	var asked []dataset.Question
	ids := map[string]bool{}
	for _, q := range tc.Base.Dataset.Questions {
		if _, ok := first[collect.QuestionKey(q.DBID, q.ID)]; ok && (tc.Base.Select == nil || tc.Base.Select(q)) && (tc.Base.Limit <= 0 || len(asked) < tc.Base.Limit) {
			asked = append(asked, q)
			ids[q.ID] = true
		}
	}
	rep := &TaskCollectReport{Format: TaskCollectFormat, Kind: tc.kind, Tasks: len(asked), Turn1: tokensOf(sum1, cfg),
		Predictions: filepath.Join(out, TaskPredsFile), Eval: filepath.Join(out, EvalDir)}
	preds := make([]predict.TaskPred, len(asked))
	for i, q := range asked {
		preds[i] = predict.TaskPred{ID: q.ID, SQL: collect.TaskSQL(first[collect.QuestionKey(q.DBID, q.ID)])}
	}
	eval.taskIDs = ids
	eval.AllowMissing = false
	if eval.Timeout == 0 {
		eval.Timeout = engine.DefaultTimeout
	}
	if eval.MaxRows == 0 {
		eval.MaxRows = engine.DefaultMaxRows
	}
	if eval.MaxResultBytes == 0 {
		eval.MaxResultBytes = engine.DefaultMaxBytes
	}
	if eval.Workers == 0 {
		eval.Workers = runtime.NumCPU()
	}

	if tc.kind == dataset.KindLiveSQL {
		// Judge the first turns: a follow-up is asked only after its first turn passed.
		turn1Preds := filepath.Join(out, Turn1Dir, TaskPredsFile)
		if err := writeTaskPreds(turn1Preds, preds); err != nil {
			return nil, err
		}
		ev1, err := judgeTasks(ctx, ps, eval, turn1System, turn1Preds, filepath.Join(out, Turn1Dir, EvalDir))
		if err != nil {
			return nil, fmt.Errorf("judge the first turns: %w", err)
		}
		byID := map[string]*record.Record{}
		for i := range ev1 {
			byID[ev1[i].QuestionID] = &ev1[i]
		}
		follow := map[string]collect.TaskTurn{}
		index := map[string]int{}
		for i, q := range asked {
			r, t := byID[q.ID], tc.live[q.Index]
			if r == nil || r.Verdict != record.Correct || t.FollowUp == nil {
				continue
			}
			f := t.FollowUp
			follow[collect.QuestionKey(q.DBID, q.ID)] = collect.TaskTurn{Dialect: tc.dialect, Schema: tc.schema[t.DB],
				Knowledge: tc.knowledge(t.DB, f.Knowledge), Question: f.Query, Changes: f.Category == taskset.Management,
				Previous: &collect.Exchange{Question: t.Query, SQL: joinSQL(preds[i].SQL), Changes: t.Category == taskset.Management}}
			index[q.ID] = i
		}
		rep.FollowUpsAsked = len(follow)
		if len(follow) > 0 {
			opt := tc.Base
			opt.Tasks, opt.Limit = follow, 0
			sel := func(q dataset.Question) bool { _, ok := follow[collect.QuestionKey(q.DBID, q.ID)]; return ok }
			sum2, err := runPass(ctx, ps, opt, 2, filepath.Join(out, FollowUpDir), sel, nil)
			if err != nil {
				return nil, fmt.Errorf("follow-ups: %w", err)
			}
			rep.FollowUp = tokensOf(sum2, cfg)
			recs2, err := collect.ReadRecords(filepath.Join(out, FollowUpDir, collect.ModulesFile))
			if err != nil {
				return nil, err
			}
			for _, r := range recs2 {
				i, ok := index[string(r.QuestionID)]
				if _, asked := follow[collect.QuestionKey(r.DBID, string(r.QuestionID))]; ok && asked {
					preds[i].FollowUp = collect.TaskSQL(r)
				}
			}
		}
	}
	if err := writeTaskPreds(rep.Predictions, preds); err != nil {
		return nil, err
	}
	evF, err := judgeTasks(ctx, ps, eval, final, rep.Predictions, rep.Eval)
	if err != nil {
		return nil, fmt.Errorf("judge the predictions: %w", err)
	}
	rewards, n := 0.0, 0
	for i := range evF {
		r := &evF[i]
		if r.Judged() {
			rep.FirstJudged++
			if r.Verdict == record.Correct {
				rep.FirstCorrect++
			}
		}
		if r.FollowUp != nil && r.FollowUp.Verdict == record.Correct {
			rep.FollowUpsCorrect++
		}
		if r.TaskReward != nil {
			rewards += *r.TaskReward
			n++
		}
	}
	if tc.kind == dataset.KindLiveSQL && n > 0 {
		m := rewards / float64(n)
		rep.MeanReward = &m
	}
	return rep, nil
}

// judgeTasks judges a task prediction file into dir and returns its records.
func judgeTasks(ctx context.Context, ps passRunner, eval Config, system, preds, dir string) ([]record.Record, error) {
	cfg := eval
	cfg.Preds = []string{system + "=" + preds}
	res, err := ps.judge(ctx, cfg, dir)
	if err != nil {
		return nil, err
	}
	return res.Systems[0].Records, nil
}

func writeTaskPreds(path string, preds []predict.TaskPred) error {
	b, err := predict.EncodeTaskPreds(preds)
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(path, b); err != nil {
		return fmt.Errorf("write task predictions: %w", err)
	}
	return nil
}
