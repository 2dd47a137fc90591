package cli

import (
	"fmt"
	"io"
	"math"

	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/llmjudge"
)

// eval --llm-judge (docs/llm-judge.md): the judge's flags, and the judge built from them
// once the run directory is known (its answers are cached there).

// llmJudgeFlags are the --llm-judge flags; Config "" means no judge.
type llmJudgeFlags struct {
	Config  string  // collect's endpoint config (llm, pricing)
	Prompt  string  // a text/template replacing the default prompt
	On      string  // disputed or all
	MaxCost float64 // dollars this invocation may spend; 0: no cap
}

func bindLLMJudge(f *pflag.FlagSet, j *llmJudgeFlags) {
	f.StringVar(&j.Config, "llm-judge", "", "ask an LLM judge about the chosen records: CONFIG is collect's endpoint config (llm, pricing; docs/llm-judge.md); never taken from args.json on --resume")
	f.StringVar(&j.On, "llm-judge-on", llmjudge.OnDisputed, "which records the judge sees: disputed (an execution error, EX and ETM disagree, ts_ex refuted EX, or an audit finding on the gold) or all")
	f.StringVar(&j.Prompt, "llm-judge-prompt", "", "a text/template file replacing the judge's prompt (default: internal/llmjudge/prompts/judge.tmpl); its sha256 goes into the manifest")
	f.Float64Var(&j.MaxCost, "llm-judge-max-cost", 0, "stop the run cleanly once this invocation's judge calls cost this many dollars (needs pricing in the config; cached answers are free; --resume continues); 0 = no cap")
}

// check refuses judge flags given without --llm-judge.
func (j *llmJudgeFlags) check(fs *pflag.FlagSet) error {
	if j.Config != "" {
		if j.On != llmjudge.OnDisputed && j.On != llmjudge.OnAll {
			return usagef("--llm-judge-on %q: want disputed or all", j.On)
		}
		if j.MaxCost < 0 || math.IsNaN(j.MaxCost) || math.IsInf(j.MaxCost, 0) {
			return usagef("--llm-judge-max-cost must be a dollar amount, 0 or more (got %v)", j.MaxCost)
		}
		return nil
	}
	for _, name := range []string{"llm-judge-on", "llm-judge-prompt", "llm-judge-max-cost"} {
		if fs.Changed(name) {
			return usagef("--%s needs --llm-judge CONFIG", name)
		}
	}
	return nil
}

// build makes the judge for the run directory dir (benchrun.NewLLMJudge).
func (j *llmJudgeFlags) build(dir string, cfg benchrun.Config) (*llmjudge.Judge, error) {
	return benchrun.NewLLMJudge(dir, cfg, benchrun.LLMJudgeSpec{Config: j.Config, Prompt: j.Prompt, On: j.On, MaxCost: j.MaxCost})
}

// printJudgeStats says what the judge did in this invocation (on stderr: stdout may be JSON).
func printJudgeStats(w io.Writer, j *llmjudge.Judge) {
	s := j.Stats()
	fmt.Fprintf(w, "llm judge: asked about %s (%d answered from the cache): %d judged, %d unjudged (answer did not parse); %s, %d prompt + %d completion tokens, $%.6f\n",
		plural(s.Asked, "record"), s.Cached, s.Judged, s.Unjudged, plural(s.Calls, "new call"), s.PromptTokens, s.CompletionTokens, s.Cost)
}
