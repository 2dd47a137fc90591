package taskset

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Category is what a LiveSQLBench task asks for.
type Category string

// The categories. A Query task is judged by comparing results (ex_base under its
// Conditions); a Management task (INSERT, UPDATE, CREATE, ...) by its test cases.
const (
	Query      Category = "Query"
	Management Category = "Management"
)

// Conditions say how a Query task's results are compared.
type Conditions struct {
	Decimal  int  // decimal places the question asks for; -1: none (the official ex_base ignores it)
	Distinct bool // the question asks for distinct rows
	Order    bool // the rows' order matters
}

// Task is one BIRD-Interact / LiveSQLBench task: its first turn and its follow-up.
type Task struct {
	ID         string // instance_id
	DB         string // selected_database
	Query      string // the clear question
	AmbQuery   string // amb_user_query: the ambiguous wording of BIRD-Interact
	Category   Category
	Difficulty string // difficulty_tier: Simple, Moderate, Challenging
	HighLevel  bool
	Conditions Conditions
	SolSQL     []string // sol_sql: the gold, run in order
	Preprocess []string // preprocess_sql: run before the prediction
	// CleanUp is clean_up_sqls, what the task files hold; CleanUpSQL is clean_up_sql,
	// the field the official evaluator reads (so, on these files, never runs).
	CleanUp    []string
	CleanUpSQL []string
	TestCases  []string // Python source, each defining test_case(pred_sqls, sol_sqls, db_name, conn)
	Knowledge  []int    // external_knowledge: ids into the database's knowledge base
	FollowUp   *FollowUp
	// The ambiguity annotations of BIRD-Interact, kept as they are for the prompts.
	UserQueryAmbiguity json.RawMessage
	KnowledgeAmbiguity json.RawMessage
	Line               int // where the task starts in the task file
}

// FollowUp is a task's second turn, run on the database the first turn left.
type FollowUp struct {
	Query      string
	Type       string // what changes from the first turn (attribute_change, ...)
	Category   Category
	Difficulty string
	Conditions Conditions
	SolSQL     []string
	TestCases  []string
	Knowledge  []int
}

// Knowledge is one entry of a database's knowledge base.
type Knowledge struct {
	ID          int
	Name        string // "knowledge"
	Description string
	Type        string
	Definition  json.RawMessage
	Children    json.RawMessage // children_knowledge: -1 or a list of ids
}

// LiveSQL is a livesql:DIR dataset.
type LiveSQL struct {
	Dir   string
	File  string // the task file read
	Tasks []Task
	// Knowledge is each database's knowledge base by id; a database without a
	// knowledge base file has none.
	Knowledge map[string]map[int]Knowledge
}

// taskFiles are where a livesql:DIR's tasks may be, first found wins.
var taskFiles = []string{"prompts.jsonl", "data.jsonl", "livesqlbench_data.jsonl"}

var safeName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// LoadLiveSQL reads the tasks and knowledge bases of dir. It does not read the
// databases' setup (LiveSQLSetup does, for the databases a run needs).
func LoadLiveSQL(ctx context.Context, dir string) (*LiveSQL, error) {
	ds := &LiveSQL{Dir: dir, Knowledge: map[string]map[int]Knowledge{}}
	for _, name := range taskFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			ds.File = filepath.Join(dir, name)
			break
		}
	}
	if ds.File == "" {
		return nil, fmt.Errorf("open livesql dataset %s: no task file (%v)", dir, taskFiles)
	}
	data, err := readFile(dir, ds.File, true)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	err = streamObjects(ds.File, data, func(f fields) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := liveSQLTask(f)
		if err != nil {
			return err
		}
		if prev, dup := seen[t.ID]; dup {
			return fmt.Errorf("%s: %w: instance_id %q already at line %d", f.where, ErrMalformed, t.ID, prev)
		}
		seen[t.ID] = t.Line
		ds.Tasks = append(ds.Tasks, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, t := range ds.Tasks {
		if _, done := ds.Knowledge[t.DB]; done {
			continue
		}
		kb, err := loadKnowledge(ctx, dir, filepath.Join(dir, t.DB, t.DB+"_kb.jsonl"))
		if err != nil {
			return nil, err
		}
		ds.Knowledge[t.DB] = kb
	}
	for _, t := range ds.Tasks {
		kb := ds.Knowledge[t.DB]
		ids := append(append([]int{}, t.Knowledge...), followKnowledge(t)...)
		for _, id := range ids {
			if _, ok := kb[id]; !ok && len(kb) > 0 {
				return nil, fmt.Errorf("%s:%d: task %s: %w: external_knowledge %d is not in %s's knowledge base", ds.File, t.Line, t.ID, ErrMalformed, id, t.DB)
			}
		}
	}
	return ds, nil
}

func followKnowledge(t Task) []int {
	if t.FollowUp == nil {
		return nil
	}
	return t.FollowUp.Knowledge
}

func liveSQLTask(f fields) (Task, error) {
	t := Task{Line: f.line}
	var err error
	if t.ID, err = f.id("instance_id"); err != nil {
		return t, err
	}
	f.where += " (" + t.ID + ")"
	if t.DB, err = f.str("selected_database", true); err != nil {
		return t, err
	}
	if !safeName.MatchString(t.DB) {
		return t, f.bad("selected_database", "a database name of letters, digits and underscores")
	}
	if t.Query, err = f.str("query", false); err != nil {
		return t, err
	}
	if t.AmbQuery, err = f.str("amb_user_query", false); err != nil {
		return t, err
	}
	if t.Difficulty, err = f.str("difficulty_tier", false); err != nil {
		return t, err
	}
	if t.HighLevel, err = f.boolean("high_level"); err != nil {
		return t, err
	}
	if t.Category, err = category(f); err != nil {
		return t, err
	}
	if t.Conditions, err = conditions(f); err != nil {
		return t, err
	}
	for _, p := range []struct {
		key string
		dst *[]string
	}{{"sol_sql", &t.SolSQL}, {"preprocess_sql", &t.Preprocess}, {"clean_up_sqls", &t.CleanUp}, {"clean_up_sql", &t.CleanUpSQL}} {
		if *p.dst, err = f.sqls(p.key); err != nil {
			return t, err
		}
	}
	if len(t.SolSQL) == 0 {
		return t, fmt.Errorf("%s: %w: key \"sol_sql\" missing or empty", f.where, ErrMalformed)
	}
	if t.TestCases, err = f.strs("test_cases"); err != nil {
		return t, err
	}
	if t.Knowledge, err = f.ints("external_knowledge"); err != nil {
		return t, err
	}
	t.UserQueryAmbiguity, t.KnowledgeAmbiguity = f.raw("user_query_ambiguity"), f.raw("knowledge_ambiguity")
	fu, ok, err := f.sub("follow_up")
	if err != nil || !ok {
		return t, err
	}
	t.FollowUp, err = followUp(fu)
	return t, err
}

func followUp(f fields) (*FollowUp, error) {
	u := &FollowUp{}
	var err error
	if u.Query, err = f.str("query", true); err != nil {
		return nil, err
	}
	if u.Type, err = f.str("type", false); err != nil {
		return nil, err
	}
	if u.Difficulty, err = f.str("difficulty_tier", false); err != nil {
		return nil, err
	}
	if u.Category, err = category(f); err != nil {
		return nil, err
	}
	if u.Conditions, err = conditions(f); err != nil {
		return nil, err
	}
	if u.SolSQL, err = f.sqls("sol_sql"); err != nil {
		return nil, err
	}
	if u.TestCases, err = f.strs("test_cases"); err != nil {
		return nil, err
	}
	if u.Knowledge, err = f.ints("external_knowledge"); err != nil {
		return nil, err
	}
	return u, nil
}

// category is "Query" or "Management"; missing is Query, as the official evaluator
// reads it (data_item.get("category", "Query")).
func category(f fields) (Category, error) {
	s, err := f.str("category", false)
	switch {
	case err != nil:
		return "", err
	case s == "":
		return Query, nil
	case s == string(Query) || s == string(Management):
		return Category(s), nil
	}
	return "", f.bad("category", `"Query" or "Management"`)
}

// conditions reads the conditions object; missing is {decimal -1, false, false}.
func conditions(f fields) (Conditions, error) {
	c := Conditions{Decimal: -1}
	g, ok, err := f.sub("conditions")
	if err != nil || !ok {
		return c, err
	}
	if c.Decimal, err = g.integer("decimal", -1); err != nil {
		return c, err
	}
	if c.Distinct, err = g.boolean("distinct"); err != nil {
		return c, err
	}
	c.Order, err = g.boolean("order")
	return c, err
}

// loadKnowledge reads a knowledge base file; a missing file is an empty knowledge base.
func loadKnowledge(ctx context.Context, dir, path string) (map[int]Knowledge, error) {
	kb := map[int]Knowledge{}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return kb, nil
	}
	data, err := readFile(dir, path, true)
	if err != nil {
		return nil, err
	}
	err = streamObjects(path, data, func(f fields) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := Knowledge{}
		var err error
		if k.ID, err = f.integer("id", -1); err != nil {
			return err
		}
		if k.ID < 0 {
			return fmt.Errorf("%s: %w: key \"id\" missing", f.where, ErrMalformed)
		}
		if _, dup := kb[k.ID]; dup {
			return fmt.Errorf("%s: %w: knowledge id %d appears twice", f.where, ErrMalformed, k.ID)
		}
		if k.Name, err = f.str("knowledge", false); err != nil {
			return err
		}
		if k.Description, err = f.str("description", false); err != nil {
			return err
		}
		if k.Type, err = f.str("type", false); err != nil {
			return err
		}
		k.Definition, k.Children = f.raw("definition"), f.raw("children_knowledge")
		kb[k.ID] = k
		return nil
	})
	return kb, err
}
