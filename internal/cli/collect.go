package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

// collectOpts are the flags of `collect`.
type collectOpts struct {
	config, datasetSpec, dbRoot, tables, out string
	limit                                    int
	json                                     bool
}

func newCollectCmd(e *env) *cobra.Command {
	o := collectOpts{}
	cmd := &cobra.Command{
		Use:   "collect --config pipeline.yaml --dataset KIND:PATH --out DIR",
		Short: "Run a modular NL2SQL pipeline against an OpenAI-compatible LLM and record every module",
		Long: `Run the pipeline the config describes (schema selection, candidate generation, query
revision) on every question of the dataset, calling an OpenAI-compatible chat-completions
endpoint, and write one NL2SQLBench module record per module and question:

  DIR/records.jsonl   module records, synced per question; eval --pred reads it
  DIR/cache.jsonl     every LLM response, keyed by the full request (reruns are free)
  DIR/collect.json    what the run was collected with (a rerun must match it)

Killed or interrupted, collect resumes when rerun with the same arguments: recorded
questions are kept and no recorded request is sent again. The API key is read from the
environment variable llm.api_key_env names (default OPENAI_API_KEY).`,
		Example: `  export OPENAI_API_KEY=...
  nl2sqlbench collect --config docs/pipeline.example.yaml --dataset bird:PATH --out runs/gpt4o-mini
  nl2sqlbench eval --dataset bird:PATH --pred runs/gpt4o-mini/records.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.config == "" || o.datasetSpec == "" || o.out == "" {
				return usagef("--config, --dataset and --out are required")
			}
			return runCollect(cmd, e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.config, "config", "", "pipeline config (YAML); see docs/pipeline.example.yaml")
	f.StringVar(&o.datasetSpec, "dataset", "", "dataset as KIND:PATH (bird, spider or jsonl)")
	f.StringVar(&o.dbRoot, "db-root", "", "directory holding the databases (overrides the dataset's default)")
	f.StringVar(&o.tables, "tables", "", "tables.json schema file (overrides the dataset's default)")
	f.StringVar(&o.out, "out", "", "run directory (records.jsonl, cache.jsonl); rerun with the same one to resume")
	f.IntVar(&o.limit, "limit", 0, "collect only the first N questions (0: all)")
	f.BoolVar(&o.json, "json", false, "print the final summary as JSON on stdout")
	return cmd
}

func runCollect(cmd *cobra.Command, e *env, o collectOpts) error {
	ctx := cmd.Context()
	cfg, err := collect.LoadConfig(o.config)
	if err != nil {
		return err
	}
	ds, err := dataset.Load(ctx, o.datasetSpec, dataset.Options{DBRoot: o.dbRoot, Tables: o.tables})
	if err != nil {
		return err
	}
	for _, w := range ds.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	bar := newCollectBar(e.stderr, cfg.Pricing != nil)
	sum, err := collect.Run(ctx, collect.Options{
		Config: cfg, Dataset: ds, OutDir: o.out, Limit: o.limit,
		Log: e.stderr, Progress: bar.update,
	})
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
	for _, m := range []string{collect.NodeSchemaSelection, collect.NodeCandidate, collect.NodeRevision} {
		if t := s.Modules[m]; t != nil {
			fmt.Fprintf(w, "  %-21s %8d tokens %6d calls %9d ms\n", m, t.TotalTokens, t.LLMCalls, t.LatencyMS)
		}
	}
	fmt.Fprintf(w, "records: %s\n", s.Records)
}

// collectBar shows questions done, tokens and cost on a terminal; silent otherwise.
type collectBar struct {
	w      io.Writer
	on     bool
	priced bool
	bar    *progressbar.ProgressBar
}

func newCollectBar(stderr io.Writer, priced bool) *collectBar {
	f, ok := stderr.(*os.File)
	return &collectBar{w: stderr, priced: priced, on: ok && term.IsTerminal(int(f.Fd()))}
}

func (b *collectBar) update(p collect.Progress) {
	if !b.on {
		return
	}
	if b.bar == nil {
		b.bar = progressbar.NewOptions(p.Total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	desc := fmt.Sprintf("collecting: %d tokens", p.TotalTokens)
	if b.priced {
		desc += fmt.Sprintf(", $%.4f", p.Cost)
	}
	if p.Failed > 0 {
		desc += fmt.Sprintf(", %d failed", p.Failed)
	}
	b.bar.Describe(desc)
	_ = b.bar.Set(p.Done)
}

func (b *collectBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
	}
}
