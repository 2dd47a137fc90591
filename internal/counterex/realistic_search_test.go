// These two tests measure the search's realistic mode (the default) against the data
// corpora of issue 26 (realistic_corpus_test.go). A counterexample counts when it
// refutes the prediction (Found.Refutes: realistic, not resting on a tie under the
// gold's LIMIT); a gold-suspect finding is logged apart. Run with
//
//	go test ./internal/counterex -run 'TestRealistic' -v

package counterex

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// corpusOutcome is one pair's search.
type corpusOutcome struct {
	p     dataPair
	tried int
	found *Found
	err   error
}

// searchCorpus searches the pairs of a data corpus with default options (the
// realistic domain once it exists), each under the semantics semOf gives it ("" leaves
// the pair out), with a count budget so that the result does not depend on the
// machine. Pairs run in parallel, one Searcher per semantics (safe for concurrent use);
// the outcomes come back in file order.
func searchCorpus(t *testing.T, path string, semOf func(dataPair) judge.Semantics) []corpusOutcome {
	t.Helper()
	testutil.Shared(t, "data/spider/database")
	testutil.Shared(t, "data/bird/dev_databases/superhero")
	type job struct {
		i   int // the pair's line, which seeds its search
		p   dataPair
		db  string
		sem judge.Semantics
	}
	var jobs []job
	if testing.Short() {
		t.Skip("the data corpora take about a minute on two cores: skipped under -short")
	}
	searchers := map[judge.Semantics]*Searcher{}
	for i, p := range readDataPairs(t, path) {
		sem := semOf(p)
		if sem == "" {
			continue
		}
		if searchers[sem] == nil {
			searchers[sem] = New(Options{Seed: 7, Budget: Budget{DBs: DefaultBudget.DBs}, Semantics: sem})
			defer searchers[sem].Close()
		}
		jobs = append(jobs, job{i, p, dataPairDB(t, p.DB), sem})
	}
	out := make([]corpusOutcome, len(jobs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 2) // the machine's cores
	for k, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			o, err := searchers[j.sem].Search(context.Background(), j.db, j.i, []string{j.p.Gold}, j.p.Pred)
			out[k] = corpusOutcome{p: j.p, err: err}
			if o != nil {
				out[k].tried, out[k].found = o.Tried, o.Found
			}
		}()
	}
	wg.Wait()
	return out
}

// defaultSemantics is eval's default --semantics for a pair's benchmark.
func defaultSemantics(p dataPair) judge.Semantics {
	if strings.HasPrefix(p.DB, "spider/") {
		return judge.Spider
	}
	return judge.Bird
}

// kindTally renders found/total per kind, for the log.
func kindTally(outs []corpusOutcome) string {
	type n struct{ found, all int }
	byKind := map[string]*n{}
	for _, o := range outs {
		k := byKind[o.p.Kind]
		if k == nil {
			k = &n{}
			byKind[o.p.Kind] = k
		}
		k.all++
		if o.found != nil && o.found.Refutes() {
			k.found++
		}
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-28s %d/%d\n", k, byKind[k].found, byKind[k].all)
	}
	return b.String()
}

// TestRealisticSoundness: a pair equivalent on every database the data's profile
// allows never gets a counterexample, under BIRD's semantics and, for Spider pairs,
// under Spider's too (its verdict drops DISTINCT and compares bags; a BIRD pair under
// it is no configuration anyone runs: its 'value' rewrite breaks BIRD's column names).
func TestRealisticSoundness(t *testing.T) {
	semOf := map[judge.Semantics]func(dataPair) judge.Semantics{
		judge.Bird: func(dataPair) judge.Semantics { return judge.Bird },
		judge.Spider: func(p dataPair) judge.Semantics {
			if strings.HasPrefix(p.DB, "spider/") {
				return judge.Spider
			}
			return ""
		},
	}
	for _, sem := range []judge.Semantics{judge.Bird, judge.Spider} {
		t.Run(string(sem), func(t *testing.T) {
			outs := searchCorpus(t, equivDataFile, semOf[sem])
			false_ := 0
			for _, o := range outs {
				switch {
				case o.err != nil:
					t.Errorf("%s: %v", o.p.ID, o.err)
				case o.found != nil && o.found.GoldTie != "" && o.found.Realistic():
					t.Logf("%s (%s): gold suspect, not counted: %s", o.p.ID, o.p.Kind, o.found.GoldTie)
				case o.found != nil:
					false_++
					t.Errorf("%s (%s): counterexample for a pair equivalent on realistic data:\n%s", o.p.ID, o.p.Kind, o.found.Script)
				case o.tried == 0:
					t.Errorf("%s: no variant was tried", o.p.ID)
				}
			}
			t.Logf("%s: %d of %d equivalent pairs got a counterexample; per kind:\n%s", sem, false_, len(outs), kindTally(outs))
		})
	}
}

// TestRealisticPower: at least 70% of the pairs that agree on the original database
// but differ on realistic data get a counterexample, each under the semantics eval
// uses by default for its benchmark (Spider's for spider/, BIRD's otherwise).
func TestRealisticPower(t *testing.T) {
	outs := searchCorpus(t, inequivDataFile, defaultSemantics)
	found := 0
	var missed []string
	for _, o := range outs {
		switch {
		case o.err != nil:
			t.Errorf("%s: %v", o.p.ID, o.err)
		case o.found != nil && o.found.Refutes():
			found++
		default:
			missed = append(missed, o.p.ID)
		}
	}
	pct := 100 * float64(found) / float64(len(outs))
	t.Logf("%d of %d inequivalent pairs (%.1f%%) got a counterexample; per kind:\n%s", found, len(outs), pct, kindTally(outs))
	t.Logf("no counterexample: %s", strings.Join(missed, " "))
	if 10*found < 7*len(outs) {
		t.Errorf("power %.1f%%; want at least 70%%", pct)
	}
}
