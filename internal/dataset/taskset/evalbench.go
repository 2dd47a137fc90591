package taskset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

// EvalBenchTask is one task of EvalBench's prompts.json. Each SQL field maps a dialect
// ("postgres", "sqlite", "mysql", ...) to its statements; EvalBench's null entries
// ([null]: nothing for that dialect) are dropped.
type EvalBenchTask struct {
	ID        string
	Prompt    string // nl_prompt
	QueryType string // dql, dml or ddl
	DB        string // database
	Dialects  []string
	Golden    map[string][]string // golden_sql
	EvalQuery map[string][]string // eval_query: run after a dml/ddl task to read the state it left
	Setup     map[string][]string // setup_sql: run before the task
	Cleanup   map[string][]string // cleanup_sql: run after it
	Tags      []string
	Line      int
}

// EvalBench is an evalbench:DIR dataset.
type EvalBench struct {
	Dir   string
	File  string
	Tasks []EvalBenchTask
}

// LoadEvalBench reads DIR/prompts.json.
func LoadEvalBench(ctx context.Context, dir string) (*EvalBench, error) {
	ds := &EvalBench{Dir: dir, File: filepath.Join(dir, "prompts.json")}
	data, err := readFile(dir, ds.File, true)
	if err != nil {
		return nil, err
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return nil, fmt.Errorf("%s:%d: %w: want a JSON array of tasks: %v", ds.File, jsonscan.ErrorLine(data, err), ErrMalformed, err)
	}
	seen := map[string]int{}
	off := 0
	for _, raw := range elems {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Each element's line: find its bytes after the previous one's.
		if k := bytes.Index(data[off:], bytes.TrimSpace(raw)); k >= 0 {
			off += k
		}
		f, err := newFields(ds.File, lineAt(data, off), raw)
		if err != nil {
			return nil, err
		}
		t, err := evalBenchTask(f)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[t.ID]; dup {
			return nil, fmt.Errorf("%s: %w: id %s already at line %d", f.where, ErrMalformed, t.ID, prev)
		}
		seen[t.ID] = t.Line
		ds.Tasks = append(ds.Tasks, t)
	}
	return ds, nil
}

func evalBenchTask(f fields) (EvalBenchTask, error) {
	t := EvalBenchTask{Line: f.line}
	var err error
	if t.ID, err = f.id("id"); err != nil {
		return t, err
	}
	f.where += " (id " + t.ID + ")"
	if t.Prompt, err = f.str("nl_prompt", true); err != nil {
		return t, err
	}
	if t.QueryType, err = f.str("query_type", true); err != nil {
		return t, err
	}
	switch t.QueryType {
	case "dql", "dml", "ddl":
	default:
		return t, f.bad("query_type", "dql, dml or ddl")
	}
	if t.DB, err = f.str("database", true); err != nil {
		return t, err
	}
	if !safeName.MatchString(t.DB) {
		return t, f.bad("database", "a database name of letters, digits and underscores")
	}
	if t.Dialects, err = f.strs("dialects"); err != nil {
		return t, err
	}
	if t.Tags, err = f.strs("tags"); err != nil {
		return t, err
	}
	for _, p := range []struct {
		key string
		dst *map[string][]string
	}{{"golden_sql", &t.Golden}, {"eval_query", &t.EvalQuery}, {"setup_sql", &t.Setup}, {"cleanup_sql", &t.Cleanup}} {
		if *p.dst, err = perDialect(f, p.key); err != nil {
			return t, err
		}
	}
	if len(t.Golden) == 0 {
		return t, fmt.Errorf("%s: %w: key \"golden_sql\" has no dialect", f.where, ErrMalformed)
	}
	return t, nil
}

// perDialect reads {dialect: [sql or null, ...]}.
func perDialect(f fields, key string) (map[string][]string, error) {
	raw := f.raw(key)
	out := map[string][]string{}
	if raw == nil {
		return out, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, f.bad(key, "an object of dialects")
	}
	dialects := make([]string, 0, len(m))
	for d := range m {
		dialects = append(dialects, d)
	}
	sort.Strings(dialects)
	for _, d := range dialects {
		if isNull(m[d]) {
			continue
		}
		var list []*string
		if err := json.Unmarshal(m[d], &list); err != nil {
			var one string
			if json.Unmarshal(m[d], &one) != nil {
				return nil, fmt.Errorf("%s: key %q: dialect %q: %w: want a list of strings, got %s", f.where, key, d, ErrMalformed, abbreviate(m[d]))
			}
			list = []*string{&one}
		}
		for _, s := range list {
			if s != nil && *s != "" {
				out[d] = append(out[d], *s)
			}
		}
	}
	return out, nil
}
