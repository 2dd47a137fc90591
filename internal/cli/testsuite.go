package cli

import (
	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/counterex"
)

// bindTestSuite adds eval's counterexample-search flags (docs/test-suite.md).
func bindTestSuite(f *pflag.FlagSet, cfg *benchrun.Config) {
	f.BoolVar(&cfg.TestSuite, "test-suite", false, "search a counterexample database for every EX-correct prediction: ts_ex, counterexample (docs/test-suite.md)")
	f.Int64Var(&cfg.TestSuiteSeed, "test-suite-seed", 1, "seed of the counterexample search (same seed and count budget: same databases)")
	f.Var((*budgetFlag)(&cfg.TestSuiteBudget), "test-suite-budget", "per prediction: databases tried, a time, or both (default "+counterex.DefaultBudget.String()+")")
	f.BoolVar(&cfg.Proof, "proof", false, "with --test-suite: also try to prove each EX-correct prediction equivalent to the gold on every small database with the z3 solver: ts_proof proven/refuted/unknown (docs/proofs.md)")
	f.IntVar(&cfg.ProofBound, "proof-bound", counterex.DefaultProofBound, "rows per table of the databases a proof covers")
	f.DurationVar(&cfg.ProofBudget, "proof-budget", counterex.DefaultProofBudget, "solver time per prediction")
	f.Var((*domainFlag)(&cfg.TestSuiteDomain), "test-suite-domain", "realistic: only databases the data's profile allows, ts_ex counts only those; declared: any the declared schema allows, the others reported as robustness findings")
}

// domainFlag is --test-suite-domain.
type domainFlag counterex.Domain

func (d *domainFlag) String() string {
	if *d == "" {
		return string(counterex.DomainRealistic)
	}
	return string(*d)
}
func (d *domainFlag) Type() string { return "realistic|declared" }
func (d *domainFlag) Set(s string) error {
	v, err := counterex.ParseDomain(s)
	if err != nil {
		return err
	}
	*d = domainFlag(v)
	return nil
}

// budgetFlag is --test-suite-budget.
type budgetFlag counterex.Budget

func (b *budgetFlag) String() string { return counterex.Budget(*b).String() }
func (b *budgetFlag) Type() string   { return "N,DURATION" }
func (b *budgetFlag) Set(s string) error {
	v, err := counterex.ParseBudget(s)
	if err != nil {
		return err
	}
	*b = budgetFlag(v)
	return nil
}
