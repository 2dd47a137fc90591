package counterex

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/prove"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestProofCoincidentIdsNotAssumed: in Spider's orchestra every Orchestra_ID is also a
// Conductor_ID and every conductor conducts one orchestra, so the data "shows" the ids
// including each other; assumed, they made a join on the wrong key provably equal to the
// right one (an expert says it is wrong: an orchestra may have another conductor than
// the one numbered like it). Inclusions from a table's own key are not assumed.
func TestProofCoincidentIdsNotAssumed(t *testing.T) {
	t.Parallel()
	if !prove.DefaultSolver().Available() {
		t.Skip("z3 not installed (CI installs it: .ci/run)")
	}
	db := testutil.SpiderDB(t, "orchestra")
	// The solver's budget is a hang guard, not a margin: at the default second the right
	// join came back "solver: unknown" whenever the machine's load passed 10.
	s := New(Options{Seed: 7, Semantics: judge.Spider, Proof: ProofOptions{On: true, Budget: time.Minute}})
	defer s.Close()
	gold := "SELECT T1.Nationality, count(*) FROM conductor AS T1 JOIN orchestra AS T2 ON T1.Conductor_ID = T2.Conductor_ID GROUP BY T1.Nationality"
	for _, tc := range []struct {
		pred  string
		wrong bool
	}{
		{"SELECT T1.Nationality, count(*) FROM conductor AS T1 JOIN orchestra AS T2 ON T1.Conductor_ID = T2.Orchestra_ID GROUP BY T1.Nationality", true},
		{"SELECT c.Nationality, count(*) FROM orchestra AS o JOIN conductor AS c ON o.Conductor_ID = c.Conductor_ID GROUP BY c.Nationality", false},
	} {
		po, _, err := s.proveOnly(context.Background(), db, 1, []string{gold}, tc.pred)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s (%s)", tc.pred, po.Status, po.Reason)
		if tc.wrong && po.Status == prove.Proven {
			t.Errorf("the join on the wrong key was proven equivalent")
		}
		if !tc.wrong && po.Status != prove.Proven {
			t.Errorf("the right join in another spelling: %s (%s), want proven", po.Status, po.Reason)
		}
	}
}
