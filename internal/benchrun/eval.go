package benchrun

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/llmjudge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Sink keeps a run's records: the cli writes them to DIR/<system>/records.jsonl.
type Sink interface {
	// Write takes system's next judged record, in dataset order, as soon as it is judged.
	Write(system int, r *record.Record) error
	// Rewrite replaces all of system's records with recs (every record, resumed ones
	// included), after the timing phase filled their timing fields.
	Rewrite(system int, recs []record.Record) error
}

// Observer hears how a run goes: the cli prints warnings and draws progress bars.
type Observer interface {
	// Warn is something the user should know now; the run goes on.
	Warn(msg string)
	// Phase starts a phase of the run (PhaseHashing with Config.HashDBs, PhaseJudging,
	// then PhaseTiming with Config.VES).
	Phase(p Phase) Progress
}

// Progress follows one phase of a run.
type Progress interface {
	Update(done, total int)
	Finish()
}

// The phases of an evaluation.
const (
	PhaseHashing = "hashing databases" // the manifest's sha256 of every database (Config.HashDBs)
	PhaseJudging = "judging"
	PhaseTiming  = "timing"
)

// Phase is a phase of a run starting.
type Phase struct {
	Name string
	// Timing only: the correct predictions to time, how, and how many times each.
	Items      int
	Mode       judge.TimingMode
	Iterations int
}

// quiet is the Observer of a caller that gave none.
type quiet struct{}

func (quiet) Warn(string)          {}
func (quiet) Phase(Phase) Progress { return quiet{} }
func (quiet) Update(int, int)      {}
func (quiet) Finish()              {}

var _ Observer = quiet{}

func orQuiet(obs Observer) Observer {
	if obs == nil {
		return quiet{}
	}
	return obs
}

// Result is what an evaluation found.
type Result struct {
	Summary *rundir.Summary // summary.json
	Systems []SystemResult  // in Plan.Systems order
	Elapsed time.Duration   // judging and timing
	Resumed int             // records taken from the run being resumed, all systems together
}

// SystemResult is one system's records (resumed ones first) and statistics.json.
type SystemResult struct {
	Name, Dir  string
	Records    []record.Record
	Statistics metrics.Statistics
}

// Eval judges p's systems and summarises the run. resumed holds, per system, the records
// an interrupted run already has (nil: none); judging continues after them, and every
// new record goes to sink. Resumed records that are not the dataset's first questions
// are refused (ErrResumeMismatch). When ctx ends while judging, the error is a
// *StoppedError; when the database kept failing (a lost connection, a server that
// stopped answering, a database that cannot be opened), a *judge.FaultError: the records
// before its question are complete, and neither it nor any later question got a record.
// The summary carries p.Manifest.
func Eval(ctx context.Context, p *Plan, resumed [][]record.Record, sink Sink, obs Observer) (*Result, error) {
	obs = orQuiet(obs)
	cfg, ds := p.Config, p.Dataset
	if resumed != nil && len(resumed) != len(p.Systems) {
		return nil, fmt.Errorf("eval: %d resumed record lists for %d systems", len(resumed), len(p.Systems))
	}
	if err := checkResumed(ds, p.Systems, resumed); err != nil {
		return nil, err
	}
	res := &Result{Systems: make([]SystemResult, len(p.Systems))}
	for i, s := range p.Systems {
		res.Systems[i] = SystemResult{Name: s.Name, Dir: s.Dir}
		if resumed != nil {
			res.Systems[i].Records = resumed[i]
			res.Resumed += len(resumed[i])
		}
		// One allocation for every record to come (808 bytes each), not a slice regrown
		// and copied as records arrive.
		res.Systems[i].Records = append(make([]record.Record, 0, max(len(ds.Questions), len(res.Systems[i].Records))), res.Systems[i].Records...)
	}
	if ds.Spider2 != nil {
		return evalSpider2(ctx, p, res, sink, obs) // result tables: spider2.go
	}
	if p.Tasks != nil {
		return evalTasks(ctx, p, res, sink, obs) // tasks on a database copy: tasks.go
	}

	sqlite := engine.NewSQLite()
	sqlite.MaxConnsPerDB = max(cfg.Workers, 1)
	defer sqlite.Close()
	var eng engine.Engine = sqlite
	var locate judge.Locator
	var gold *judge.Target
	if cfg.Server != nil {
		var err error
		if s, ok := cfg.Server.(DatasetServer); ok {
			s.UseDataset(ds) // DuckDB files are found under the dataset's root
		}
		if eng, locate, gold, err = cfg.Server.Open(cfg.Workers, sqlite); err != nil {
			return nil, err
		}
		defer eng.Close()
		if err := cfg.Server.Ping(ctx, eng, ds); err != nil {
			return nil, err
		}
	}
	js := make([]judge.System, len(p.Systems))
	for i, s := range p.Systems {
		js[i] = judge.System{Name: s.Name, Preds: s.Preds, From: len(res.Systems[i].Records)}
	}
	anns, sm, err := annotators(ctx, cfg, p.Settings, ds)
	if err != nil {
		return nil, err
	}
	defer closeAnnotators(anns)
	sm.knowRuns(sqlite)
	prog := obs.Phase(Phase{Name: PhaseJudging})
	opt := judge.Options{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows, MaxBytes: cfg.MaxResultBytes, Workers: cfg.Workers, Semantics: p.Settings.Semantics, SpiderMode: p.Settings.SpiderMode, Progress: prog.Update, Annotators: anns,
		Locate: locate, Gold: gold, Flex: cfg.Flex && p.Settings.Needs.Has(metrics.NeedFlex), Warn: serialWarn(obs),
		SkipSoftF1: !p.Settings.Needs.Has(metrics.NeedSoftF1)}
	t0 := time.Now()
	err = judge.Run(ctx, eng, ds, js, opt, func(i int, r *record.Record) error {
		s := &res.Systems[i]
		placeCounterexample(s.Dir, r)
		s.Records = append(s.Records, *r)
		return sink.Write(i, r)
	})
	prog.Finish()
	overBudget := sm.overBudget()
	if overBudget != "" {
		obs.Warn(overBudget)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, stopped(ctx.Err(), res, len(ds.Questions))
		}
		// The judge's cap or a failing endpoint stops the run as an interruption does:
		// the records so far are complete, and a resume continues (never a verdict).
		if errors.Is(err, llmjudge.ErrCostCap) || errors.Is(err, llmjudge.ErrEndpoint) {
			return nil, stopped(err, res, len(ds.Questions))
		}
		return nil, err
	}
	if cfg.VES {
		if err := timeCorrect(ctx, cfg, p.Settings.Timing, ds, res.Systems, sink, obs); err != nil {
			return nil, err
		}
	}
	res.Elapsed = time.Since(t0)

	summarizeResult(ctx, p, res)
	if overBudget != "" {
		res.Summary.Warnings = append(res.Summary.Warnings, overBudget)
	}
	return res, nil
}

// serialWarn passes the judge's retry warnings, which come from its workers, to obs one
// at a time.
func serialWarn(obs Observer) func(string) {
	var mu sync.Mutex
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		obs.Warn(msg)
	}
}

// summarizeResult gives every judged system its statistics.json and the run its one
// summary (Summarize), carrying the plan's manifest: the end of every kind of run.
func summarizeResult(ctx context.Context, p *Plan, res *Result) {
	srs := make([]SystemRecords, len(res.Systems))
	for i := range res.Systems {
		s := &res.Systems[i]
		s.Statistics = metrics.NewStatistics(s.Records)
		srs[i] = SystemRecords{Name: s.Name, Dir: s.Dir, Records: s.Records}
	}
	res.Summary = Summarize(ctx, p.Config, p.Settings, p.Dataset, srs)
	res.Summary.Manifest = p.Manifest
}
