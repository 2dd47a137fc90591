package benchrun

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/slicing"
)

// SystemRecords is one system's judged records, for the summary.
type SystemRecords struct {
	Name    string
	Dir     string // its directory in the run directory; "" = record.SystemDir(Name)
	Records []record.Record
}

// Summarize builds summary.json from every system's judged records (systems in
// cfg.Preds order): what was judged and how, every system's scores, and the sections
// later metrics add. A new section is a line here. Its warnings are the dataset's
// followed by which questions were left out of the rates and why. Per-module usage is
// re-read from each --pred file that holds module nodes (records carry only end-to-end
// usage).
func Summarize(ctx context.Context, cfg Config, st Settings, ds *dataset.Dataset, systems []SystemRecords) *rundir.Summary {
	sem := st.Semantics
	sum := &rundir.Summary{
		Tool:      "nl2sqlbench",
		CreatedAt: time.Now().UTC().Truncate(time.Second),
		Dataset:   rundir.DatasetInfo{Kind: ds.Kind, Path: ds.Path, DBRoot: ds.DBRoot, Questions: len(ds.Questions)},
		Settings: rundir.Settings{Semantics: string(sem), TimeoutS: cfg.Timeout.Seconds(), MaxRows: cfg.MaxRows, Workers: cfg.Workers,
			Engine: cfg.Engine, GoldEngine: cfg.GoldEngine, DBIDs: cfg.DBIDs, Metrics: st.metricsSetting()},
		Warnings: append([]string(nil), ds.Warnings...),
	}
	// Only the chosen metrics' sections (eval --metrics, selection.go): a section of a
	// metric that was not computed would read as zeros.
	sel, need := st.Selection, st.Needs
	srs := make([]metrics.SystemRecords, len(systems))
	usage := make([]map[string]map[string]record.Usage, len(systems))
	for i, s := range systems {
		// Split by difficulty once, for every section below.
		srs[i] = metrics.SplitByDifficulty(metrics.SystemRecords{Name: s.Name, Records: s.Records})
		if i < len(cfg.Preds) {
			_, path := splitPredSpec(cfg.Preds[i])
			if u, ok, err := predict.ModuleUsage(path); err == nil && ok {
				usage[i] = u
			}
		}
	}
	// The sections are pure functions of the records, each written to its own field:
	// they run side by side, so the summary takes the time of its longest branch (the
	// bootstrap intervals and paired tests).
	var facts map[int]slicing.Facts // each question's gold SQL parsed, for the slices
	var g errgroup.Group
	g.Go(func() error {
		declared := sel.Filter(metrics.Declared(cfg.metricOptions()))
		sum.Metrics = metrics.Aggregate(declared, srs)
		if len(srs) > 1 {
			sum.Paired = metrics.Paired(declared, sum.Metrics, srs)
			sum.VsBest = metrics.VsBest(declared, sum.Metrics, sum.Paired)
		}
		return nil
	})
	g.Go(func() error {
		for i, s := range systems {
			ms := metrics.Summarize(srs[i])
			ms.Dir = s.Dir
			if ms.Dir == "" {
				ms.Dir = record.SystemDir(s.Name)
			}
			sum.Systems = append(sum.Systems, ms)
		}
		if need.Has(metrics.NeedModules) {
			sum.Modules = metrics.BuildModules(srs, usage, cfg.Pricing, cfg.PricingPath, cfg.passK())
		}
		for _, s := range srs {
			if f, ok := metrics.SummarizeFlex(s); ok && sel.Has("flex") {
				sum.Flex = append(sum.Flex, f)
			}
		}
		if sel.Has("ts_ex") {
			sum.TestSuite = metrics.SummarizeTestSuite(st.TestSuite, srs)
		}
		return nil
	})
	g.Go(func() error {
		if sel.Has("esm") {
			sum.Structural = match.Summarize(match.Options{Values: cfg.ESMValues, Distinct: cfg.ESMDistinct}, srs)
		}
		for _, s := range srs {
			if p, ok := metrics.SummarizePartial(s); ok && sel.Has("esm_partial") {
				sum.ESMPartial = append(sum.ESMPartial, p)
			}
		}
		if sel.Has("etm") {
			sum.ETM = match.SummarizeETM(srs)
		}
		return nil
	})
	g.Go(func() error {
		if sel.Has("slices") {
			facts = slicing.FactsOf(ds)
		}
		return nil
	})
	_ = g.Wait() // the sections do not fail
	if n := len(systems); n > metrics.MaxPairedSystems {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("%d systems: over %d, the paired tests compare each system only with each headline metric's best, and the slices carry no paired tests (summary.json grows linearly in systems)", n, metrics.MaxPairedSystems))
	}
	if sum.ETM != nil {
		sum.ETM.Mode = string(st.ETMMode)
	}
	if m := headline(sum.Metrics, metrics.Declared(cfg.metricOptions())); m != nil && facts != nil {
		sum.Slices = slicing.Summarize(m, facts, srs)
	}
	sum.ResultDiffs = slicing.SummarizeDiffs(srs)
	// Only where Spider's EX is shown: as the verdict, or as the ex_spider metric.
	if sum.Spider2 == nil && (sem == judge.Spider || sel.Has("ex_spider")) {
		sum.SpiderRewrite = metrics.SummarizeSpiderRewrite(string(st.SpiderMode), srs)
		// Warned about where Spider's EX is the verdict, the dataset is Spider's or
		// --metrics asked for ex_spider: on a BIRD run judged by BIRD's rules, ex_spider
		// is a side column of the default table, and a warning about Spider's rewrite
		// reads as if the run's scores were in doubt.
		asked := len(cfg.Metrics) > 0
		if w := sum.SpiderRewrite.Warning(); w != "" && (sem == judge.Spider || ds.Kind != dataset.KindBIRD || asked) {
			sum.Warnings = append(sum.Warnings, w)
		}
	}

	var s2warn []string
	sum.Spider2, s2warn = spider2Summaries(systems)
	sum.Warnings = append(sum.Warnings, s2warn...)
	sum.Tasks = taskSummaries(systems)
	sum.Skips = skipsOf(systems[0].Records)
	if c := sum.Systems[0].Overall.Counts; c.Skipped > 0 && sum.Tasks != nil {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("%d task%s not judged (%s; task_not_judged in the records); excluded from every score, never counted wrong", c.Skipped, plural(c.Skipped), sum.Skips.Why()))
	} else if c := sum.Systems[0].Overall.Counts; c.Skipped > 0 && sum.Spider2 == nil {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("%d question%s skipped (database missing under %s); excluded from every score", c.Skipped, plural(c.Skipped), ds.DBRoot))
	}
	if c := sum.Systems[0].Overall.Counts; c.GoldError > 0 {
		w := fmt.Sprintf("%d question%s gold SQL that failed to run (verdict gold_error); excluded from every score", c.GoldError, hasHave(c.GoldError))
		// Name the first, so that a database that is not one (a zero-byte or truncated
		// file) is found without opening records.jsonl.
		for _, r := range systems[0].Records {
			if r.Verdict == record.GoldError {
				w += fmt.Sprintf("; first: question %s, database %s under %s: %s", r.QuestionID, r.DBID, ds.DBRoot, r.ErrorMessage)
				break
			}
		}
		sum.Warnings = append(sum.Warnings, w)
	}
	return sum
}

// headline is the run's headline metric: the first of the metrics section (nil when
// the section is empty).
func headline(sec *metrics.Section, declared []metrics.Metric) *metrics.Metric {
	if sec == nil || len(sec.Definitions) == 0 {
		return nil
	}
	for i := range declared {
		if declared[i].ID == sec.Definitions[0].ID {
			return &declared[i]
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func hasHave(n int) string {
	if n == 1 {
		return " has"
	}
	return "s have"
}
