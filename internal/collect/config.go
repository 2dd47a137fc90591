package collect

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// ErrBadConfig reports a pipeline configuration that cannot be run.
var ErrBadConfig = errors.New("bad pipeline config")

// MaxConfigFile caps a pipeline config, a prompt template or a trace file: each is
// read whole, and a FIFO or device is refused rather than waited on.
const MaxConfigFile = 16 << 20

// Strategies of each module.
const (
	SchemaFull           = "full"
	SchemaLLM            = "llm"
	SchemaPreliminarySQL = "preliminary_sql"

	GenZeroShot = "zero_shot"
	GenSampled  = "sampled"

	ReviseNone            = "none"
	ReviseExecution       = "execution_guided"
	ReviseSelfConsistency = "self_consistency"
	ReviseRetryFailed     = "retry_failed"
)

// Config is a pipeline configuration file (see docs/pipeline.example.yaml). Its outer shape
// (llm, pricing, pipeline) is fixed so scripts can write one.
type Config struct {
	LLM      LLMConfig      `yaml:"llm"`
	Pricing  *PricingConfig `yaml:"pricing"`
	Pipeline PipelineConfig `yaml:"pipeline"`
	// SecondPass turns a run into the NL2SQL++ two-pass run (the collect command runs
	// it; see internal/benchrun/twopass.go); nil or disabled: one pass.
	SecondPass *SecondPassConfig `yaml:"second_pass"`
	dir        string            // the config file's directory: prompt paths are relative to it
}

// SecondPassConfig configures the second pass of a two-pass run: the questions the first
// pass got wrong are asked again with a different prompt.
type SecondPassConfig struct {
	Enabled bool   `yaml:"enabled"`
	Prompt  string `yaml:"prompt"`  // template file overriding prompts/second_pass.tmpl
	Compare string `yaml:"compare"` // what "got wrong" means: flex (default) or ex
}

// Second-pass comparisons: the NL2SQL++ flexible comparison, or the run's execution verdict.
const (
	CompareFlex = "flex"
	CompareEX   = "ex"
)

// Dialects a pipeline writes.
const (
	DialectSQLite = "sqlite"
	DialectSQLPP  = "sqlpp"
)

// TwoPass reports whether the config asks for a two-pass run.
func (c *Config) TwoPass() bool { return c.SecondPass != nil && c.SecondPass.Enabled }

// SQLPP reports whether the pipeline writes SQL++ over exported documents.
func (c *Config) SQLPP() bool { return c.Pipeline.Dialect == DialectSQLPP }

// DocumentsDir is pipeline.documents resolved against the config file's directory.
func (c *Config) DocumentsDir() string { return c.resolve(c.Pipeline.Documents) }

// SetDir makes relative paths in c (prompt templates, pipeline.documents) relative to
// dir, as a loaded config's are to its file's directory: a matrix plan's cells, composed
// from the plan, take the plan file's.
func (c *Config) SetDir(dir string) { c.dir = dir }

// Resolve is path resolved against the config's directory (unchanged when absolute, or
// when the config has no directory: relative to the working directory).
func (c *Config) Resolve(path string) string { return c.resolve(path) }

func (c *Config) resolve(path string) string {
	if path == "" || filepath.IsAbs(path) || c.dir == "" {
		return path
	}
	return filepath.Join(c.dir, path)
}

// LLMConfig says which OpenAI-compatible endpoint to call and how.
type LLMConfig struct {
	BaseURL           string   `yaml:"base_url"`
	Model             string   `yaml:"model"`
	APIKeyEnv         string   `yaml:"api_key_env"`
	Temperature       *float64 `yaml:"temperature"`
	TopP              *float64 `yaml:"top_p"`
	MaxTokens         int      `yaml:"max_tokens"`
	Seed              *int64   `yaml:"seed"`
	Concurrency       int      `yaml:"concurrency"`
	RequestsPerMinute float64  `yaml:"requests_per_minute"`
	Timeout           Duration `yaml:"timeout"`
	MaxRetries        *int     `yaml:"max_retries"`
	RetryBase         Duration `yaml:"retry_base"`
	RetryMax          Duration `yaml:"retry_max"`
}

// PricingConfig prices the model in US dollars per 1M tokens, for the running cost estimate.
type PricingConfig struct {
	Input         float64  `yaml:"input"`
	CachedInput   float64  `yaml:"cached_input"`
	Output        float64  `yaml:"output"`
	CacheHitShare *float64 `yaml:"cache_hit_share"`
}

// PipelineConfig holds the three modules and the prompt's schema rendering.
type PipelineConfig struct {
	// Dialect is what the pipeline writes: sqlite (default: prompts carry CREATE TABLE
	// statements) or sqlpp (prompts carry document shapes sampled from Documents, and
	// queries run on the SQL++ engine). Empty means sqlite; the json tags keep the run
	// manifest's hash of a sqlite pipeline what it was before these fields existed.
	Dialect string `yaml:"dialect" json:",omitempty"`
	// Documents is the export-docs output directory (DIR/<db_id>/<table>.jsonl); required
	// for sqlpp, relative to the config file.
	Documents string `yaml:"documents" json:",omitempty"`
	// SampleDocuments is how many documents of each collection the shapes are read from
	// (default 100).
	SampleDocuments     int             `yaml:"sample_documents" json:",omitempty"`
	SampleValues        *int            `yaml:"sample_values"`
	SchemaSelection     SchemaSelection `yaml:"schema_selection"`
	CandidateGeneration CandidateGen    `yaml:"candidate_generation"`
	QueryRevision       QueryRevision   `yaml:"query_revision"`
}

// SchemaSelection configures the schema-selection module.
type SchemaSelection struct {
	Strategy string `yaml:"strategy"`
	Prompt   string `yaml:"prompt"` // template file overriding the default one
}

// CandidateGen configures candidate generation.
type CandidateGen struct {
	Strategy    string   `yaml:"strategy"`
	N           int      `yaml:"n"`
	Temperature *float64 `yaml:"temperature"`
	Prompt      string   `yaml:"prompt"`
}

// QueryRevision configures query revision.
type QueryRevision struct {
	Strategy    string   `yaml:"strategy"`
	Rounds      int      `yaml:"rounds"`
	Prompt      string   `yaml:"prompt"`
	ExecTimeout Duration `yaml:"exec_timeout"`
}

// Duration is a time.Duration written as "30s" in YAML.
type Duration struct{ time.Duration }

// UnmarshalYAML reads "30s", "500ms", or a number of seconds.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return err
	}
	if v, err := time.ParseDuration(s); err == nil {
		d.Duration = v
		return nil
	}
	var secs float64
	if err := n.Decode(&secs); err == nil && secs >= 0 {
		d.Duration = time.Duration(secs * float64(time.Second))
		return nil
	}
	return fmt.Errorf("line %d: %q is not a duration (want e.g. 30s)", n.Line, s)
}

// Defaults.
const (
	DefaultAPIKeyEnv    = "OPENAI_API_KEY"
	DefaultBaseURL      = "https://api.openai.com/v1"
	defaultConcurrency  = 4
	defaultMaxRetries   = 6
	defaultTimeout      = 120 * time.Second
	defaultRetryBase    = time.Second
	defaultRetryMax     = time.Minute
	defaultSampleValues = 3
	defaultRounds       = 2
	defaultSamples      = 5
	defaultSampleTemp   = 0.8
	defaultSampleDocs   = 100
)

// LoadConfig reads and checks a pipeline config file.
func LoadConfig(path string) (*Config, error) {
	data, err := safefile.ReadFile(path, MaxConfigFile)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.dir = filepath.Dir(path)
	if err := c.checkFiles(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// checkFiles checks the directories and files the config names (relative to the config
// file), so a typo fails now rather than after the first pass.
func (c *Config) checkFiles() error {
	if c.SQLPP() {
		dir := c.DocumentsDir()
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("pipeline.documents %s: not a directory (give the export-docs --out directory): %w", dir, ErrBadConfig)
		}
	}
	if c.TwoPass() && c.SecondPass.Prompt != "" {
		p := c.resolve(c.SecondPass.Prompt)
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("second_pass.prompt %s: %v: %w", p, errors.Unwrap(err), ErrBadConfig)
		}
	}
	return nil
}

// ParseConfig reads a config from YAML, fills in defaults and checks it. Unknown keys are
// errors (a misspelt key would otherwise be silently ignored).
func ParseConfig(data []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrBadConfig)
	}
	if err := c.normalise(); err != nil {
		return nil, err
	}
	return &c, nil
}

func (c *Config) normalise() error {
	l := &c.LLM
	if l.Model == "" {
		return fmt.Errorf("llm.model is required: %w", ErrBadConfig)
	}
	if l.BaseURL == "" {
		l.BaseURL = DefaultBaseURL
	}
	if l.APIKeyEnv == "" {
		l.APIKeyEnv = DefaultAPIKeyEnv
	}
	if l.Concurrency == 0 {
		l.Concurrency = defaultConcurrency
	}
	if l.Timeout.Duration == 0 {
		l.Timeout.Duration = defaultTimeout
	}
	if l.MaxRetries == nil {
		n := defaultMaxRetries
		l.MaxRetries = &n
	}
	if l.RetryBase.Duration == 0 {
		l.RetryBase.Duration = defaultRetryBase
	}
	if l.RetryMax.Duration == 0 {
		l.RetryMax.Duration = defaultRetryMax
	}
	switch {
	case l.Concurrency < 0:
		return fmt.Errorf("llm.concurrency %d is negative: %w", l.Concurrency, ErrBadConfig)
	case l.RequestsPerMinute < 0 || math.IsNaN(l.RequestsPerMinute):
		return fmt.Errorf("llm.requests_per_minute %v is negative: %w", l.RequestsPerMinute, ErrBadConfig)
	case l.MaxTokens < 0:
		return fmt.Errorf("llm.max_tokens %d is negative: %w", l.MaxTokens, ErrBadConfig)
	case *l.MaxRetries < 0:
		return fmt.Errorf("llm.max_retries %d is negative: %w", *l.MaxRetries, ErrBadConfig)
	case l.Temperature != nil && (*l.Temperature < 0 || *l.Temperature > 2):
		return fmt.Errorf("llm.temperature %v is not between 0 and 2: %w", *l.Temperature, ErrBadConfig)
	case l.TopP != nil && (*l.TopP <= 0 || *l.TopP > 1):
		return fmt.Errorf("llm.top_p %v is not in (0, 1]: %w", *l.TopP, ErrBadConfig)
	}
	if p := c.Pricing; p != nil {
		if err := metrics.CheckPrices(p.Input, p.CachedInput, p.Output); err != nil {
			return fmt.Errorf("pricing: %v: %w", err, ErrBadConfig)
		}
		if s := p.CacheHitShare; s != nil && (*s < 0 || *s > 1 || math.IsNaN(*s)) {
			return fmt.Errorf("pricing.cache_hit_share %v is not between 0 and 1: %w", *s, ErrBadConfig)
		}
	}
	pl := &c.Pipeline
	switch pl.Dialect {
	case "", DialectSQLite:
		pl.Dialect = ""
		if pl.Documents != "" {
			return fmt.Errorf("pipeline.documents is set but pipeline.dialect is sqlite (documents are for dialect sqlpp): %w", ErrBadConfig)
		}
	case DialectSQLPP:
		if pl.Documents == "" {
			return fmt.Errorf("pipeline.dialect sqlpp needs pipeline.documents, the export-docs output directory: %w", ErrBadConfig)
		}
	default:
		return fmt.Errorf("pipeline.dialect %q: want one of sqlite, sqlpp: %w", pl.Dialect, ErrBadConfig)
	}
	if pl.SampleDocuments < 0 {
		return fmt.Errorf("pipeline.sample_documents %d is negative: %w", pl.SampleDocuments, ErrBadConfig)
	}
	if sp := c.SecondPass; sp != nil {
		if sp.Compare == "" {
			sp.Compare = CompareFlex
		}
		if err := oneOf("second_pass.compare", sp.Compare, CompareFlex, CompareEX); err != nil {
			return err
		}
	}
	if pl.SampleValues == nil {
		n := defaultSampleValues
		pl.SampleValues = &n
	} else if *pl.SampleValues < 0 {
		return fmt.Errorf("pipeline.sample_values %d is negative: %w", *pl.SampleValues, ErrBadConfig)
	}
	ss := &pl.SchemaSelection
	if ss.Strategy == "" {
		ss.Strategy = SchemaFull
	}
	if err := oneOf("pipeline.schema_selection.strategy", ss.Strategy, SchemaFull, SchemaLLM, SchemaPreliminarySQL); err != nil {
		return err
	}
	cg := &pl.CandidateGeneration
	if cg.Strategy == "" {
		cg.Strategy = GenZeroShot
	}
	if err := oneOf("pipeline.candidate_generation.strategy", cg.Strategy, GenZeroShot, GenSampled); err != nil {
		return err
	}
	switch cg.Strategy {
	case GenZeroShot:
		if cg.N > 1 {
			return fmt.Errorf("pipeline.candidate_generation.n is %d but zero_shot makes one candidate (use sampled): %w", cg.N, ErrBadConfig)
		}
		cg.N = 1
	case GenSampled:
		if cg.N == 0 {
			cg.N = defaultSamples
		}
		if cg.N < 1 || cg.N > 128 {
			return fmt.Errorf("pipeline.candidate_generation.n %d is not between 1 and 128: %w", cg.N, ErrBadConfig)
		}
		if cg.Temperature == nil {
			t := defaultSampleTemp
			cg.Temperature = &t
		}
	}
	if t := cg.Temperature; t != nil && (*t < 0 || *t > 2) {
		return fmt.Errorf("pipeline.candidate_generation.temperature %v is not between 0 and 2: %w", *t, ErrBadConfig)
	}
	qr := &pl.QueryRevision
	if qr.Strategy == "" {
		qr.Strategy = ReviseNone
	}
	if err := oneOf("pipeline.query_revision.strategy", qr.Strategy, ReviseNone, ReviseExecution, ReviseSelfConsistency, ReviseRetryFailed); err != nil {
		return err
	}
	if qr.Rounds < 0 {
		return fmt.Errorf("pipeline.query_revision.rounds %d is negative: %w", qr.Rounds, ErrBadConfig)
	}
	if qr.Rounds == 0 {
		qr.Rounds = defaultRounds
		if qr.Strategy == ReviseRetryFailed {
			qr.Rounds = 1
		}
	}
	if qr.ExecTimeout.Duration == 0 {
		qr.ExecTimeout.Duration = engine.DefaultTimeout
	}
	if qr.Strategy == ReviseSelfConsistency && cg.N < 2 {
		return fmt.Errorf("pipeline.query_revision.strategy self_consistency needs several candidates (candidate_generation: sampled, n >= 2): %w", ErrBadConfig)
	}
	return nil
}

func oneOf(key, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("%s %q: want one of %s: %w", key, v, strings.Join(allowed, ", "), ErrBadConfig)
}

// price is the model's price, nil when the config gives none.
func (c *Config) price() (*metrics.ModelPrice, float64) {
	if c.Pricing == nil {
		return nil, 0
	}
	share := metrics.DefaultCacheHitShare
	if c.Pricing.CacheHitShare != nil {
		share = *c.Pricing.CacheHitShare
	}
	return &metrics.ModelPrice{Input: c.Pricing.Input, CachedInput: c.Pricing.CachedInput, Output: c.Pricing.Output}, share
}

// Cost is the estimated dollar cost of the tokens, 0 without pricing.
func (c *Config) Cost(prompt, completion int) float64 {
	p, share := c.price()
	if p == nil {
		return 0
	}
	return p.Cost(prompt, completion, share)
}
