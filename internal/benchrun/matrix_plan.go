package benchrun

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// ErrBadPlan reports an experiment plan that cannot be run.
var ErrBadPlan = errors.New("bad matrix plan")

// MaxPlan caps a plan file's size.
const MaxPlan = 4 << 20

// MaxCells is the most cells one plan may have: each is a run directory and, for a model,
// an LLM collection.
const MaxCells = 10_000

// planCells counts a plan's cells without overflowing (a count past MaxCells is reported
// as MaxCells+1 or more, exactly when it fits).
func planCells(datasets, models, pipelines int, systems map[string]map[string]string) int64 {
	n := int64(datasets)
	for _, f := range []int{models, pipelines} {
		if n > 0 && int64(f) > (MaxCells+1)/n+1 {
			return math.MaxInt64
		}
		n *= int64(f)
	}
	for _, byDS := range systems {
		n += int64(len(byDS))
	}
	return n
}

func cellCount(n int64) string {
	if n == math.MaxInt64 {
		return "more than " + strconv.Itoa(MaxCells)
	}
	return strconv.FormatInt(n, 10)
}

// PlanDataset is one dataset of a plan: the dataset and the eval options that choose its
// questions.
type PlanDataset struct {
	Dataset string   `yaml:"dataset"` // KIND:PATH, PATH relative to the plan
	DBRoot  string   `yaml:"db_root"`
	Tables  string   `yaml:"tables"`
	DBIDs   []string `yaml:"db_id"` // only these databases' questions (collected and judged)
	// SQLPP is where a SQL++ pipeline's queries run on this dataset (Couchbase); without
	// it the dataset takes no SQL++ pipeline. Gold SQL runs on SQLite, as eval's does.
	SQLPP *PlanSQLPP `yaml:"sqlpp"`
	// A task dataset's (livesql:, evalbench:; docs/tasks.md): where its database copies
	// are made (engine sqlite, postgres or mysql, the DSN in dsn_env, eval's default
	// variable when empty) and how its turns are judged (eval's --livesql-mode and
	// --task-code). A collected cell asks its tasks as `collect` does (CollectTasks).
	Engine      string `yaml:"engine"`
	DSNEnv      string `yaml:"dsn_env"`
	LiveSQLMode string `yaml:"livesql_mode"`
	TaskCode    string `yaml:"task_code"`
}

// PlanSQLPP is a dataset's Couchbase query service, as eval's --sqlpp-* flags.
type PlanSQLPP struct {
	Endpoint    string `yaml:"endpoint"`
	Bucket      string `yaml:"bucket"`
	User        string `yaml:"user"`
	PasswordEnv string `yaml:"password_env"` // default NL2SQLBENCH_SQLPP_PASSWORD
}

// engines is where cell c's pipeline runs its queries and eval its predictions: nil for
// SQLite (every cell but a SQL++ pipeline's).
func (p *MatrixPlan) engines(c PlanCell) *Engines {
	s := p.Datasets[c.Dataset].SQLPP
	if !c.Collected() || !c.Config.SQLPP() || s == nil {
		return nil
	}
	e := &Engines{Engine: EngineSQLPP, SQLPPEndpoint: s.Endpoint, SQLPPUser: s.User, SQLPPPWEnv: s.PasswordEnv, SQLPPBucket: s.Bucket}
	if e.SQLPPPWEnv == "" {
		e.SQLPPPWEnv = DefaultSQLPPPWEnv
	}
	_ = e.Check() // sets the gold engine (sqlite); an sqlpp engine is always valid
	return e
}

// EndpointLimit caps what every cell calling one endpoint asks of it together.
type EndpointLimit struct {
	Concurrency       int     `yaml:"concurrency"`
	RequestsPerMinute float64 `yaml:"requests_per_minute"`
}

// planFile is a plan's YAML shape. Models and pipelines stay nodes until they are read as
// collect's llm, pricing and pipeline sections (collect's own strict parse).
type planFile struct {
	Datasets  map[string]PlanDataset       `yaml:"datasets"`
	Models    map[string]yaml.Node         `yaml:"models"`
	Pipelines map[string]yaml.Node         `yaml:"pipelines"`
	Systems   map[string]map[string]string `yaml:"systems"`
	Exclude   []string                     `yaml:"exclude"`
	Endpoints map[string]EndpointLimit     `yaml:"endpoints"`
}

// MatrixPlan is an experiment matrix plan read and checked (docs/matrix.md).
type MatrixPlan struct {
	SHA256    string // of the plan file's bytes
	Datasets  map[string]PlanDataset
	Configs   map[string]*collect.Config // model+pipeline -> the collect config of those cells
	Models    []string                   // sorted names
	Pipelines []string
	Systems   map[string]map[string]string // system -> dataset -> prediction file (absolute)
	Endpoints map[string]EndpointLimit
	Cells     []PlanCell // every cell not excluded, in name order
}

// PlanCell is one cell of the grid.
type PlanCell struct {
	Name, Dataset, Model, Pipeline, System string
	Config                                 *collect.Config // collected cells
	PredFile                               string          // system cells
}

// Collected reports whether the cell's predictions are collected (not a file on disk).
func (c PlanCell) Collected() bool { return c.System == "" }

// EvalName is the system name the cell's eval run judges.
func (c PlanCell) EvalName() string {
	if c.Collected() {
		return c.Model + "+" + c.Pipeline
	}
	return c.System
}

var planName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// LoadMatrixPlan reads and checks the plan file path. Unknown keys are errors naming the key.
func LoadMatrixPlan(path string) (*MatrixPlan, error) {
	// A FIFO or device given as the plan is refused, not waited on.
	data, err := safefile.ReadFile(path, MaxPlan)
	if err != nil {
		return nil, fmt.Errorf("read plan: %w (%w)", err, ErrBadPlan)
	}
	p, err := ParseMatrixPlan(data, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", path, err)
	}
	return p, nil
}

// ParseMatrixPlan reads a plan; relative paths in it are relative to dir.
func ParseMatrixPlan(data []byte, dir string) (*MatrixPlan, error) {
	var pf planFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&pf); err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrBadPlan)
	}
	sum := sha256.Sum256(data)
	p := &MatrixPlan{SHA256: hex.EncodeToString(sum[:]), Datasets: map[string]PlanDataset{}, Configs: map[string]*collect.Config{},
		Systems: map[string]map[string]string{}, Endpoints: pf.Endpoints}
	if len(pf.Datasets) == 0 {
		return nil, fmt.Errorf("datasets: the plan names none: %w", ErrBadPlan)
	}
	for name, d := range pf.Datasets {
		if !planName.MatchString(name) {
			return nil, fmt.Errorf("datasets.%s: a name is letters, digits, _ . - : %w", name, ErrBadPlan)
		}
		kind, path, ok := strings.Cut(d.Dataset, ":")
		if !ok || kind == "" || path == "" {
			return nil, fmt.Errorf("datasets.%s.dataset %q: want KIND:PATH: %w", name, d.Dataset, ErrBadPlan)
		}
		d.Dataset = kind + ":" + abs(dir, path)
		d.DBRoot, d.Tables = abs(dir, d.DBRoot), abs(dir, d.Tables)
		if err := d.checkTasks(name); err != nil {
			return nil, err
		}
		if d.SQLPP != nil && (d.SQLPP.Endpoint == "" || d.SQLPP.Bucket == "") {
			return nil, fmt.Errorf("datasets.%s.sqlpp: endpoint and bucket are required (the query service's URL, and the bucket whose scopes hold the databases): %w", name, ErrBadPlan)
		}
		p.Datasets[name] = d
	}
	llms := map[string]*yaml.Node{}
	prices := map[string]*yaml.Node{}
	for name, n := range pf.Models {
		if !planName.MatchString(name) || strings.Contains(name, "+") {
			return nil, fmt.Errorf("models.%s: a name is letters, digits, _ . - : %w", name, ErrBadPlan)
		}
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("models.%s (line %d): want the collect config's llm keys and pricing: %w", name, n.Line, ErrBadPlan)
		}
		llm := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "pricing" {
				prices[name] = n.Content[i+1]
				continue
			}
			llm.Content = append(llm.Content, n.Content[i], n.Content[i+1])
		}
		llms[name] = llm
		p.Models = append(p.Models, name)
	}
	for name, n := range pf.Pipelines {
		if !planName.MatchString(name) || strings.Contains(name, "+") {
			return nil, fmt.Errorf("pipelines.%s: a name is letters, digits, _ . - : %w", name, ErrBadPlan)
		}
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("pipelines.%s (line %d): want collect's pipeline section: %w", name, n.Line, ErrBadPlan)
		}
		p.Pipelines = append(p.Pipelines, name)
	}
	sort.Strings(p.Models)
	sort.Strings(p.Pipelines)
	if n := planCells(len(p.Datasets), len(p.Models), len(p.Pipelines), pf.Systems); n > MaxCells {
		// Counted before anything per cell is built: a 4 MiB plan can name a thousand
		// datasets, models and pipelines, a billion cells.
		return nil, fmt.Errorf("the plan has %s cells (datasets x models x pipelines, plus systems); at most %d: split it into several plans: %w", cellCount(n), MaxCells, ErrBadPlan)
	}
	for _, m := range p.Models {
		for _, pl := range p.Pipelines {
			node := pf.Pipelines[pl]
			cfg, err := composeConfig(dir, llms[m], prices[m], &node)
			if err != nil {
				return nil, fmt.Errorf("models.%s with pipelines.%s: %w", m, pl, err)
			}
			p.Configs[m+"+"+pl] = cfg
		}
	}
	for sys, byDS := range pf.Systems {
		if !planName.MatchString(sys) || strings.Contains(sys, "+") {
			return nil, fmt.Errorf("systems.%s: a name is letters, digits, _ . - : %w", sys, ErrBadPlan)
		}
		if _, clash := pf.Models[sys]; clash {
			return nil, fmt.Errorf("systems.%s: also a model's name: %w", sys, ErrBadPlan)
		}
		p.Systems[sys] = map[string]string{}
		for ds, file := range byDS {
			if _, ok := p.Datasets[ds]; !ok {
				return nil, fmt.Errorf("systems.%s.%s: no such dataset in datasets: %w", sys, ds, ErrBadPlan)
			}
			if file == "" {
				return nil, fmt.Errorf("systems.%s.%s: no prediction file: %w", sys, ds, ErrBadPlan)
			}
			p.Systems[sys][ds] = abs(dir, file)
		}
	}
	for url, lim := range pf.Endpoints {
		used := false
		for _, cfg := range p.Configs {
			used = used || cfg.LLM.BaseURL == url
		}
		switch {
		case !used:
			return nil, fmt.Errorf("endpoints.%s: no model calls it (models' base_url): %w", url, ErrBadPlan)
		case lim.Concurrency < 0 || lim.RequestsPerMinute < 0 || lim.RequestsPerMinute != lim.RequestsPerMinute:
			return nil, fmt.Errorf("endpoints.%s: concurrency and requests_per_minute are not negative: %w", url, ErrBadPlan)
		}
	}
	if err := p.enumerate(pf.Exclude); err != nil {
		return nil, err
	}
	return p, nil
}

// composeConfig reads one model and one pipeline as a collect config, through collect's
// strict parse (an unknown key is an error naming it).
func composeConfig(dir string, llm, price, pipeline *yaml.Node) (*collect.Config, error) {
	key := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	// A pipeline's second_pass key is collect's top-level second_pass section (the
	// NL2SQL++ two-pass run): a plan names it beside the pipeline it retries.
	pl := &yaml.Node{Kind: pipeline.Kind, Tag: pipeline.Tag, Line: pipeline.Line, Column: pipeline.Column}
	var second *yaml.Node
	for i := 0; i+1 < len(pipeline.Content); i += 2 {
		if pipeline.Content[i].Value == "second_pass" {
			second = pipeline.Content[i+1]
			continue
		}
		pl.Content = append(pl.Content, pipeline.Content[i], pipeline.Content[i+1])
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key("llm"), llm, key("pipeline"), pl}}
	if second != nil {
		doc.Content = append(doc.Content, key("second_pass"), second)
	}
	if price != nil {
		doc.Content = append(doc.Content, key("pricing"), price)
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrBadPlan)
	}
	cfg, err := collect.ParseConfig(b)
	if err != nil {
		return nil, fmt.Errorf("%w (%w)", err, ErrBadPlan)
	}
	cfg.SetDir(abs(dir, ".")) // prompt paths are relative to the plan, as its other paths are
	return cfg, nil
}

func (p *MatrixPlan) enumerate(exclude []string) error {
	var all []PlanCell
	for ds := range p.Datasets {
		for _, m := range p.Models {
			for _, pl := range p.Pipelines {
				all = append(all, PlanCell{Name: ds + "/" + m + "+" + pl, Dataset: ds, Model: m, Pipeline: pl, Config: p.Configs[m+"+"+pl]})
			}
		}
	}
	for sys, byDS := range p.Systems {
		for ds, file := range byDS {
			all = append(all, PlanCell{Name: ds + "/" + sys, Dataset: ds, System: sys, PredFile: file})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	skip := map[string]bool{}
	for _, x := range exclude {
		if !slices.ContainsFunc(all, func(c PlanCell) bool { return c.Name == x }) {
			return fmt.Errorf("exclude: %q is not a cell of the plan (cells are named <dataset>/<model>+<pipeline> or <dataset>/<system>): %w", x, ErrBadPlan)
		}
		skip[x] = true
	}
	var noEngine, notTasks []string
	for _, c := range all {
		if skip[c.Name] {
			continue
		}
		if c.Collected() && c.Config.SQLPP() && p.Datasets[c.Dataset].SQLPP == nil {
			noEngine = append(noEngine, c.Name)
		}
		if c.Collected() && p.Datasets[c.Dataset].tasks() {
			if err := c.Config.CheckTasks(); err != nil {
				notTasks = append(notTasks, c.Name+" ("+strings.TrimSuffix(err.Error(), ": "+collect.ErrBadConfig.Error())+")")
			}
		}
		p.Cells = append(p.Cells, c)
	}
	if len(noEngine) > 0 {
		return fmt.Errorf("cells %s run a SQL++ pipeline on a dataset without sqlpp (its query service: datasets.<name>.sqlpp {endpoint, bucket}); give the dataset one or exclude them: %w",
			strings.Join(noEngine, ", "), ErrBadPlan)
	}
	if len(notTasks) > 0 {
		return fmt.Errorf("cells %s ask a task dataset with a pipeline that is not one prompt per turn; exclude them or use such a pipeline (docs/tasks.md): %w",
			strings.Join(notTasks, ", "), ErrBadPlan)
	}
	if len(p.Cells) == 0 {
		return fmt.Errorf("the plan has no cells (datasets x models x pipelines, plus systems, minus exclude): %w", ErrBadPlan)
	}
	return nil
}

func abs(dir, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	if a, err := filepath.Abs(filepath.Join(dir, path)); err == nil {
		return a
	}
	return filepath.Join(dir, path)
}

// matrixEvalVersion names how the matrix judges a cell (eval's default settings): part of
// every cell's input hash, so a change to it redoes the cells.
const matrixEvalVersion = "matrix-eval-1"

// InputHash is the sha256 of everything that shapes cell c's results: the dataset (its
// question file's sha256, where its databases are, the db_id filter), and either the
// model's request settings and the pipeline, or the prediction file's sha256. Pricing,
// concurrency and rate limits change no answer and are left out. questionsSHA is the
// sha256 of the dataset's question file.
func (p *MatrixPlan) InputHash(c PlanCell, questionsSHA, predSHA string) string {
	d := p.Datasets[c.Dataset]
	ids := slices.Clone(d.DBIDs)
	sort.Strings(ids)
	in := map[string]any{"eval": matrixEvalVersion, "dataset": d.Dataset, "db_root": d.DBRoot, "tables": d.Tables, "db_id": ids, "questions_sha256": questionsSHA}
	if c.Collected() {
		l := c.Config.LLM
		in["llm"] = map[string]any{"base_url": l.BaseURL, "model": l.Model, "temperature": l.Temperature, "top_p": l.TopP, "max_tokens": l.MaxTokens, "seed": l.Seed}
		in["pipeline"] = c.Config.Pipeline
		if e := p.engines(c); e != nil { // where its queries run (not who logs in)
			in["sqlpp"] = map[string]string{"endpoint": e.SQLPPEndpoint, "bucket": e.SQLPPBucket}
		}
		if c.Config.TwoPass() { // only then: a one-pass cell's hash is what it was
			in["second_pass"] = c.Config.SecondPass
		}
	} else {
		in["predictions_sha256"] = predSHA
	}
	if d.tasks() { // only then: other datasets' hashes are what they were
		in["tasks"] = map[string]string{"engine": d.taskEngines().Engine, "livesql_mode": d.LiveSQLMode, "task_code": d.TaskCode}
	}
	b, _ := json.Marshal(in) // maps marshal with sorted keys: one canonical form
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// CellDir is cell c's directory inside the matrix directory dir.
func CellDir(dir string, c PlanCell) string { return filepath.Join(dir, rundir.CellDirName(c.Name)) }
