package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// collectOpts are the flags of `collect`.
type collectOpts struct {
	config, datasetSpec, dbRoot, tables, out string
	limit                                    int
	shard                                    string // --shard INDEX/COUNT or auto (shard.go)
	json                                     bool
	engines                                  engineOpts // where the pipeline's queries (and two-pass evals) run
	liveSQLMode, taskCode                    string     // task datasets: how the turns are judged
}

func newCollectCmd(e *env) *cobra.Command {
	o := collectOpts{}
	cmd := &cobra.Command{
		Use:   "collect --config pipeline.yaml --dataset KIND:PATH --out DIR",
		Short: "Run a modular NL2SQL pipeline against an OpenAI-compatible LLM and record every module",
		Long: `Run the pipeline the config describes (schema selection, candidate generation, query
revision) on every question of the dataset, calling an OpenAI-compatible chat-completions
endpoint, and write one NL2SQLBench module record per module and question:

  DIR/modules.jsonl   module records, synced per question; eval --pred reads it
  DIR/cache.jsonl     every LLM response, keyed by the full request (reruns are free)
  DIR/collect.json    what the run was collected with (a rerun must match it)

modules.jsonl is not eval's records.jsonl: eval writes OUT/<system>/records.jsonl, one judged
record per question, from the module records.

With pipeline.dialect sqlpp the prompts carry document shapes sampled from the export-docs
directory pipeline.documents, and queries run on Couchbase (--engine sqlpp, --sqlpp-endpoint,
--sqlpp-bucket). With second_pass.enabled the run has two passes (the NL2SQL++ benchmark's):

  DIR/pass1/          pass 1 on every question (a run directory as above)
  DIR/pass1/eval/     pass 1 judged (flexible comparison; gold SQL on SQLite)
  DIR/pass2/          pass 2, a different prompt, on the questions pass 1 got wrong
  DIR/modules.jsonl   the final module records: pass 2's replace pass 1's where retried ("pass": 1|2)
  DIR/eval/           the final module records judged (eval's DIR/eval/final/records.jsonl)
  DIR/two_pass.json   first-pass accuracy, retried, recovered, gain, final accuracy, tokens

Killed or interrupted, collect resumes when rerun with the same arguments: recorded
questions are kept and no recorded request is sent again. A directory written by an older
version, whose module records are named records.jsonl, resumes too: collect renames the file
to modules.jsonl and says so on stderr. The API key is read from the environment variable
llm.api_key_env names (default OPENAI_API_KEY).`,
		Example: `  export OPENAI_API_KEY=...
  nl2sqlbench collect --config docs/pipeline.example.yaml --dataset bird:PATH --out runs/gpt4o-mini
  nl2sqlbench eval --dataset bird:PATH --pred gpt4o-mini=runs/gpt4o-mini/modules.jsonl
  # NL2SQL++: SQL++ over documents exported with export-docs, on a Couchbase cluster
  nl2sqlbench collect --config sqlpp.yaml --dataset bird:PATH --out runs/sqlpp \
      --engine sqlpp --sqlpp-endpoint http://localhost:8093 --sqlpp-bucket bird --sqlpp-user admin`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.config == "" || o.datasetSpec == "" || o.out == "" {
				return usagef("--config, --dataset and --out are required")
			}
			if err := o.engines.Check(); err != nil {
				return err
			}
			if benchrun.IsTaskDataset(o.datasetSpec) {
				return runTaskCollect(cmd.Context(), e, o)
			}
			if o.engines.Engine != engineSQLite && o.engines.Engine != engineSQLPP {
				return usagef("--engine %s: collect runs its queries on sqlite or sqlpp", o.engines.Engine)
			}
			return runCollect(cmd, e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.config, "config", "", "pipeline config (YAML); see docs/pipeline.example.yaml")
	bindDatasetFlags(f, &o.datasetSpec, &o.dbRoot, &o.tables, dataset.KindFlagHelp(dataset.QuestionFiles))
	f.StringVar(&o.out, "out", "", "run directory (modules.jsonl, cache.jsonl); rerun with the same one to resume")
	f.IntVar(&o.limit, "limit", 0, "collect only the first N questions (0: all)")
	f.StringVar(&o.shard, "shard", "", shardUsage)
	f.BoolVar(&o.json, "json", false, "print the final summary as JSON on stdout")
	bindEngineFlags(f, &o.engines)
	f.StringVar(&o.liveSQLMode, "livesql-mode", "official", "task datasets (livesql:DIR, evalbench:DIR): how the turns are judged, as eval's --livesql-mode")
	f.StringVar(&o.taskCode, "task-code", "", "task datasets: python runs the tasks' Python test cases in the sandbox, as eval's --task-code")
	return cmd
}

// runTaskCollect asks a task dataset's turns (benchrun.CollectTasks: the first turns,
// judged, then the follow-ups of those that passed) and prints what became of them.
func runTaskCollect(ctx context.Context, e *env, o collectOpts) error {
	tc, err := benchrun.OpenCollectTasks(ctx, benchrun.CollectConfig{ConfigPath: o.config, DatasetSpec: o.datasetSpec,
		Limit: o.limit, ShardArg: o.shard, Engines: &o.engines, Log: e.stderr})
	if err != nil {
		return err
	}
	eval := evalConfig{Config: benchrun.Config{DatasetSpec: o.datasetSpec, LiveSQLMode: o.liveSQLMode, TaskCode: o.taskCode}, Engines: o.engines}
	rep, err := benchrun.CollectTasks(ctx, o.out, tc, eval.runConfig(), "final", twoPassIO{runPrinter: runPrinter{stderr: e.stderr}, e: e, json: o.json, labels: []string{"first turns", "follow-ups"}})
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	w := e.stdout
	fmt.Fprintf(w, "\n%d tasks: first turn %d correct of %d judged", rep.Tasks, rep.FirstCorrect, rep.FirstJudged)
	if rep.Kind == dataset.KindLiveSQL {
		fmt.Fprintf(w, "; follow-ups asked %d (after a first turn passed), %d correct", rep.FollowUpsAsked, rep.FollowUpsCorrect)
		if rep.MeanReward != nil {
			fmt.Fprintf(w, "; mean reward %.3f", *rep.MeanReward)
		}
	}
	fmt.Fprintf(w, "\ntokens: first turns %d (%d calls), follow-ups %d (%d calls)\n", rep.Turn1.TotalTokens, rep.Turn1.LLMCalls, rep.FollowUp.TotalTokens, rep.FollowUp.LLMCalls)
	fmt.Fprintf(w, "predictions: %s; judged: %s; report: %s\n", rep.Predictions, rep.Eval, filepath.Join(o.out, benchrun.TaskReportFile))
	return nil
}

func runCollect(cmd *cobra.Command, e *env, o collectOpts) error {
	ctx := cmd.Context()
	base, closeEngine, err := benchrun.OpenCollect(ctx, benchrun.CollectConfig{ConfigPath: o.config, DatasetSpec: o.datasetSpec,
		DBRoot: o.dbRoot, Tables: o.tables, Limit: o.limit, ShardArg: o.shard, Getenv: os.Getenv, Engines: &o.engines, Log: e.stderr,
		Warn: func(w string) { fmt.Fprintf(e.stderr, "warning: %s\n", w) }})
	if err != nil {
		return err
	}
	defer closeEngine()
	cfg := base.Config
	if cfg.TwoPass() {
		return runTwoPass(ctx, e, o, base)
	}
	bar := newCollectBar(e.stderr, cfg.Pricing != nil)
	opt := base
	opt.OutDir, opt.Progress = o.out, bar.update
	sum, err := collect.Run(ctx, opt)
	bar.finish()
	if sum != nil {
		if o.json {
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			if jerr := enc.Encode(sum); jerr != nil && err == nil {
				err = jerr
			}
		} else {
			printCollectSummary(e.stdout, sum)
		}
	}
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		return fmt.Errorf("%d question(s) failed (see above); rerun the same command to retry them", sum.Failed)
	}
	return nil
}

func printCollectSummary(w io.Writer, s *collect.Summary) {
	fmt.Fprintf(w, "questions %d: %d collected now, %d resumed, %d failed\n", s.Questions, s.Collected, s.Resumed, s.Failed)
	fmt.Fprintf(w, "HTTP requests %d (%d retries), cache hits %d\n", s.Requests, s.Retries, s.CacheHits)
	fmt.Fprintf(w, "tokens: %d prompt + %d completion = %d", s.PromptTokens, s.CompletionTokens, s.TotalTokens)
	if s.Priced {
		fmt.Fprintf(w, ", estimated cost $%.4f", s.Cost)
	}
	fmt.Fprintln(w)
	for _, m := range []string{predict.NodeSchemaSelection, predict.NodeCandidateGeneration, predict.NodeQueryRevision} {
		if t := s.Modules[m]; t != nil {
			fmt.Fprintf(w, "  %-21s %8d tokens %6d calls %9d ms\n", m, t.TotalTokens, t.LLMCalls, t.LatencyMS)
		}
	}
	fmt.Fprintf(w, "records: %s\n", s.Records)
}

// runTwoPass runs the NL2SQL++ two-pass pipeline (benchrun.TwoPass) into o.out, judging
// with o's engine flags (it writes two_pass.json), and prints it.
func runTwoPass(ctx context.Context, e *env, o collectOpts, base collect.Options) error {
	eval := evalConfig{Config: benchrun.Config{DatasetSpec: o.datasetSpec, DBRoot: o.dbRoot, Tables: o.tables, Shard: base.Shard}, Engines: o.engines}
	rep, err := benchrun.TwoPass(ctx, o.out, base, eval.runConfig(), twoPassIO{runPrinter: runPrinter{stderr: e.stderr}, e: e, json: o.json})
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printTwoPass(e.stdout, rep, o.out)
	return nil
}

// twoPassIO shows a two-pass run: each collect pass's progress bar and summary block,
// and the judged passes' phases and warnings (runPrinter).
type twoPassIO struct {
	runPrinter
	e      *env
	json   bool
	labels []string // each pass's name in the summary ("": pass N)
}

var _ benchrun.PassObserver = twoPassIO{}

// CollectPass draws pass n's progress bar, then prints its summary block.
func (p twoPassIO) CollectPass(n int, priced bool) (func(collect.Progress), func(*collect.Summary)) {
	bar := newCollectBar(p.e.stderr, priced)
	return bar.update, func(sum *collect.Summary) {
		bar.finish()
		if sum != nil && !p.json {
			if n <= len(p.labels) {
				fmt.Fprintf(p.e.stdout, "%s:\n", p.labels[n-1])
			} else {
				fmt.Fprintf(p.e.stdout, "pass %d:\n", n)
			}
			printCollectSummary(p.e.stdout, sum)
		}
	}
}

func printTwoPass(w io.Writer, r *benchrun.TwoPassReport, out string) {
	fmt.Fprintf(w, "\ntwo-pass run (compare %s) on %d judged questions\n", r.Compare, r.Questions)
	fmt.Fprintf(w, "  %-7s %-34s %10s\n", "", "", "tokens")
	fmt.Fprintf(w, "  %-7s %-34s %10d\n", "pass 1", fmt.Sprintf("correct %d (%.2f%%)", r.FirstCorrect, r.FirstAccuracy), r.Pass1.TotalTokens)
	fmt.Fprintf(w, "  %-7s %-34s %10d\n", "pass 2", fmt.Sprintf("retried %d, recovered %d", r.Retried, r.Recovered), r.Pass2.TotalTokens)
	fmt.Fprintf(w, "  %-7s %-34s %10d\n", "final", fmt.Sprintf("correct %d (%.2f%%, %+.2f points)", r.FinalCorrect, r.FinalAccuracy, r.GainPoints), r.Pass1.TotalTokens+r.Pass2.TotalTokens)
	fmt.Fprintf(w, "records: %s; judged: %s; report: %s\n", r.Records, filepath.Join(out, benchrun.EvalDir), filepath.Join(out, benchrun.TwoPassFile))
}

// collectBar shows the collecting phase like every phase of a run (progress.go): a bar
// on a terminal, a line every few seconds elsewhere, with the tokens, cost and failures
// so far beside done/total.
type collectBar struct {
	p      *progress
	priced bool
}

func newCollectBar(stderr io.Writer, priced bool) *collectBar {
	return &collectBar{p: newProgress(stderr, "collecting", progressDelay, progressEvery), priced: priced}
}

func (b *collectBar) update(p collect.Progress) {
	note := fmt.Sprintf("%d tokens", p.TotalTokens)
	if b.priced {
		note += fmt.Sprintf(", $%.4f", p.Cost)
	}
	if p.Failed > 0 {
		note += fmt.Sprintf(", %d failed", p.Failed)
	}
	b.p.setNote(note)
	b.p.Update(p.Done, p.Total)
}

func (b *collectBar) finish() { b.p.Finish() }
