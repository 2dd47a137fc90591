package benchrun

import (
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/llmjudge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// LLMJudgeSpec is eval --llm-judge's: collect's endpoint config, the prompt template
// ("": the default), which records the judge sees, and the dollars it may spend.
type LLMJudgeSpec struct {
	Config, Prompt, On string
	MaxCost            float64
}

// NewLLMJudge makes the LLM judge of a run written in dir, its cache there, querying
// with the run's limits; a bad config or prompt matches ErrConfig, naming its flag.
func NewLLMJudge(dir string, cfg Config, spec LLMJudgeSpec) (*llmjudge.Judge, error) {
	c, err := collect.LoadConfig(spec.Config)
	if err != nil {
		return nil, configf("--llm-judge: %v", err)
	}
	prompt, err := llmjudge.LoadPrompt(spec.Prompt)
	if err != nil {
		return nil, configf("--llm-judge-prompt: %v", err)
	}
	client, err := collect.NewOpenAIClient(c.LLM, os.Getenv, nil)
	if err != nil {
		return nil, configf("--llm-judge: %v", err)
	}
	lim := engine.Limits{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows, MaxBytes: cfg.MaxResultBytes}
	jd, err := llmjudge.New(c, client, prompt, nil, llmjudge.Options{On: spec.On, MaxCost: spec.MaxCost, Limits: lim,
		CachePath: filepath.Join(dir, rundir.LLMJudgeCacheFile)})
	if err != nil {
		return nil, configf("%v", err)
	}
	return jd, nil
}
