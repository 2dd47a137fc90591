package benchrun

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// AgreementConfig is a judged run's records and the labels to set its verdicts against
// (docs/agreement.md).
type AgreementConfig struct {
	Systems []SystemRecords
	Metrics metrics.Options // the registry the run was aggregated with
	Labels  *review.Labels  // nil: the verdicts against each other only
	System  string          // --system: compare this system only ("": every system, pooled)
}

// AgreementInto sets the run's verdicts against the labels (Agreement) under the run's
// lock, and writes and seals its agreement.json.
func AgreementInto(run *rundir.Run, ls *review.Labels, system string) (*rundir.Agreement, error) {
	lock, err := rundir.AcquireLock(run.Dir, "agreement")
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	cfg := AgreementConfig{Metrics: metrics.Options{PassK: run.PassK()}, Labels: ls, System: system}
	for _, s := range run.Systems {
		cfg.Systems = append(cfg.Systems, SystemRecords{Name: s.Name, Records: s.Records})
	}
	a, err := Agreement(cfg)
	if err != nil {
		return nil, err
	}
	if err := rundir.WriteJSON(filepath.Join(run.Dir, rundir.AgreementFile), a); err != nil {
		return nil, err
	}
	return a, rundir.Reseal(run.Dir, rundir.AgreementFile)
}

// Agreement resolves each label to the record it judges (by system and index or
// question_id; an NL2SQL-BUGs entry by db_id, question text and SQL), then sets every
// 0/1 verdict of the registry against the labels, and the verdicts against each other.
// A label that names a system or question the run does not have, a label without a
// system in a run of several (and no --system), and two labels of one prediction that
// differ are errors naming the file, line and key.
func Agreement(cfg AgreementConfig) (*rundir.Agreement, error) {
	systems := cfg.Systems
	if cfg.System != "" {
		systems = nil
		for _, s := range cfg.Systems {
			if s.Name == cfg.System {
				systems = []SystemRecords{s}
			}
		}
		if systems == nil {
			return nil, configf("--system %s: the run has no such system (it has %s)", cfg.System, systemList(cfg.Systems))
		}
	}
	ms := metrics.Declared(cfg.Metrics)
	srs := make([]metrics.SystemRecords, len(systems))
	for i, s := range systems {
		srs[i] = metrics.SystemRecords{Name: s.Name, Records: s.Records}
	}
	out := &rundir.Agreement{System: cfg.System, KappaMethod: metrics.KappaMethod, Verdicts: []metrics.VerdictAgreement{},
		Matrix: metrics.VerdictMatrix(ms, srs)}
	if cfg.Labels == nil {
		return out, nil
	}
	ls := cfg.Labels
	out.Labels, out.Format, out.LabelsRead, out.GoldWrong = ls.Path, ls.Format, len(ls.Labels), ls.GoldWrong
	res := resolver{ls: ls, all: cfg.Systems, systems: systems, only: cfg.System, out: out, seen: map[string]seenLabel{}}
	var resolved []metrics.Label
	for i := range ls.Labels {
		got, err := res.resolve(&ls.Labels[i])
		if err != nil {
			return nil, err
		}
		resolved = append(resolved, got...)
	}
	out.Verdicts = metrics.Agree(ms, srs, resolved)
	return out, nil
}

type seenLabel struct {
	where   string
	correct bool
}

// resolver finds the records labels judge.
type resolver struct {
	ls      *review.Labels
	all     []SystemRecords // every system of the run
	systems []SystemRecords // those compared
	only    string
	out     *rundir.Agreement
	seen    map[string]seenLabel // system and index: the first label of that prediction
	bugs    map[string][]bugRef  // NL2SQL-BUGs: the compared records by questionKey
}

func (r *resolver) resolve(l *review.Label) ([]metrics.Label, error) {
	where := l.Where(r.ls.Path, r.ls.Format)
	if r.ls.Format == review.FormatNL2SQLBugs {
		return r.resolveBugs(l, where)
	}
	sys := l.System
	switch {
	case sys == "" && r.only != "":
		sys = r.only
	case sys == "" && len(r.all) == 1:
		sys = r.all[0].Name
	case sys == "":
		return nil, fmt.Errorf("%s: %w: no key system, and the run has %d systems (%s): name one, or pass --system", where, review.ErrBadLabel, len(r.all), systemList(r.all))
	}
	var recs []record.Record
	found := false
	for _, s := range r.all {
		if s.Name == sys {
			recs, found = s.Records, true
		}
	}
	if !found {
		return nil, fmt.Errorf("%s: %w: key system: the run has no system %q (it has %s)", where, review.ErrBadLabel, sys, systemList(r.all))
	}
	if r.only != "" && sys != r.only {
		r.out.OtherSystems++
		return nil, nil
	}
	rec, err := findRecord(recs, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v (system %s)", where, review.ErrBadLabel, err, sys)
	}
	return r.use(sys, rec, l, where)
}

// use records one label of rec, refusing a second label of it that differs.
func (r *resolver) use(sys string, rec *record.Record, l *review.Label, where string) ([]metrics.Label, error) {
	k := sys + "\x00" + strconv.Itoa(rec.Index)
	if prev, ok := r.seen[k]; ok {
		if prev.correct != l.Correct {
			return nil, fmt.Errorf("%s: %w: question %d of system %s is labelled otherwise at %s", where, review.ErrBadLabel, rec.Index, sys, prev.where)
		}
		return nil, nil // the same label twice counts once
	}
	r.seen[k] = seenLabel{where: where, correct: l.Correct}
	if !rec.Judged() {
		r.out.NotJudged++
		return nil, nil
	}
	r.out.Labelled++
	return []metrics.Label{{System: sys, Index: rec.Index, Correct: l.Correct, Note: l.Note}}, nil
}

// findRecord finds the record a label names by index and / or question_id.
func findRecord(recs []record.Record, l *review.Label) (*record.Record, error) {
	for i := range recs {
		r := &recs[i]
		byIndex := l.Index != nil && r.Index == *l.Index
		byID := l.QuestionID != "" && r.QuestionID == l.QuestionID
		switch {
		case byIndex && l.QuestionID != "" && !byID:
			return nil, fmt.Errorf("key question_id: %s, but index %d is question %s", l.QuestionID, *l.Index, r.QuestionID)
		case byID && l.Index != nil && !byIndex:
			return nil, fmt.Errorf("key index: %d, but question_id %s is index %d", *l.Index, l.QuestionID, r.Index)
		case byIndex || byID:
			return r, nil
		}
	}
	if l.Index != nil {
		return nil, fmt.Errorf("key index: the run has no question %d", *l.Index)
	}
	return nil, fmt.Errorf("key question_id: the run has no question %s", l.QuestionID)
}

// resolveBugs finds every compared record whose question is the entry's (db_id and
// text) and whose SQL is the entry's.
func (r *resolver) resolveBugs(l *review.Label, where string) ([]metrics.Label, error) {
	if r.bugs == nil {
		r.bugs = map[string][]bugRef{}
		for _, s := range r.systems {
			for i := range s.Records {
				rec := &s.Records[i]
				k := questionKey(rec.DBID, rec.Question)
				r.bugs[k] = append(r.bugs[k], bugRef{s.Name, rec})
			}
		}
	}
	var out []metrics.Label
	matched := false
	for _, b := range r.bugs[questionKey(l.DBID, l.Question)] {
		if !review.SameSQL(b.rec.PredSQL, l.SQL) {
			continue
		}
		matched = true
		got, err := r.use(b.system, b.rec, l, where)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	if !matched {
		r.out.Unmatched++
	}
	return out, nil
}

// bugRef is a compared record and its system.
type bugRef struct {
	system string
	rec    *record.Record
}

// questionKey is a question's db_id and text, whitespace aside (review.SameQuestion).
func questionKey(db, text string) string {
	return db + "\x00" + strings.Join(strings.Fields(text), " ")
}

func systemList(ss []SystemRecords) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}
