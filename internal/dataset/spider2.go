package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Spider 2.0 backends: where a task's SQL runs, read from its instance_id prefix as the
// official evaluate.py does (bq/ga: BigQuery, local: SQLite, sf: Snowflake; every task
// of spider2-snow runs on Snowflake).
const (
	BackendBigQuery  = "bigquery"
	BackendSQLite    = "sqlite"
	BackendSnowflake = "snowflake"
)

// Spider 2.0 suites; each has its own evaluate.py, and the two differ in one rule
// (judge/spider2.go).
const (
	Spider2Lite = "lite"
	Spider2Snow = "snow"
)

// Spider2Suite is a loaded Spider 2.0 suite: its tasks in task-file order (aligned with
// Dataset.Questions) and where its gold results are.
type Spider2Suite struct {
	Suite   string // Spider2Lite or Spider2Snow
	Dir     string // the suite directory
	GoldDir string // evaluation_suite/gold/exec_result
	// EvalFile is the eval config (condition_cols, ignore_order per task).
	EvalFile string
	Tasks    []Spider2Task
}

// Spider2Task is one task with its eval config and gold result files.
type Spider2Task struct {
	ID      string
	Backend string
	// ConditionCols is the eval config's condition_cols as Python sees it (numbers as
	// json.Number, lists as []any, null as nil); HasConditionCols is false when the key
	// is absent. The official rules depend on its exact shape (judge/spider2.go).
	ConditionCols    any
	HasConditionCols bool
	IgnoreOrder      bool
	HasIgnoreOrder   bool
	InEvalConfig     bool // the task has a line in the eval config (official: only these are scored)
	// Gold lists the gold files compared, in the official order: <id>.csv alone when it
	// exists (Single), else every <id>_<letter>.csv sorted by name.
	Gold   []Spider2GoldFile
	Single bool
}

// Spider2GoldFile is one gold result CSV.
type Spider2GoldFile struct {
	Name    string // file name, e.g. bq011_a.csv
	Path    string
	Variant string // "" for <id>.csv, else the letter
	// Missing is set for a file the suite's copy lacks (listed in missing_large_gold.txt):
	// a task is judged on the variants present only when one of them matches.
	Missing bool
}

// loadSpider2 reads a Spider 2.0 suite directory: <dir>/<suite>.jsonl (the tasks),
// <dir>/evaluation_suite/gold/spider2{lite,snow}_eval.jsonl (condition_cols and
// ignore_order per task) and the gold CSVs in evaluation_suite/gold/exec_result/. A
// missing_large_gold.txt in the suite directory or its parent names gold files left out
// of this copy. SQLite databases are <db-root>/<db>.sqlite (default
// <dir>/resource/databases, as evaluate.py has it).
func loadSpider2(path string, opt Options) (*Dataset, error) {
	dir := path
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("read suite: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("read suite: %s is not a directory (give the suite directory, e.g. spider2-lite): %w", dir, ErrMalformed)
	}
	gold := filepath.Join(dir, "evaluation_suite", "gold")
	suite, taskFile, evalFile := "", "", ""
	for _, s := range []string{Spider2Lite, Spider2Snow} {
		tf := filepath.Join(dir, "spider2-"+s+".jsonl")
		if _, err := os.Stat(tf); err == nil {
			suite, taskFile, evalFile = s, tf, filepath.Join(gold, "spider2"+s+"_eval.jsonl")
			break
		}
	}
	if suite == "" {
		return nil, fmt.Errorf("read suite: %s holds neither spider2-lite.jsonl nor spider2-snow.jsonl: %w", dir, os.ErrNotExist)
	}
	objs, err := readLineObjects(taskFile)
	if err != nil {
		return nil, err
	}
	evals, err := readSpider2Eval(evalFile)
	if err != nil {
		return nil, err
	}
	goldDir := filepath.Join(gold, "exec_result")
	golds, err := ReadSpider2GoldDir(goldDir, missingGold(dir))
	if err != nil {
		return nil, err
	}

	d := &Dataset{Kind: KindSpider2, Path: taskFile, DBRoot: opt.DBRoot}
	if d.DBRoot == "" {
		d.DBRoot = filepath.Join(dir, "resource", "databases")
	}
	s := &Spider2Suite{Suite: suite, Dir: dir, GoldDir: goldDir, EvalFile: evalFile}
	seen := map[string]int{}
	for i, o := range objs {
		var id, db, text string
		for key, dst := range map[string]*string{"instance_id": &id, "db": &db, "db_id": &db, "question": &text, "instruction": &text} {
			if raw, ok := o.fields[key]; ok && *dst == "" {
				_ = json.Unmarshal(raw, dst)
			}
		}
		if id == "" {
			return nil, fmt.Errorf("%s:%d: task %d: missing instance_id: %w", taskFile, o.line, i, ErrMissing)
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%s:%d: instance_id %q already on line %d: %w", taskFile, o.line, id, prev, ErrDuplicateID)
		}
		seen[id] = o.line
		t := Spider2Task{ID: id, Backend: spider2Backend(suite, id)}
		if e, ok := evals[id]; ok {
			t.InEvalConfig = true
			t.ConditionCols, t.HasConditionCols = e.cc, e.hasCC
			t.IgnoreOrder, t.HasIgnoreOrder = e.ignoreOrder, e.hasIO
		}
		t.Gold, t.Single = golds.Files(id)
		s.Tasks = append(s.Tasks, t)
		// Difficulty carries the backend: Spider 2.0 has no difficulty levels and reports
		// its scores per backend, so every per-difficulty table reads per backend.
		d.Questions = append(d.Questions, Question{Index: i, ID: id, DBID: db, Text: text, Difficulty: t.Backend})
	}
	for id := range evals {
		if _, ok := seen[id]; !ok {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s: task %s has no line in %s; it is not judged", evalFile, id, taskFile))
		}
	}
	slices.Sort(d.Warnings)
	nMissing := 0
	for _, t := range s.Tasks {
		if len(t.Gold) == 0 || slices.ContainsFunc(t.Gold, func(g Spider2GoldFile) bool { return g.Missing }) {
			nMissing++
		}
	}
	if nMissing > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d task%s a gold result file missing from %s (over 4 MiB, not in this copy); such a task is skipped unless a present variant matches", nMissing, pluralHas(nMissing), goldDir))
	}
	d.Spider2 = s
	return d, nil
}

func pluralHas(n int) string {
	if n == 1 {
		return " has"
	}
	return "s have"
}

// spider2Backend is where task id runs.
func spider2Backend(suite, id string) string {
	switch {
	case suite == Spider2Snow || strings.HasPrefix(id, "sf"):
		return BackendSnowflake
	case strings.HasPrefix(id, "local"):
		return BackendSQLite
	case strings.HasPrefix(id, "bq"), strings.HasPrefix(id, "ga"):
		return BackendBigQuery
	}
	return "unknown"
}

type spider2Eval struct {
	cc                 any
	hasCC, ignoreOrder bool
	hasIO              bool
}

// readSpider2Eval reads the eval config, keeping condition_cols exactly as JSON gives it.
func readSpider2Eval(path string) (map[string]spider2Eval, error) {
	objs, err := readLineObjects(path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]spider2Eval, len(objs))
	for _, o := range objs {
		var id string
		if raw, ok := o.fields["instance_id"]; !ok || json.Unmarshal(raw, &id) != nil || id == "" {
			return nil, fmt.Errorf("%s:%d: missing instance_id: %w", path, o.line, ErrMissing)
		}
		var e spider2Eval
		if raw, ok := o.fields["condition_cols"]; ok {
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if err := dec.Decode(&e.cc); err != nil {
				return nil, fmt.Errorf("%s:%d: condition_cols: %v: %w", path, o.line, err, ErrMalformed)
			}
			e.hasCC = true
		}
		if raw, ok := o.fields["ignore_order"]; ok {
			if err := json.Unmarshal(raw, &e.ignoreOrder); err != nil {
				return nil, fmt.Errorf("%s:%d: ignore_order must be true or false: %w", path, o.line, ErrMalformed)
			}
			e.hasIO = true
		}
		out[id] = e // a repeated id: the last line wins, as in evaluate.py's dict
	}
	return out, nil
}

func goldNames(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read gold results: %w", err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".csv") && !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// missingGold reads missing_large_gold.txt (suite directory, else its parent): the
// gold files this copy lacks, by base name.
func missingGold(dir string) map[string]bool {
	out := map[string]bool{}
	for _, p := range []string{filepath.Join(dir, "missing_large_gold.txt"), filepath.Join(filepath.Dir(filepath.Clean(dir)), "missing_large_gold.txt")} {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		suiteName := filepath.Base(filepath.Clean(dir))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			// Lines may name paths under the data directory (spider2-lite/evaluation_suite/...):
			// another suite's are not ours.
			if first, _, ok := strings.Cut(line, "/"); ok && strings.HasPrefix(first, "spider2-") && first != suiteName {
				continue
			}
			out[filepath.Base(line)] = true
		}
		f.Close()
		break
	}
	return out
}

// Spider2GoldDir is a gold exec_result directory's result files by name, sorted, with
// those this copy lacks (listed in missing_large_gold.txt) among them, marked Missing.
type Spider2GoldDir struct {
	Dir     string
	names   []string
	missing map[string]bool
}

// ReadSpider2GoldDir lists the .csv result files of dir, a gold exec_result directory;
// missing are the files this copy lacks, by base name (nil: none).
func ReadSpider2GoldDir(dir string, missing map[string]bool) (*Spider2GoldDir, error) {
	names, err := goldNames(dir)
	if err != nil {
		return nil, err
	}
	for n := range missing {
		names = append(names, n)
	}
	slices.Sort(names)
	return &Spider2GoldDir{Dir: dir, names: slices.Compact(names), missing: missing}, nil
}

// Files resolves task id's gold files as evaluate.py does: <id>.csv alone when it
// exists (single), else every file matching ^<id>(_[a-z])?\.csv$ in name order.
func (g *Spider2GoldDir) Files(id string) (files []Spider2GoldFile, single bool) {
	file := func(n, variant string) Spider2GoldFile {
		return Spider2GoldFile{Name: n, Path: filepath.Join(g.Dir, n), Variant: variant, Missing: g.missing[n]}
	}
	names := g.names
	if _, ok := slices.BinarySearch(names, id+".csv"); ok {
		return []Spider2GoldFile{file(id+".csv", "")}, true
	}
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(id) + `_([a-z])\.csv$`)
	lo, _ := slices.BinarySearch(names, id+"_")
	for _, n := range names[lo:] {
		if !strings.HasPrefix(n, id+"_") {
			break
		}
		if m := re.FindStringSubmatch(n); m != nil {
			files = append(files, file(n, m[1]))
		}
	}
	return files, false
}
