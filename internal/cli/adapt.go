package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// This file holds the result-collecting adapters (`nl2sqlbench adapt SYSTEM`) and the
// module-metric flags of eval: --pass-k and --pricing, checked when the flags are parsed
// so a mistake is reported before any judging.

// passKFlag is --pass-k: a comma-separated list of positive k.
type passKFlag []int

func (p *passKFlag) String() string {
	parts := make([]string, len(*p))
	for i, k := range *p {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ",")
}

func (p *passKFlag) Set(s string) error {
	ks, err := metrics.ParsePassK(s)
	if err != nil {
		return err
	}
	*p = ks
	return nil
}

func (p *passKFlag) Type() string { return "k,k,..." }

// pricingFlag is --pricing FILE: read and checked at parse time.
type pricingFlag struct {
	path    string
	pricing *metrics.Pricing
}

func (p *pricingFlag) String() string { return p.path }

func (p *pricingFlag) Set(path string) error {
	b, err := inputfile.Read(path)
	if err != nil {
		return fmt.Errorf("pricing: %w", err)
	}
	pr, err := metrics.ParsePricing(b)
	if err != nil {
		return fmt.Errorf("pricing %s: %w", path, err)
	}
	p.path, p.pricing = path, pr
	return nil
}

func (p *pricingFlag) Type() string { return "FILE" }

// adaptConfig is what `adapt` needs.
type adaptConfig struct {
	Traces, DatasetSpec, DBRoot, Tables, Out string
}

func newAdaptCmd(e *env) *cobra.Command {
	cfg := adaptConfig{}
	cmd := &cobra.Command{
		Use:   "adapt SYSTEM --traces DIR --dataset KIND:PATH --out FILE",
		Short: "Turn a real system's cached outputs into NL2SQLBench module records",
		Long: `Read what a multi-stage NL2SQL system left behind and write its module records
(schema_selection, candidate_generation, ...), one JSON object per line, for eval --pred.

Systems:
  ta-sql   TA-SQL's cached LLM responses, <n>_<db_id>_<question_id>_<stage>_<sha256>.json:
           schema selection from the dummy_sql stage (the tables and columns it uses),
           candidate generation from tmp_sql. Token counts are not in the traces (unknown).`,
		Example: `  nl2sqlbench adapt ta-sql --traces ../shared/data/bird/traces/ta-sql-gpt-4o-mini \
      --dataset bird:../shared/data/bird/mini_dev_sqlite.json --out runs/ta-sql.jsonl
  nl2sqlbench eval --dataset bird:../shared/data/bird/mini_dev_sqlite.json --pred TA-SQL=runs/ta-sql.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "ta-sql" {
				return usagef("adapt: unknown system %q (known: ta-sql)", args[0])
			}
			if cfg.Traces == "" || cfg.DatasetSpec == "" || cfg.Out == "" {
				return usagef("adapt: --traces, --dataset and --out are required")
			}
			return adaptTASQL(cmd.Context(), e, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Traces, "traces", "", "directory of the system's cached outputs")
	bindDatasetFlags(f, &cfg.DatasetSpec, &cfg.DBRoot, &cfg.Tables, "dataset as KIND:PATH (the questions the traces answer)")
	f.StringVar(&cfg.Out, "out", "", "module records file to write (JSONL)")
	return cmd
}

func adaptTASQL(ctx context.Context, e *env, cfg adaptConfig) error {
	nodes, st, err := benchrun.AdaptTASQL(ctx, cfg.Traces, cfg.DatasetSpec, cfg.DBRoot, cfg.Tables, cfg.Out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %d module records for %d questions (%d trace files) to %s\nschema selection from parsed dummy SQL: %d, from lexical match (dummy SQL did not parse): %d; SELECT put back on %d generated SQL\ntoken counts are not in the traces: token_cost is left unset (unknown)\n",
		len(nodes), st.Questions, st.Files, cfg.Out, st.SchemaParsed, st.SchemaLexical, st.PrefixedSelect)
	return err
}
