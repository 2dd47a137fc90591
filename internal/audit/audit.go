package audit

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Finding is one line of audit.jsonl. Fields are added, never renamed.
type Finding struct {
	Index      int    `json:"index"`
	QuestionID string `json:"question_id"`
	DBID       string `json:"db_id"`
	Check      string `json:"check"`
	// Target is the query checked: "gold", or "prediction" (a prediction judged correct,
	// of System). Consensus findings are about the gold and name no system.
	Target    string `json:"target"`
	System    string `json:"system,omitempty"`
	Heuristic bool   `json:"heuristic,omitempty"`
	Evidence  string `json:"evidence"`
	// Confidence is how likely the finding is a real gold problem: high, medium or low
	// (docs/audit.md states each check's false-positive risk).
	Confidence string `json:"confidence,omitempty"`
}

// Targets.
const (
	TargetGold       = "gold"
	TargetPrediction = "prediction"
)

// System is one judged system's records (from a run directory or an eval in progress).
type System struct {
	Name    string
	Records []record.Record
}

// Options configure an audit.
type Options struct {
	Limits engine.Limits // per query; Timeout and MaxRows should be set
	// Systems, when given, add the consensus check and the order checks of the
	// predictions judged correct.
	Systems []System
}

// Result is an audit's findings (by question, then check) and what it covered.
type Result struct {
	Findings []Finding
	Audited  int // questions whose gold was checked
	Skipped  int // questions without a database
	// Predictions counts the predictions judged correct that were checked.
	Predictions int
}

// Counts tallies findings per check and target ("limit_tie" for the gold,
// "limit_tie (prediction)" for predictions).
func (r *Result) Counts() map[string]int {
	out := map[string]int{}
	for _, f := range r.Findings {
		out[CountKey(f.Check, f.Target)]++
	}
	return out
}

// CountKey names a check's count for a target.
func CountKey(check, target string) string {
	if target == TargetPrediction {
		return check + " (prediction)"
	}
	return check
}

// Run audits every question of ds whose database exists. An infrastructure fault (a
// database that went away, the context ending) stops it with an error; a query's own
// failure is evidence (gold_error) or, for probes, no finding.
func Run(ctx context.Context, q querier, ds *dataset.Dataset, opt Options) (*Result, error) {
	res := &Result{}
	byIndex := make([]map[int]*record.Record, len(opt.Systems))
	for si, s := range opt.Systems {
		byIndex[si] = map[int]*record.Record{}
		for i := range s.Records {
			byIndex[si][s.Records[i].Index] = &s.Records[i]
		}
	}
	for qi := range ds.Questions {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		qu := &ds.Questions[qi]
		path, ok := ds.DBPath(qu.DBID)
		if !ok || len(qu.Gold) == 0 {
			res.Skipped++
			continue
		}
		recs := make([]*record.Record, len(opt.Systems))
		for si := range opt.Systems {
			recs[si] = byIndex[si][qu.Index]
		}
		fs, npred, err := question(ctx, q, path, qu, recs, opt)
		if err != nil {
			return res, fmt.Errorf("audit question %s (index %d, database %s): %w", qu.ID, qu.Index, qu.DBID, err)
		}
		res.Audited++
		res.Predictions += npred
		res.Findings = append(res.Findings, fs...)
	}
	return res, nil
}

// fault reports errors that must stop the audit rather than count as evidence.
func fault(ctx context.Context, err error) bool {
	var fe *engine.FaultError
	return ctx.Err() != nil || errors.As(err, &fe)
}

func question(ctx context.Context, q querier, path string, qu *dataset.Question, recs []*record.Record, opt Options) ([]Finding, int, error) {
	var out []Finding
	add := func(fs []finding, target, system string) {
		for _, f := range fs {
			conf := f.confidence
			if conf == "" {
				conf = checkConfidence[f.check]
			}
			out = append(out, Finding{Index: qu.Index, QuestionID: qu.ID, DBID: qu.DBID, Check: f.check, Target: target, System: system, Heuristic: f.heuristic, Evidence: f.evidence, Confidence: conf})
		}
	}
	gold := qu.Gold[0]
	gres, err := q.Query(ctx, path, gold, opt.Limits)
	if err != nil {
		if fault(ctx, err) {
			return nil, 0, err
		}
		add([]finding{{check: CheckGoldError, evidence: "the gold fails: " + err.Error()}}, TargetGold, "")
		return out, 0, nil
	}
	add(resultChecks(gres), TargetGold, "")
	add(idForName(qu.Text, gres), TargetGold, "")
	add(partialAnswer(qu.Text, gres), TargetGold, "")
	sf, err := sentinelValues(ctx, q, path, gold, opt.Limits, gres)
	if err != nil {
		return nil, 0, err
	}
	add(sf, TargetGold, "")
	rf, err := ratioScope(ctx, q, path, qu.Text, gold, opt.Limits)
	if err != nil {
		return nil, 0, err
	}
	add(rf, TargetGold, "")
	fs, err := orderChecks(ctx, q, path, gold, opt.Limits, gres)
	if err != nil && fault(ctx, err) {
		return nil, 0, err
	}
	add(fs, TargetGold, "")
	cf, err := consensus(ctx, q, path, gres, recs, opt)
	if err != nil {
		return nil, 0, err
	}
	add(cf, TargetGold, "")
	npred := 0
	for si, r := range recs {
		if r == nil || r.Verdict != record.Correct || strings.TrimSpace(r.PredSQL) == "" {
			continue
		}
		npred++
		pres, err := q.Query(ctx, path, r.PredSQL, opt.Limits)
		if err != nil {
			if fault(ctx, err) {
				return nil, 0, err
			}
			continue // judged correct on the run's engine, fails now: nothing to say here
		}
		fs, err := orderChecks(ctx, q, path, r.PredSQL, opt.Limits, pres)
		if err != nil && fault(ctx, err) {
			return nil, 0, err
		}
		add(fs, TargetPrediction, opt.Systems[si].Name)
	}
	return out, npred, nil
}

// setKey is a result as a set of rows.
func setKey(rows [][]any) string {
	seen := map[string]bool{}
	var ks []string
	for _, r := range rows {
		t := rowText(r)
		if !seen[t] {
			seen[t] = true
			ks = append(ks, t)
		}
	}
	sort.Strings(ks)
	return strings.Join(ks, "\x00")
}

func sampleRows(rows [][]any) string {
	var parts []string
	for i, r := range rows {
		if i == 3 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, rowText(r))
	}
	if len(parts) == 0 {
		return "no rows"
	}
	return strings.Join(parts, " ")
}

// Gold audits one question's gold alone (its own result and order dependence, no
// consensus): the evidence the LLM judge is shown while eval runs, before any audit of
// the finished run. A fault stops it with an error, as in Run.
func Gold(ctx context.Context, q querier, path string, qu *dataset.Question, lim engine.Limits) ([]Finding, error) {
	if len(qu.Gold) == 0 {
		return nil, nil
	}
	fs, _, err := question(ctx, q, path, qu, nil, Options{Limits: lim})
	return fs, err
}

// Coverage is how an audit's gold findings meet a set of corrected golds (rescore
// --corrections' file, or an expert-corrected release): which corrected questions it
// flags, which it misses, and how many flagged questions were not corrected.
type Coverage struct {
	Corrected int              // corrected questions the audit checked
	Flagged   map[int][]string // corrected question index -> the checks that flagged it
	Missed    []int            // corrected question indexes without a gold finding
	Elsewhere int              // questions with gold findings that were not corrected
	Skipped   int              // corrected questions the audit did not check (no database)
}

// CoverageOf compares res's gold findings with the corrected question indexes; audited
// says which questions the audit checked.
func CoverageOf(res *Result, corrected []int, audited func(int) bool) Coverage {
	c := Coverage{Flagged: map[int][]string{}}
	byQ := map[int][]string{}
	for _, f := range res.Findings {
		if f.Target == TargetGold {
			byQ[f.Index] = append(byQ[f.Index], f.Check)
		}
	}
	isCorrected := map[int]bool{}
	for _, i := range corrected {
		if isCorrected[i] {
			continue
		}
		isCorrected[i] = true
		switch {
		case !audited(i):
			c.Skipped++
		case len(byQ[i]) > 0:
			c.Corrected++
			c.Flagged[i] = byQ[i]
		default:
			c.Corrected++
			c.Missed = append(c.Missed, i)
		}
	}
	for i := range byQ {
		if !isCorrected[i] {
			c.Elsewhere++
		}
	}
	sort.Ints(c.Missed)
	return c
}
