package benchrun

import (
	"fmt"
	"path"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/counterex"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// This file wires eval --test-suite: the counterexample search (internal/counterex) as
// one more annotator, and where its scripts go in the run directory.

// CounterexampleDir is the folder of a system's counterexample scripts, inside its
// directory of the run directory.
const CounterexampleDir = "counterexamples"

// testSuiteAnnotator searches every EX-correct record under the run's semantics.
func testSuiteAnnotator(cfg Config, set Settings, tablesJSON string) *counterex.Annotator {
	return counterex.NewAnnotator(counterex.Options{Seed: cfg.TestSuiteSeed, Budget: cfg.testSuiteBudget(), Semantics: set.Semantics, Domain: cfg.TestSuiteDomain,
		SpiderMode: set.SpiderMode, TablesJSON: tablesJSON,
		Proof: counterex.ProofOptions{On: cfg.Proof, Bound: cfg.proofBound(), Budget: cfg.proofBudget()}})
}

func (c *Config) proofBound() int {
	if c.ProofBound <= 0 {
		return counterex.DefaultProofBound
	}
	return c.ProofBound
}

func (c *Config) proofBudget() time.Duration {
	if c.ProofBudget <= 0 {
		return counterex.DefaultProofBudget
	}
	return c.ProofBudget
}

func (c *Config) testSuiteBudget() counterex.Budget {
	if c.TestSuiteBudget == (counterex.Budget{}) {
		return counterex.DefaultBudget
	}
	return c.TestSuiteBudget
}

// testSuiteSetting is the search's seed, budget and domain for the manifest and the
// summary ("" when off): a different seed, budget or domain can find different
// counterexamples, so a resume with another is refused. Declared mode writes no domain,
// as runs did before realistic mode existed: those runs resume in declared mode only.
func testSuiteSetting(cfg Config) string {
	if !cfg.TestSuite {
		return ""
	}
	s := fmt.Sprintf("seed=%d budget=%s", cfg.TestSuiteSeed, cfg.testSuiteBudget())
	if cfg.TestSuiteDomain != counterex.DomainDeclared {
		s += " domain=" + string(counterex.DomainRealistic)
	}
	if cfg.Proof { // absent when off, so runs made before proofs existed resume
		s += fmt.Sprintf(" proof=%d,%s", cfg.proofBound(), cfg.proofBudget())
	}
	return s
}

// placeCounterexample names where r's counterexample script goes in the run directory:
// DIR/<system dir>/counterexamples/q<index>.sql. The Sink writes it with the record.
func placeCounterexample(systemDir string, r *record.Record) {
	if r.Counterexample != nil && r.Counterexample.Path == "" {
		r.Counterexample.Path = path.Join(systemDir, CounterexampleDir, fmt.Sprintf("q%d.sql", r.Index))
	}
}
