package benchrun

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/llmjudge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Output says where EvalInto writes a run directory and what it does with one already
// there. eval, demo, two-pass's judged passes and every matrix cell go through it.
type Output struct {
	// Dir is the run directory ("": runs/<kind>-<time>).
	Dir string
	// Resume continues the run in Dir, after its manifest matched this run's.
	Resume bool
	// Force replaces a run already in Dir: the new run is written beside it and swapped
	// in once complete (rundir.PlanOut). Without Resume or Force a non-empty Dir is refused.
	Force bool
	// Args are the eval arguments the run directory remembers (DIR/args.json, written on
	// a new run), so that eval --resume --out DIR alone continues it; nil: none.
	Args []string
	// LLMJudge builds eval --llm-judge's judge once the directory being written is known
	// (its answers are cached there); nil: no judge. EvalInto closes it.
	LLMJudge func(work string) (*llmjudge.Judge, error)
	// HoldWarnings leaves the run's own warnings (skipped questions, gold errors; in
	// Result.Summary.Warnings) to the caller, which knows which of them to expect;
	// otherwise obs hears them once the run is written.
	HoldWarnings bool
	// Rerun is the command that continues the run written in dir after an interruption
	// or a database fault (nil: none is named).
	Rerun func(dir string) string
}

// InterruptedError is a run stopped before its end by an interrupt (or the LLM judge's
// cost cap or endpoint): how far it got, where its records are kept and the command that
// continues it.
type InterruptedError struct {
	Err         *StoppedError
	Kept, Rerun string
}

func (e *InterruptedError) Error() string {
	what := "interrupted"
	if !errors.Is(e.Err.Err, context.Canceled) && !errors.Is(e.Err.Err, context.DeadlineExceeded) {
		what = e.Err.Err.Error() + ": stopped" // the LLM judge's cost cap or endpoint, not a signal
	}
	return fmt.Sprintf("%s at %d of %d records (those are kept in %s); resume with: %s", what, e.Err.Done, e.Err.Total, e.Kept, e.Rerun)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// DefaultDir is where a run of the dataset spec goes when no directory is named:
// runs/<kind>-<time>.
func DefaultDir(datasetSpec string, now time.Time) string {
	kind, _, _ := strings.Cut(datasetSpec, ":")
	return filepath.Join("runs", strings.ToLower(kind)+"-"+now.Format("20060102-150405"))
}

// EvalInto is one evaluation written to its run directory, start to end: it takes the
// directory's lock, decides where the run is written (rundir.PlanOut), checks a resumed
// run's manifest against this one's, prepares (Prepare), writes args.json and the
// manifest, streams the records as they are judged (rundir.Writer), then every system's
// statistics.json and summary.json with the files' hashes (rundir.Seal), and swaps a
// replacement run into place once all of it is written. It prints nothing: obs hears
// the phases and warnings (nil: nobody). The Plan is returned with the Result (nil on error before
// judging).
func EvalInto(ctx context.Context, cfg Config, o Output, obs Observer) (*Result, *Plan, error) {
	obs = orQuiet(obs)
	out := o.Dir
	if out == "" {
		out = DefaultDir(cfg.DatasetSpec, time.Now())
	}
	// One writer at a time: a second eval, --resume or --force into this --out while
	// one runs would mix two runs' files in it.
	lock, err := rundir.AcquireLock(out, lockHolder(o))
	if err != nil {
		return nil, nil, err
	}
	defer lock.Release()
	od, err := rundir.PlanOut(out, o.Resume, o.Force)
	if err != nil {
		return nil, nil, err
	}
	if o.LLMJudge != nil {
		j, err := o.LLMJudge(od.Work)
		if err != nil {
			return nil, nil, err
		}
		defer j.Close()
		cfg.LLMJudge = j
	}
	var resumed *rundir.Manifest
	if o.Resume {
		if err := rundir.CheckResumable(out); err != nil {
			return nil, nil, err
		}
		if resumed, err = rundir.ResumeManifest(out); err != nil {
			return nil, nil, err
		}
		if resumed != nil && resumed.HashedDBs {
			cfg.HashDBs = true // compare the databases as the run fingerprinted them
		}
		if resumed != nil {
			cfg.ResumedDuckDB = &resumed.Settings.DuckDB // no library loaded before the manifests match
		}
	}
	p, err := Prepare(ctx, cfg, obs)
	if err != nil {
		od.Abandon()
		return nil, nil, err
	}
	write := p.Manifest
	if resumed != nil {
		if err := CompareManifests(resumed, p.Manifest); err != nil {
			return nil, nil, err
		}
		if err := CheckDuckDB(cfg, resumed.Settings.DuckDB); err != nil {
			return nil, nil, err
		}
		p.Manifest, write = resumed, nil
	}
	if !o.Resume && o.Args != nil {
		if err := rundir.WriteArgs(od.Work, o.Args); err != nil {
			od.Abandon()
			return nil, nil, err
		}
	}
	res, err := judgeInto(ctx, od, p, o, write, obs)
	if err != nil {
		return nil, nil, err
	}
	if !o.HoldWarnings {
		for _, w := range res.Summary.Warnings[len(p.Dataset.Warnings):] { // the dataset's were heard in Prepare
			obs.Warn(w)
		}
	}
	return res, p, nil
}

// judgeInto judges p into od: the manifest (when write is set) and the records go to
// od.Work as they come, then statistics.json and summary.json, and a replacement run is
// swapped into od.Out once all of them are written.
func judgeInto(ctx context.Context, od rundir.OutDir, p *Plan, o Output, write *rundir.Manifest, obs Observer) (*Result, error) {
	dirs := make([]string, len(p.Systems))
	for i, s := range p.Systems {
		dirs[i] = s.Dir
	}
	dir, err := rundir.OpenWriter(od.Work, dirs, o.Resume, write)
	if err != nil {
		od.Abandon()
		return nil, err
	}
	defer dir.Close()
	res, err := Eval(ctx, p, dir.Resumed(), dir, obs)
	kept := od.Work
	if od.Replacing() {
		kept += " (the earlier run in " + od.Out + " is untouched)"
	}
	rerun := ""
	if o.Rerun != nil {
		rerun = o.Rerun(od.Work)
	}
	var stop *StoppedError
	var fault *judge.FaultError
	switch {
	case errors.As(err, &stop):
		return nil, &InterruptedError{Err: stop, Kept: kept, Rerun: rerun}
	case errors.As(err, &fault):
		return nil, fmt.Errorf("%w; the records before it are complete in %s; %s, then: %s", err, kept, engine.FaultHint(err), rerun)
	case errors.Is(err, judge.ErrTimingBudget):
		return nil, fmt.Errorf("%w; the judged records are complete in %s (without timing)", err, kept)
	case err != nil:
		dir.Close()
		od.Abandon()
		return nil, err
	}
	for _, s := range res.Systems {
		if err := rundir.WriteJSON(filepath.Join(od.Work, s.Dir, rundir.StatisticsFile), s.Statistics); err != nil {
			return nil, err
		}
	}
	// summary.json and the manifest, with the sha256 of every file the numbers come from.
	if err := rundir.Seal(od.Work, res.Summary, write); err != nil {
		return nil, err
	}
	dir.Close()
	if err := od.Commit(); err != nil {
		return nil, err
	}
	return res, nil
}

// lockHolder names the run for the lock's holder: "eval", "eval --resume", "eval --force".
func lockHolder(o Output) string {
	switch {
	case o.Resume:
		return "eval --resume"
	case o.Force:
		return "eval --force"
	}
	return "eval"
}
