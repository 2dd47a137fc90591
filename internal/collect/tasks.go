package collect

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// Tasks on a database copy (livesql:DIR, evalbench:DIR; docs/tasks.md). A task is asked
// in one prompt (prompts/task.tmpl): the question, the database's schema as the dataset
// ships it, the knowledge-base entries the task names, and, for a task that changes the
// database, a request for the statements that do. A follow-up turn's prompt carries the
// first turn's question and the model's SQL. Each turn is one candidate_generation module
// record; the run layer (benchrun.CollectTasks) turns the records into the task
// prediction file, judges the first turn, and asks the follow-ups of those that passed.

// promptTask is the task prompt's name: prompts/task.tmpl.
const promptTask = "task"

// taskNodeTypes are the module records of a task turn: the answer only (no schema
// selection or revision: the pipeline's queries run on SQLite files a task has not).
var taskNodeTypes = []string{predict.NodeCandidateGeneration}

// TaskTurn is one turn of a task to ask: what its prompt shows.
type TaskTurn struct {
	Dialect   string // "PostgreSQL", "SQLite", "MySQL"
	Schema    string // the database's DDL as the dataset ships it
	Knowledge []KnowledgeEntry
	Question  string
	// Changes: the task changes the database (a Management, dml or ddl task); the prompt
	// asks for the statements that do.
	Changes bool
	// Previous is the first turn, for a follow-up; nil for a first turn.
	Previous *Exchange
}

// Exchange is a first turn as the follow-up prompt tells it: the question and the SQL
// the model gave (never the gold).
type Exchange struct {
	Question string
	SQL      string
	Changes  bool // the SQL changed the database (its changes are kept for the follow-up)
}

// KnowledgeEntry is one knowledge-base entry a task names (LiveSQLBench's
// external_knowledge).
type KnowledgeEntry struct {
	ID          int
	Name        string
	Description string
	Definition  string
}

// KnowledgeDefinition renders a knowledge entry's definition (a string, a list of
// strings, or other JSON) as text: the strings joined, other JSON as it is.
func KnowledgeDefinition(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, " ")
	}
	t := strings.TrimSpace(string(raw))
	if t == "null" {
		return ""
	}
	return t
}

// CheckTasks says whether c can collect tasks: one prompt per turn, one answer, so
// schema selection full, no revision, one candidate, the default prompt, SQL dialect.
func (c *Config) CheckTasks() error {
	pl := c.Pipeline
	switch {
	case c.SQLPP():
		return fmt.Errorf("pipeline.dialect sqlpp: task datasets are SQL on a database copy: %w", ErrBadConfig)
	case c.TwoPass():
		return fmt.Errorf("second_pass: not for task datasets (a task's second turn is its follow-up): %w", ErrBadConfig)
	case pl.SchemaSelection.Strategy != SchemaFull:
		return fmt.Errorf("pipeline.schema_selection.strategy %s: task datasets take full (the prompt carries the whole schema): %w", pl.SchemaSelection.Strategy, ErrBadConfig)
	case pl.QueryRevision.Strategy != ReviseNone:
		return fmt.Errorf("pipeline.query_revision.strategy %s: task datasets take none (a task's SQL changes its database; it runs only when judged): %w", pl.QueryRevision.Strategy, ErrBadConfig)
	case pl.CandidateGeneration.N > 1:
		return fmt.Errorf("pipeline.candidate_generation.n %d: task datasets take one candidate: %w", pl.CandidateGeneration.N, ErrBadConfig)
	case pl.CandidateGeneration.Prompt != "":
		return fmt.Errorf("pipeline.candidate_generation.prompt: task datasets use their own prompt (prompts/task.tmpl in the source): %w", ErrBadConfig)
	}
	return nil
}

// TaskSQL is a task turn's answer as pred_sqls: the SQL of the turn's record, one text
// (several statements separated by semicolons run as the official evaluators run a
// string); an empty list when the answer held no SQL.
func TaskSQL(rec predict.ModuleRecord) []string {
	sqls := rec.SQL.Queries
	if len(sqls) == 0 || strings.TrimSpace(sqls[0]) == "" {
		return []string{}
	}
	return sqls[:1]
}

// answerTask asks one task turn and returns its record.
func (r *runner) answerTask(ctx context.Context, q dataset.Question, t TaskTurn) ([]predict.ModuleRecord, error) {
	cg := r.cfg.Pipeline.CandidateGeneration
	rec := predict.ModuleRecord{
		ModuleOutput:  predict.ModuleOutput{QuestionID: predict.QuestionID(q.ID), DBID: q.DBID, Question: q.Text, NodeType: predict.NodeCandidateGeneration},
		ModuleDetails: predict.ModuleDetails{Pass: r.pass},
	}
	rec.Strategy = cg.Strategy
	var u usageAcc
	start := time.Now()
	prompt, err := r.prompts.renderTask(t)
	if err != nil {
		return nil, err
	}
	texts, err := r.chat(ctx, &u, prompt, cg.Temperature, 1)
	if err != nil {
		return nil, fmt.Errorf("candidate generation: %w", err)
	}
	sql := ""
	if len(texts) > 0 {
		sql = extractTaskSQL(texts[0])
	}
	rec.SQL = predict.OneSQL(sql)
	u.fill(&rec, start)
	return []predict.ModuleRecord{rec}, nil
}

// extractTaskSQL takes a task's SQL out of an answer: the first ```sql block, else the
// first fenced block, else the whole answer (statements of any kind, several allowed).
// A trailing ';' is dropped.
func extractTaskSQL(text string) string {
	sql := text
	switch {
	case sqlLabelled.MatchString(text):
		sql = sqlLabelled.FindStringSubmatch(text)[1]
	case anyFence.MatchString(text):
		sql = anyFence.FindStringSubmatch(text)[1]
	}
	sql = strings.TrimSpace(sql)
	return strings.TrimSpace(strings.TrimSuffix(sql, ";"))
}

func (p prompts) renderTask(t TaskTurn) (string, error) {
	var b strings.Builder
	if err := p[promptTask].Execute(&b, t); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", promptTask, err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}
