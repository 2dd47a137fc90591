package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
)

func newGenLargeCmd(e *env) *cobra.Command {
	var out string
	var rows int
	cmd := &cobra.Command{
		Use:     "gen-large --out DIR [--rows N]",
		Example: `  nl2sqlbench gen-large --out /tmp/large --rows 100000`,
		Short:   "Write a large synthetic benchmark for VES and R-VES",
		Long: `Write a synthetic shop database (customers, orders, items; N rows in all, split 1:3:6)
twice, with and without secondary indexes, and a benchmark over it:

  DIR/shop_idx/shop_idx.sqlite, DIR/shop_noidx/shop_noidx.sqlite
  DIR/questions.jsonl   questions with gold SQL (difficulty: index / noindex)
  DIR/fast.txt          correct predictions written the fast way
  DIR/slow.txt          correct predictions written the slow way (COUNT(pk) vs COUNT(*),
                        ORDER BY ... LIMIT 1 vs MAX, correlated EXISTS vs IN)

Judge them with: eval --dataset jsonl:DIR/questions.jsonl --pred DIR/fast.txt --pred DIR/slow.txt --ves`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usagef("--out is required")
			}
			if err := demo.GenerateLarge(cmd.Context(), out, rows); err != nil {
				return err
			}
			_, err := fmt.Fprintf(e.stdout, "wrote %d rows x %d databases under %s\n", rows, len(demo.LargeDBs), out)
			return err
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory to write")
	cmd.Flags().IntVar(&rows, "rows", 5_000_000, "rows over the three tables")
	return cmd
}
