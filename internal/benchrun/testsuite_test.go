package benchrun

import (
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/counterex"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/prove"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestTestSuiteSetting: the manifest's test_suite setting names the domain in realistic
// mode (so a resume in the other mode is refused) and keeps the text of runs made before
// domains existed in declared mode (so those runs resume in declared mode only).
func TestTestSuiteSetting(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, ""},
		{Config{TestSuite: true, TestSuiteSeed: 1}, "seed=1 budget=200,2s domain=realistic"},
		{Config{TestSuite: true, TestSuiteSeed: 1, TestSuiteDomain: counterex.DomainRealistic}, "seed=1 budget=200,2s domain=realistic"},
		{Config{TestSuite: true, TestSuiteSeed: 1, TestSuiteDomain: counterex.DomainDeclared}, "seed=1 budget=200,2s"},
	} {
		if got := testSuiteSetting(tc.cfg); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.cfg.TestSuiteDomain, got, tc.want)
		}
	}
}

// TestEvalProof: eval --test-suite --proof on the demo end to end. Every EX-correct
// record gets a ts_proof; a proven one survived the cross-check's 100 databases; a
// refuted one carries the counterexample that refutes it; the summary's counts are the
// records'. Without z3 every record must be unknown, naming the missing solver.
func TestEvalProof(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a z3 proof of every demo record (3 s): runs in go test ./..., not under -short")
	}
	cfg := demoConfig(t)
	cfg.TestSuite, cfg.TestSuiteSeed, cfg.Proof = true, 1, true
	cfg.Preds = cfg.Preds[:1] // one system: the test's time budget
	_, res, _, _ := evalDemo(t, cfg, nil)
	solver := prove.DefaultSolver().Available()
	for _, s := range res.Systems {
		counts := map[string]int{}
		for _, r := range s.Records {
			if r.Verdict != record.Correct || r.TSEX == nil {
				if r.TSProof != "" {
					t.Errorf("%s #%d: ts_proof %q on a record that is not EX-correct", s.Name, r.Index, r.TSProof)
				}
				continue
			}
			counts[r.TSProof]++
			switch {
			case r.Proof == nil:
				t.Errorf("%s #%d: ts_proof %q without its proof", s.Name, r.Index, r.TSProof)
			case !solver && (r.TSProof == "proven" || !strings.Contains(r.Proof.Reason, "z3")):
				t.Errorf("%s #%d: no solver, yet %s (%s)", s.Name, r.Index, r.TSProof, r.Proof.Reason)
			case r.TSProof == "proven" && r.Proof.Checked < 100 && !strings.HasPrefix(r.Proof.Reason, "the same query"):
				t.Errorf("%s #%d: proven after %d cross-checks", s.Name, r.Index, r.Proof.Checked)
			case r.TSProof == "refuted" && (r.Counterexample == nil || *r.TSEX != 0):
				t.Errorf("%s #%d: refuted without a refuting counterexample", s.Name, r.Index)
			case r.TSProof != "proven" && r.TSProof != "refuted" && r.TSProof != "unknown":
				t.Errorf("%s #%d: ts_proof %q", s.Name, r.Index, r.TSProof)
			}
		}
		var sum *metrics.TestSuiteSystem
		for i := range res.Summary.TestSuite.Systems {
			if res.Summary.TestSuite.Systems[i].System == s.Name {
				sum = &res.Summary.TestSuite.Systems[i]
			}
		}
		if sum == nil || sum.Proven != counts["proven"] || sum.Refuted != counts["refuted"] || sum.ProofUnknown != counts["unknown"] {
			t.Errorf("%s: summary %+v, records %v", s.Name, sum, counts)
		}
		if solver && counts["proven"] == 0 {
			t.Errorf("%s: nothing proven with z3 present: %v", s.Name, counts)
		}
		t.Logf("%s: %v", s.Name, counts)
	}
}
