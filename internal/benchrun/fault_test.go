package benchrun

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// downServer is a Server whose engine runs on the SQLite files but loses its connection
// on every execution of one SQL text, as a server that went away at that question.
type downServer struct{ failOn string }

func (d downServer) Open(_ int, sqlite engine.Engine) (engine.Engine, judge.Locator, *judge.Target, error) {
	return &downEngine{Engine: sqlite, failOn: d.failOn}, nil, nil, nil
}

func (downServer) Ping(context.Context, engine.Engine, *dataset.Dataset) error { return nil }

type downEngine struct {
	engine.Engine
	failOn string
}

func (e *downEngine) Query(ctx context.Context, db, q string, lim engine.Limits) (*engine.Result, error) {
	if strings.TrimSpace(q) == e.failOn {
		return nil, &engine.FaultError{Op: "lost connection to fake", Err: io.ErrUnexpectedEOF}
	}
	return e.Engine.Query(ctx, db, q, lim)
}

func (e *downEngine) Close() error { return nil } // the run closes its SQLite engine itself

// TestEvalFault: a fault that outlasts the judge's retries stops Eval with a
// *judge.FaultError; every system has exactly the records before that question, none
// of them a gold_error or error the fault caused, and resuming gives a clean run's
// verdicts.
func TestEvalFault(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the judge's retries (3 s)")
	}
	t.Parallel() // the retries' waits, beside other tests (issue 44)
	cfg := demoConfig(t)
	_, full, _, _ := evalDemo(t, cfg, nil)
	p, err := Prepare(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The first question past the fifth whose gold runs.
	k := -1
	for i, r := range full.Systems[0].Records {
		if i >= 5 && r.Verdict != record.Skipped && r.Verdict != record.GoldError {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no demo question with a gold that runs")
	}
	down := cfg
	down.Server = downServer{failOn: strings.TrimSpace(p.Dataset.Questions[k].Gold[0])}
	p, err = Prepare(context.Background(), down, nil)
	if err != nil {
		t.Fatal(err)
	}
	obs := &notes{}
	sink := newMemSink(len(p.Systems))
	_, err = Eval(context.Background(), p, nil, sink, obs)
	var fe *judge.FaultError
	if !errors.As(err, &fe) || !errors.Is(err, engine.ErrInfrastructure) {
		t.Fatalf("err = %v, want a *judge.FaultError", err)
	}
	if fe.Index != p.Dataset.Questions[k].Index || fe.Tries != judge.DefaultFaultTries {
		t.Errorf("fault at question %d after %d tries, want %d after %d", fe.Index, fe.Tries, k, judge.DefaultFaultTries)
	}
	if len(obs.warnings) != judge.DefaultFaultTries-1 {
		t.Errorf("warnings %q, want one per retry", obs.warnings)
	}
	t.Logf("fault at question %d: %d records per system before it, %d systems", fe.Index, k, len(p.Systems))
	resumed := sink.written
	for i, recs := range resumed {
		if len(recs) != k {
			t.Fatalf("system %s: %d records written, want the %d before the fault", p.Systems[i].Name, len(recs), k)
		}
		for j, r := range recs {
			if w := full.Systems[i].Records[j]; r.Verdict != w.Verdict || r.ErrorMessage != w.ErrorMessage {
				t.Errorf("system %s question %d: %s %q, want %s %q", p.Systems[i].Name, j, r.Verdict, r.ErrorMessage, w.Verdict, w.ErrorMessage)
			}
		}
	}
	_, res, _, _ := evalDemo(t, cfg, resumed)
	for i, s := range res.Systems {
		for j, r := range s.Records {
			if w := full.Systems[i].Records[j]; r.Index != w.Index || r.Verdict != w.Verdict || r.ErrorCategory != w.ErrorCategory {
				t.Errorf("resumed system %s record %d: %d %s, want %d %s", s.Name, j, r.Index, r.Verdict, w.Index, w.Verdict)
			}
		}
	}
	if got, want := res.Summary.Systems[0].Overall.Counts, full.Summary.Systems[0].Overall.Counts; !reflect.DeepEqual(got, want) {
		t.Errorf("resumed counts %+v, want %+v", got, want)
	}
}
