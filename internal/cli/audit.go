package cli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// auditFile is the audit's output in a run directory.
const auditFile = rundir.AuditFile

type auditFlags struct {
	dataset, dbRoot, tables, run, out string
	corrections                       string
	dsnEnv                            string
	timeout                           time.Duration
	maxRows                           int
}

func newAuditCmd(e *env) *cobra.Command {
	var f auditFlags
	cmd := &cobra.Command{
		Use:   "audit (--dataset KIND:PATH [--db-root DIR] | --run DIR) [--out DIR]",
		Short: "Check a benchmark's gold SQL on its databases for answers the data does not determine",
		Long: `Run every gold SQL of a dataset on its SQLite database and report, with evidence:
a LIMIT cutting through rows tied on the ORDER BY keys (limit_tie), NULLs sorting first into
the rows a LIMIT keeps (nulls_first), numbers stored as text in an ORDER BY key
(text_number), a result that changes when SQLite scans backwards (reverse_scan), a gold
that fails, returns no rows or only NULLs (gold_error, gold_empty, gold_all_null), and a
question asking for names answered with ids only (id_for_name, a heuristic).

With --dataset livesql:DIR (BIRD-Interact / LiveSQLBench tasks, on the PostgreSQL server
of --dsn-env), each task's preprocess and gold run on a fresh copy of its database: a
preprocess that fails (preprocess_error), a gold that fails or, for a Query task, returns
no rows, which the official evaluator fails whatever the prediction (gold_error,
gold_empty), a DISTINCT ON the official DISTINCT stripping breaks (distinct_on_stripped),
and NOW() or CURRENT_DATE on fixed data (now_on_fixed_data).

With --run DIR (a run directory of eval), the judged systems add: consensus (most systems
agree on a result that differs from the gold's) and the order checks of every prediction
judged correct. The dataset defaults to the run's.

Writes DIR/audit.jsonl (--run DIR, else --out DIR), one finding per line: index,
question_id, db_id, check, target (gold or prediction), system, heuristic, evidence,
confidence.

--corrections FILE (corrected golds by question id, as rescore reads them) also prints
which corrected questions the audit flags and which it misses. See docs/audit.md.`,
		Example: `  nl2sqlbench audit --dataset bird:dev.json --db-root dev_databases --out runs/audit
  nl2sqlbench audit --run runs/bird-dev`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := benchrun.AuditConfig{DatasetSpec: f.dataset, DBRoot: f.dbRoot, Tables: f.tables, Timeout: f.timeout, MaxRows: f.maxRows}
			if strings.HasPrefix(strings.ToLower(f.dataset), "livesql:") {
				env := cmp.Or(f.dsnEnv, defaultPGDSNEnv)
				if cfg.TaskDSN = os.Getenv(env); cfg.TaskDSN == "" {
					return usagef("--dataset livesql: the task databases are made on PostgreSQL: $%s is not set (--dsn-env names the variable)", env)
				}
			}
			out := f.out
			if f.run != "" {
				run, err := rundir.Load(cmd.Context(), f.run)
				if err != nil {
					return err
				}
				// Its prediction checks read the records' verdicts, and it reseals the run:
				// a changed run's are not what was judged (as rescore and agreement refuse it).
				if err := run.Integrity.Err(); err != nil {
					return fmt.Errorf("audit %s: %w", f.run, err)
				}
				for _, w := range run.Warnings {
					fmt.Fprintf(e.stderr, "warning: %s\n", w)
				}
				cfg.AddRun(run)
				if out == "" {
					out = f.run
				}
			}
			if cfg.DatasetSpec == "" {
				return usagef("--dataset (or --run) is required")
			}
			if out == "" {
				return usagef("--out is required without --run: the directory audit.jsonl goes to")
			}
			if f.timeout <= 0 || f.maxRows <= 0 {
				return usagef("--timeout and --max-rows must be positive")
			}
			if f.run != "" {
				// audit.jsonl and the manifest's hash of it are written into the run (by
				// default), and its records must not change while they are read.
				lock, err := rundir.AcquireLock(f.run, "audit")
				if err != nil {
					return err
				}
				defer lock.Release()
			}
			return runAuditWith(cmd.Context(), e, cfg, out, f.corrections)
		},
	}
	fl := cmd.Flags()
	bindDatasetFlags(fl, &f.dataset, &f.dbRoot, &f.tables, dataset.KindFlagHelp(auditKinds)+"; default with --run: the run's")
	fl.StringVar(&f.run, "run", "", "run directory of eval: add the consensus and prediction checks, write audit.jsonl there")
	fl.StringVar(&f.out, "out", "", "directory to write audit.jsonl to (default with --run: the run directory)")
	fl.StringVar(&f.corrections, "corrections", "", "corrected golds by question id (JSONL, or a JSON list of {question_id, SQL}): print which the audit flags")
	fl.StringVar(&f.dsnEnv, "dsn-env", "", "livesql: datasets: environment variable holding the PostgreSQL DSN template where task databases are made (default "+defaultPGDSNEnv+"; the role needs CREATEDB)")
	fl.DurationVar(&f.timeout, "timeout", engine.DefaultTimeout, "per-query timeout")
	fl.IntVar(&f.maxRows, "max-rows", engine.DefaultMaxRows, "largest result read per query")
	return cmd
}

// runAuditWith audits, writes out/audit.jsonl and prints the counts per check, and with
// a corrections file how the findings meet the corrected golds.
func runAuditWith(ctx context.Context, e *env, cfg benchrun.AuditConfig, out, corrections string) error {
	if corrections != "" {
		// The file's form first: a bad line is reported before the audit's work.
		if _, err := review.ReadCorrections(corrections, func(string) (int, bool) { return 0, true }); err != nil {
			return fmt.Errorf("corrections: %w", err)
		}
	}
	res, ds, err := writeAudit(ctx, e, cfg, out, true)
	if err != nil || corrections == "" {
		return err
	}
	c, err := benchrun.AuditCoverage(ds, res, corrections)
	if err != nil {
		return err
	}
	return printCoverage(e, c, ds, corrections)
}

func printCoverage(e *env, c audit.Coverage, ds *dataset.Dataset, path string) error {
	w := e.stdout
	label := func(i int) string {
		if i >= 0 && i < len(ds.Questions) {
			return report.QuestionLabel(i, ds.Questions[i].ID)
		}
		return fmt.Sprintf("#%d ?", i)
	}
	fmt.Fprintf(w, "corrections %s: %d corrected golds audited (%d without a database); the audit flags %d, misses %d; %d other questions have gold findings\n",
		absPath(path), c.Corrected, c.Skipped, len(c.Flagged), len(c.Missed), c.Elsewhere)
	var flagged []int
	for i := range c.Flagged {
		flagged = append(flagged, i)
	}
	sort.Ints(flagged)
	for _, i := range flagged {
		fmt.Fprintf(w, "  flagged %s: %s\n", label(i), strings.Join(c.Flagged[i], ", "))
	}
	var missed []string
	for _, i := range c.Missed {
		missed = append(missed, label(i))
	}
	if len(missed) > 0 {
		fmt.Fprintf(w, "  missed: %s\n", strings.Join(missed, ", "))
	}
	return nil
}

// evalAudit is eval --audit: the run's systems and settings, audit.jsonl in the run
// directory; print is false under --json (stdout holds only the summary).
func evalAudit(ctx context.Context, e *env, cfg benchrun.Config, res *benchrun.Result, out string, print bool) error {
	ac := benchrun.AuditConfigOf(cfg, res)
	_, _, err := writeAudit(ctx, e, ac, out, print)
	return err
}

func writeAudit(ctx context.Context, e *env, cfg benchrun.AuditConfig, out string, print bool) (*audit.Result, *dataset.Dataset, error) {
	start := time.Now()
	res, ds, path, err := benchrun.AuditInto(ctx, cfg, out)
	if err != nil {
		return nil, nil, err
	}
	if !print {
		return res, ds, nil
	}
	return res, ds, printAudit(e, res, path, time.Since(start))
}

func printAudit(e *env, res *audit.Result, path string, took time.Duration) error {
	w := e.stdout
	counts := res.Counts()
	fmt.Fprintf(w, "audit: %d questions audited (%d without a database), %d predictions judged correct checked, %d findings in %.1fs\n",
		res.Audited, res.Skipped, res.Predictions, len(res.Findings), took.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "check\tgold\tpredictions\t\n")
	for _, c := range audit.AllChecks {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", c, counts[audit.CountKey(c, audit.TargetGold)], counts[audit.CountKey(c, audit.TargetPrediction)])
	}
	tw.Flush()
	for i, f := range res.Findings {
		if i == 10 {
			fmt.Fprintf(w, "... %d more in %s\n", len(res.Findings)-10, path)
			break
		}
		who := f.Target
		if f.System != "" {
			who += " " + f.System
		}
		fmt.Fprintf(w, "%s %s [%s, %s]: %s\n", report.QuestionLabel(f.Index, f.QuestionID), f.DBID, f.Check, who, clip(f.Evidence, 300))
	}
	_, err := fmt.Fprintf(w, "findings: %s\n", absPath(path))
	return err
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}

// auditKinds are the dataset kinds audit takes: questions with gold SQL, and livesql's
// tasks (run.Audit).
func auditKinds(k dataset.Kind) bool {
	return k.GoldSQL && (k.Load != nil || k.Name == dataset.KindLiveSQL)
}
