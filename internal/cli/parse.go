package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

// parseConfig is parse's flags: what to read (benchrun.ParseConfig) and how to print.
type parseConfig struct {
	benchrun.ParseConfig
	JSON bool
}

func newParseCmd(e *env) *cobra.Command {
	cfg := parseConfig{}
	cmd := &cobra.Command{
		Use:   "parse --dataset KIND:PATH [--pred FILE] [--json]",
		Short: "Parse each gold query (or prediction) and say which tables and columns it uses",
		Long: `Parse every question's gold SQL (the first accepted one), or with --pred the system's
prediction, as SQLite SQL, resolve each column reference to its table, and report the
tables and columns used (the gold schema, for schema-linking research).

Each database's schema is read from its SQLite file when present, else from the
dataset's tables.json (BIRD dev ships only some databases; its tables.json has all).

With --json, one JSON object per question: index, question_id, db_id, sql, parsed,
error, tables, columns ("table.column"), unresolved, ambiguous (and unknown_tables when
a FROM names a table the schema lacks). Without it, a summary and every problem.`,
		Example: `  nl2sqlbench parse --dataset bird:../shared/data/bird/dev.json --json
  nl2sqlbench parse --dataset spider:../shared/data/spider --pred ../shared/data/spider/predictions/C3.txt`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.DatasetSpec == "" {
				return usagef("--dataset is required")
			}
			return runParse(cmd.Context(), e, cfg)
		},
	}
	f := cmd.Flags()
	bindDatasetFlags(f, &cfg.DatasetSpec, &cfg.DBRoot, &cfg.Tables, dataset.KindFlagHelp(dataset.QuestionFiles))
	f.StringVar(&cfg.Pred, "pred", "", "prediction file to parse instead of the gold SQL")
	f.BoolVar(&cfg.JSON, "json", false, "print one JSON object per question on stdout")
	f.BoolVar(&cfg.AllowMissing, "allow-missing", false, "accept a prediction file that leaves questions unanswered")
	return cmd
}

func runParse(ctx context.Context, e *env, cfg parseConfig) error {
	p, err := benchrun.NewParser(ctx, cfg.ParseConfig)
	if err != nil {
		return err
	}
	ds := p.Dataset
	for _, w := range ds.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if err := p.ReadTexts(); err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	var problems []string
	c, err := p.Each(ctx, func(ln *benchrun.ParseLine) error {
		if cfg.JSON {
			return enc.Encode(ln)
		}
		if !ln.Resolved() {
			problems = append(problems, parseProblem(ln))
		}
		return nil
	})
	if err != nil || cfg.JSON {
		return err
	}
	for _, p := range problems {
		if _, err := fmt.Fprintln(e.stdout, p); err != nil {
			return err
		}
	}
	what := "gold queries"
	if cfg.Pred != "" {
		what = "predictions"
	}
	_, err = fmt.Fprintf(e.stdout, "%d questions, %d %s: %d parse (%.1f%%), %d parse with every reference resolved (%.1f%%)\n",
		c.Questions, c.Answered, what, c.Parsed, pct(c.Parsed, c.Answered), c.Resolved, pct(c.Resolved, c.Answered))
	return err
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// parseProblem is the one-line account of a question that did not parse or resolve fully.
func parseProblem(ln *benchrun.ParseLine) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d (%s, %s):", ln.Index, ln.QuestionID, ln.DBID)
	if ln.Error != "" {
		fmt.Fprintf(&b, " %s", ln.Error)
	}
	if len(ln.Unresolved) > 0 {
		fmt.Fprintf(&b, " unresolved %s", strings.Join(ln.Unresolved, ", "))
	}
	if len(ln.Ambiguous) > 0 {
		fmt.Fprintf(&b, " ambiguous %s", strings.Join(ln.Ambiguous, ", "))
	}
	if len(ln.UnknownTables) > 0 {
		fmt.Fprintf(&b, " unknown tables %s", strings.Join(ln.UnknownTables, ", "))
	}
	return b.String()
}
