package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
)

// mergeOpts are the flags of merge.
type mergeOpts struct {
	out             string
	json            bool
	allowMixedHosts bool
}

func newMergeCmd(e *env) *cobra.Command {
	o := mergeOpts{}
	cmd := &cobra.Command{
		Use:   "merge SHARD_DIR... --out DIR",
		Short: "Combine the run directories of eval --shard into the run one process would have written",
		Long: `Check that the run directories are the shards of one sharded eval and write the whole run
into --out: every system's records in dataset order, statistics.json and summary.json
computed exactly as a single eval computes them, and a manifest.json naming the shards
(merged_from).

Refused, naming the directory and the difference: a directory that is not a shard run or
did not finish (no summary.json); a shard whose manifest differs from the others' (build,
settings, dataset, tables or prediction files); a shard given twice; a shard of another
split; a missing shard (each named with its databases and question indexes); a dataset or
prediction file changed since the shards ran (merge reads them again). Shards that timed
VES on different hosts are refused unless --allow-mixed-hosts: times from different
machines are not comparable. --out must be absent or empty.`,
		Example: `  for i in 0 1 2; do
    nl2sqlbench eval --dataset spider:../shared/data/spider --pred DAIL=DAIL.txt --shard $i/3 --out runs/s$i
  done
  nl2sqlbench merge runs/s0 runs/s1 runs/s2 --out runs/spider-dev`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			if o.out == "" {
				return usagef("--out is required")
			}
			return runMerge(cmd, e, dirs, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "directory for the merged run (absent or empty)")
	f.BoolVar(&o.json, "json", false, "print the merged summary as JSON on stdout (and nothing else)")
	f.BoolVar(&o.allowMixedHosts, "allow-mixed-hosts", false, "merge VES timings measured on different hosts (not comparable; the summary warns)")
	return cmd
}

func runMerge(cmd *cobra.Command, e *env, dirs []string, o mergeOpts) error {
	res, err := benchrun.MergeInto(cmd.Context(), dirs, o.out, benchrun.MergeOptions{AllowMixedHosts: o.allowMixedHosts})
	if err != nil {
		return err
	}
	sum := res.Summary
	if o.json {
		return report.WriteJSON(e.stdout, sum)
	}
	if err := report.WriteDetails(e.stdout, sum); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "\n%s merged from %s; run directory: %s\n", plural(sum.Dataset.Questions, "question"), plural(len(dirs), "shard"), o.out)
	return err
}
