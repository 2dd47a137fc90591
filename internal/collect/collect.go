package collect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// ErrConfigChanged means --out holds a run made with another pipeline or dataset.
var ErrConfigChanged = errors.New("output directory holds a run with another configuration")

// Files of a collect run directory.
const (
	// ModulesFile holds the run's module records (predict.ModuleRecord), one line per
	// module and question: the file `eval --pred` reads. It is not eval's records.jsonl
	// (judged records, one per question).
	ModulesFile = "modules.jsonl"
	// CacheFile holds every LLM response, keyed by the whole request.
	CacheFile = "cache.jsonl"
	// ManifestFile says what the run was collected with; a rerun must match it.
	ManifestFile = "collect.json"
)

// Options configure a collect run.
type Options struct {
	Config  *Config
	Dataset *dataset.Dataset
	OutDir  string
	// LLM answers requests; nil builds an OpenAI-compatible client from Config.LLM.
	LLM LLM
	// Getenv reads the API key's variable (default os.Getenv).
	Getenv     func(string) string
	HTTPClient *http.Client
	// Progress is called after each question (from one goroutine at a time).
	Progress func(Progress)
	// Log receives a line per question that failed (default: discarded).
	Log io.Writer
	// Limit collects only the first Limit questions (0: all).
	Limit int
	// Shard collects only one shard of the dataset's questions (dataset.SplitShards),
	// before Limit; collect.json records it, so a rerun must name the same shard.
	Shard *dataset.Shard
	// Engine runs the queries the pipeline executes (execution_guided, self_consistency,
	// retry_failed); nil: SQLite on the dataset's files. Run does not close it.
	Engine engine.Engine
	// Locate names a question's database for Engine (e.g. judge.ByDBID for SQL++: the
	// db_id becomes the query context's scope); nil: the dataset's SQLite file. It is
	// called from several workers at once.
	Locate func(dbID string) (string, bool)
	// Select restricts the run to the questions it accepts (nil: all of them). A second
	// pass selects the questions the first one got wrong.
	Select func(dataset.Question) bool
	// Pass is the pass of a two-pass run this is (1 or 2), written into every record; 2
	// also generates candidates with the second-pass prompt. 0: an ordinary run.
	Pass int
	// Previous is each question's first-pass attempt, keyed by QuestionKey, for the
	// second-pass prompt (pass 2 only; optional).
	Previous map[string]Attempt
	// Tasks makes this a run of tasks on a database copy (livesql:, evalbench:): each
	// question (Dataset's, as the run layer made them) is asked as its TaskTurn, keyed by
	// QuestionKey, in one prompt, and recorded as one candidate_generation record
	// (tasks.go). Config must pass CheckTasks.
	Tasks map[string]TaskTurn
}

// Attempt is what the second-pass prompt may say about a question's first attempt: its
// SQL and its outcome in words. It must never carry the gold SQL or gold rows.
type Attempt struct {
	SQL     string
	Outcome string
}

// QuestionKey identifies a question across databases (question ids repeat across
// datasets' databases): the key of Options.Previous.
func QuestionKey(dbID, questionID string) string { return questionKey(dbID, questionID) }

// Progress is the state of a run after a question.
type Progress struct {
	Done, Total, Failed int
	PromptTokens        int
	CompletionTokens    int
	TotalTokens         int
	Cost                float64 // 0 without pricing
}

// ModuleTotals adds up one module's usage over the run's records.
type ModuleTotals struct {
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	TotalTokens      int   `json:"total_tokens"`
	LLMCalls         int   `json:"llm_calls"`
	LatencyMS        int64 `json:"latency_ms"`
}

// Summary is what a run did.
type Summary struct {
	Records          string                   `json:"records"`
	Questions        int                      `json:"questions"`
	Resumed          int                      `json:"resumed"`
	Collected        int                      `json:"collected"`
	Failed           int                      `json:"failed"`
	NoDatabase       int                      `json:"no_database"`
	FailedIDs        []string                 `json:"failed_ids,omitempty"`
	Requests         int64                    `json:"http_requests"`
	Retries          int64                    `json:"retries"`
	CacheHits        int64                    `json:"cache_hits"`
	PromptTokens     int                      `json:"prompt_tokens"`
	CompletionTokens int                      `json:"completion_tokens"`
	TotalTokens      int                      `json:"total_tokens"`
	Cost             float64                  `json:"estimated_cost_usd"`
	Priced           bool                     `json:"priced"`
	Modules          map[string]*ModuleTotals `json:"modules"`
}

// runner is one collect run's state shared by its workers.
type runner struct {
	cfg      *Config
	llm      LLM
	eng      engine.Engine // runs the pipeline's queries
	sampler  engine.Engine // reads SQLite sample values for prompts
	locate   func(string) (string, bool)
	docs     string // SQL++: the documents directory
	pass     int
	previous map[string]Attempt
	prompts  prompts
	dbs      dbCache
	tasks    map[string]TaskTurn // a run of tasks (Options.Tasks)
}

// nodeTypes are the node types the pipeline writes per question, in order.
func (c *Config) nodeTypes() []string {
	if c.Pipeline.QueryRevision.Strategy == ReviseNone {
		return []string{predict.NodeSchemaSelection, predict.NodeCandidateGeneration}
	}
	return []string{predict.NodeSchemaSelection, predict.NodeCandidateGeneration, predict.NodeQueryRevision}
}

// Run collects module records for the dataset's questions into OutDir/modules.jsonl. It
// resumes a run interrupted in the same directory: questions already recorded are kept
// and not asked again, and requests already answered come from OutDir/cache.jsonl. A run
// directory written before modules.jsonl had its name holds records.jsonl instead: Run
// renames it to modules.jsonl (saying so on Log) and resumes from it. A
// question whose LLM calls fail for good is left out (counted in Failed, and logged): a
// rerun tries it again. Cancelling ctx stops the run; every question recorded so far is
// complete.
func Run(ctx context.Context, opt Options) (*Summary, error) {
	cfg, ds := opt.Config, opt.Dataset
	if cfg == nil || ds == nil {
		return nil, fmt.Errorf("collect: %w: no config or dataset", ErrBadConfig)
	}
	ps, err := loadPrompts(cfg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	if opt.Pass < 0 || opt.Pass > 2 {
		return nil, fmt.Errorf("collect: pass %d: want 0, 1 or 2: %w", opt.Pass, ErrBadConfig)
	}
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	shard := ""
	if opt.Shard != nil {
		sub := *ds
		if _, err := sub.SelectShard(*opt.Shard); err != nil {
			return nil, fmt.Errorf("collect: --shard: %w", err)
		}
		ds, shard = &sub, opt.Shard.String()+" "+dataset.IndexDigest(sub.Questions)
	}
	nodeTypes := cfg.nodeTypes()
	if opt.Tasks != nil {
		if err := cfg.CheckTasks(); err != nil {
			return nil, err
		}
		nodeTypes = taskNodeTypes
	}
	if err := checkManifest(opt.OutDir, cfg, ds, opt.Pass, shard); err != nil {
		return nil, err
	}
	llm := opt.LLM
	var client *OpenAIClient
	if llm == nil {
		getenv := opt.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		client, err = NewOpenAIClient(cfg.LLM, getenv, opt.HTTPClient)
		if err != nil {
			return nil, err
		}
		llm = client
	}
	cache, err := OpenCache(filepath.Join(opt.OutDir, CacheFile))
	if err != nil {
		return nil, err
	}
	defer cache.Close()
	recPath := filepath.Join(opt.OutDir, ModulesFile)
	w, done, err := openRecords(recPath, nodeTypes)
	if err != nil {
		return nil, err
	}
	defer w.f.Close()
	sqlite := engine.NewSQLite()
	defer sqlite.Close()
	r := &runner{
		cfg:      cfg,
		llm:      &cachedLLM{inner: llm, cache: cache, baseURL: cfg.LLM.BaseURL, model: cfg.LLM.Model},
		eng:      sqlite,
		sampler:  sqlite,
		locate:   opt.Locate,
		pass:     opt.Pass,
		previous: opt.Previous,
		prompts:  ps,
		dbs:      dbCache{dbs: map[string]*dbEntry{}},
		tasks:    opt.Tasks,
	}
	if opt.Engine != nil {
		r.eng = opt.Engine
	}
	if cfg.SQLPP() {
		r.docs = cfg.DocumentsDir()
	}

	sum := &Summary{Records: recPath, Modules: map[string]*ModuleTotals{}}
	sum.Priced = cfg.Pricing != nil
	var todo []dataset.Question
	for k, q := range opt.questions(ds) {
		sum.Questions++
		if d, ok := done[k]; ok {
			sum.Resumed++
			sum.addRecords(d.recs)
			continue
		}
		todo = append(todo, q)
	}
	sum.Cost = cfg.Cost(sum.PromptTokens, sum.CompletionTokens)

	var mu sync.Mutex // guards sum and progress calls
	report := func() {
		if opt.Progress != nil {
			opt.Progress(Progress{Done: sum.Resumed + sum.Collected, Total: sum.Questions, Failed: sum.Failed,
				PromptTokens: sum.PromptTokens, CompletionTokens: sum.CompletionTokens, TotalTokens: sum.TotalTokens, Cost: sum.Cost})
		}
	}
	report()
	var fatal error
	// stopped says no question is to start: ctx ended or a write failed.
	stopped := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return fatal != nil || ctx.Err() != nil
	}
	// ask answers q and counts it; a failed write of its records or answers is fatal.
	ask := func(q dataset.Question) {
		// The question's answers reach the cache only after its records: see Cache.
		pending := &pendingAnswers{}
		recs, err := r.question(withPending(ctx, pending), ds, q)
		skipped := errors.Is(err, errNoDatabase)
		if skipped {
			err = nil
		}
		if err == nil {
			err = w.write(recs)
			if err == nil {
				err = cache.commit(pending)
			}
			if err != nil {
				mu.Lock()
				if fatal == nil { // the first failed write is the one to report
					fatal = err
				}
				mu.Unlock()
			}
		}
		mu.Lock()
		switch {
		case err == nil:
			if skipped {
				sum.NoDatabase++
				fmt.Fprintf(logw, "question %s: database %s not found (looked in %v): recorded without SQL\n", q.ID, q.DBID, ds.DBCandidates(q.DBID))
			}
			sum.Collected++
			sum.addRecords(recs)
			sum.Cost = cfg.Cost(sum.PromptTokens, sum.CompletionTokens)
		case ctx.Err() != nil:
			// interrupted: the question was in flight, not failed
		case fatal == nil:
			sum.Failed++
			sum.FailedIDs = append(sum.FailedIDs, q.ID)
			fmt.Fprintf(logw, "question %s (%s): %v\n", q.ID, q.DBID, err)
		}
		report()
		mu.Unlock()
	}
	var g errgroup.Group
	g.SetLimit(max(cfg.LLM.Concurrency, 1))
	for _, q := range todo {
		if stopped() {
			break
		}
		g.Go(func() error {
			// Go may have waited for a free worker while ctx ended or a write failed.
			if !stopped() {
				ask(q)
			}
			return nil
		})
	}
	_ = g.Wait() // the workers return nil: a write error is fatal, kept under mu
	if client != nil {
		sum.Requests, sum.Retries = client.Stats.Requests.Load(), client.Stats.Retries.Load()
	}
	sum.CacheHits = cache.Hits.Load()
	if fatal != nil {
		return sum, fatal
	}
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	return sum, nil
}

// questions yields the questions of ds (the dataset, or Run's shard of it) a run of opt
// asks, with their keys: of the first Limit, those Select accepts, each (db_id,
// question_id) once, in dataset order.
func (opt *Options) questions(ds *dataset.Dataset) iter.Seq2[string, dataset.Question] {
	return func(yield func(string, dataset.Question) bool) {
		qs := ds.Questions
		if opt.Limit > 0 && opt.Limit < len(qs) {
			qs = qs[:opt.Limit]
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if opt.Select != nil && !opt.Select(q) {
				continue
			}
			k := questionKey(q.DBID, q.ID)
			if seen[k] {
				continue
			}
			seen[k] = true
			if !yield(k, q) {
				return
			}
		}
	}
}

// question answers one question: its database, then the pipeline.
func (r *runner) question(ctx context.Context, ds *dataset.Dataset, q dataset.Question) ([]predict.ModuleRecord, error) {
	if r.tasks != nil {
		t, ok := r.tasks[questionKey(q.DBID, q.ID)]
		if !ok {
			return nil, fmt.Errorf("task %s (%s): no prompt for it", q.ID, q.DBID)
		}
		return r.answerTask(ctx, q, t)
	}
	var db *dbInfo
	var err error
	if r.docs != "" {
		dir := filepath.Join(r.docs, q.DBID)
		if fi, serr := os.Stat(dir); serr != nil || !fi.IsDir() || q.DBID == "" || strings.ContainsAny(q.DBID, `/\`) || q.DBID == "." || q.DBID == ".." {
			return r.noDatabase(q), errNoDatabase
		}
		db, err = r.dbs.get(dir, func() (*dbInfo, error) { return loadDocs(q.DBID, dir, r.cfg) })
		if errors.Is(err, errNoDatabase) {
			return r.noDatabase(q), errNoDatabase
		}
	} else {
		path, ok := ds.DBPath(q.DBID)
		if !ok {
			return r.noDatabase(q), errNoDatabase
		}
		db, err = r.dbs.get(path, func() (*dbInfo, error) { return loadDB(ctx, r.sampler, path, *r.cfg.Pipeline.SampleValues) })
	}
	if err != nil {
		return nil, err
	}
	if r.locate != nil {
		target, ok := r.locate(q.DBID)
		if !ok {
			return r.noDatabase(q), errNoDatabase
		}
		local := *db // the cached schema is shared; only where queries run differs
		local.path = target
		db = &local
	}
	return r.answer(ctx, q, db)
}

// loadDocs reads a database's document shapes from the export-docs directory dir.
func loadDocs(dbID, dir string, cfg *Config) (*dbInfo, error) {
	n := cfg.Pipeline.SampleDocuments
	if n == 0 {
		n = defaultSampleDocs
	}
	shapes, err := readDocShapes(dir, n, *cfg.Pipeline.SampleValues)
	if err != nil {
		return nil, err
	}
	return &dbInfo{path: dbID, schema: shapes.schema(dbID), shapes: shapes}, nil
}

// errNoDatabase marks a question recorded without asking the LLM: its database is
// missing, so there is no schema to prompt with (eval reports it as skipped).
var errNoDatabase = errors.New("database missing")

// noDatabase is the records of a question whose database is missing: every module, no
// SQL, no usage, so the records file still answers every question.
func (r *runner) noDatabase(q dataset.Question) []predict.ModuleRecord {
	var recs []predict.ModuleRecord
	for _, nt := range r.cfg.nodeTypes() {
		rec := predict.ModuleRecord{
			ModuleOutput:  predict.ModuleOutput{NodeType: nt, QuestionID: predict.QuestionID(q.ID), DBID: q.DBID, Question: q.Text},
			ModuleDetails: predict.ModuleDetails{SchemaSource: "database_missing", Pass: r.pass},
		}
		switch nt {
		case predict.NodeSchemaSelection:
			rec.Strategy = r.cfg.Pipeline.SchemaSelection.Strategy
		case predict.NodeCandidateGeneration:
			rec.Strategy, rec.SQL = r.cfg.Pipeline.CandidateGeneration.Strategy, predict.OneSQL("")
		case predict.NodeQueryRevision:
			rec.Strategy, rec.SQL = r.cfg.Pipeline.QueryRevision.Strategy, predict.OneSQL("")
		}
		var none usageAcc
		none.record(&rec, 0)
		recs = append(recs, rec)
	}
	return recs
}

func (s *Summary) addRecords(recs []predict.ModuleRecord) {
	for _, rec := range recs {
		u := rec.Usage()
		// Saturating: a server's (or a resumed file's) huge counts never wrap the totals.
		s.PromptTokens = record.AddCount(s.PromptTokens, u.PromptTokens)
		s.CompletionTokens = record.AddCount(s.CompletionTokens, u.CompletionTokens)
		s.TotalTokens = record.AddCount(s.TotalTokens, u.TotalTokens)
		m := s.Modules[rec.NodeType]
		if m == nil {
			m = &ModuleTotals{}
			s.Modules[rec.NodeType] = m
		}
		m.PromptTokens = record.AddCount(m.PromptTokens, u.PromptTokens)
		m.CompletionTokens = record.AddCount(m.CompletionTokens, u.CompletionTokens)
		m.TotalTokens = record.AddCount(m.TotalTokens, u.TotalTokens)
		m.LLMCalls = record.AddCount(m.LLMCalls, u.LLMCalls)
		m.LatencyMS += u.LatencyMS
	}
}

// manifest identifies what a run directory was collected with; a rerun must match it.
type manifest struct {
	Dataset  string `json:"dataset"`
	Model    string `json:"model"`
	BaseURL  string `json:"base_url"`
	Pipeline string `json:"pipeline_sha256"`
	// Shard is "INDEX/COUNT SHA256" (the sha256 of its question indexes) with --shard.
	Shard string `json:"shard,omitempty"`
}

func checkManifest(dir string, cfg *Config, ds *dataset.Dataset, pass int, shard string) error {
	// A second pass's directory also depends on the second-pass settings; the extra
	// fields are omitted otherwise, so the hash of other runs is what it always was.
	var second *SecondPassConfig
	if pass == 2 {
		second = cfg.SecondPass
	}
	pb, _ := json.Marshal(struct {
		P  PipelineConfig
		T  *float64
		U  *float64
		M  int
		S  *int64
		P2 *SecondPassConfig `json:",omitempty"`
	}{cfg.Pipeline, cfg.LLM.Temperature, cfg.LLM.TopP, cfg.LLM.MaxTokens, cfg.LLM.Seed, second})
	h := sha256.Sum256(pb)
	abs, err := filepath.Abs(ds.Path)
	if err != nil {
		abs = ds.Path
	}
	want := manifest{Dataset: abs, Model: cfg.LLM.Model, BaseURL: cfg.LLM.BaseURL, Pipeline: hex.EncodeToString(h[:]), Shard: shard}
	path := filepath.Join(dir, ManifestFile)
	data, err := safefile.ReadFile(path, maxManifestFile)
	switch {
	case err == nil:
		var have manifest
		if err := json.Unmarshal(data, &have); err != nil {
			return fmt.Errorf("%s: %v: %w", path, err, ErrBadRecords)
		}
		if have != want {
			return fmt.Errorf("%s: collected with %+v, now %+v; use another --out: %w", path, have, want, ErrConfigChanged)
		}
		return nil
	case errors.Is(err, os.ErrNotExist):
		b, _ := json.MarshalIndent(want, "", "  ")
		if err := safefile.WriteFile(path, append(b, '\n')); err != nil {
			return fmt.Errorf("write manifest: %w", err)
		}
		return nil
	default:
		return fmt.Errorf("read manifest: %w", err)
	}
}
