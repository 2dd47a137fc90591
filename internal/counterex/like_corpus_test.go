package counterex

import (
	"context"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/prove"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// likePair is one pair of the LIKE corpus: equivalent on every database the data's
// profile allows, or not (differing on some such database: why says which).
type likePair struct {
	db, gold, pred string
	equivalent     bool
	why            string
}

// likeCorpus tries to break the proof's LIKE (internal/prove/like.go) on real Spider
// databases: ASCII case, '_' against '%', NULL, ESCAPE, and a pattern against an
// equality.
var likeCorpus = []likePair{
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE 'S%'", "SELECT StuID FROM Student WHERE LName LIKE 'S_%'", false, "a last name 'S': '_' needs a character"},
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE '%mi%'", "SELECT StuID FROM Student WHERE LName LIKE 'Smi%'", false, "'Amis' contains mi, starts otherwise"},
	{"pets_1", "SELECT StuID FROM Student WHERE city_code LIKE 'P__'", "SELECT StuID FROM Student WHERE city_code LIKE 'P%'", false, "a city code 'PA' or 'PITT'"},
	{"pets_1", "SELECT StuID FROM Student WHERE Fname LIKE 'eric'", "SELECT StuID FROM Student WHERE Fname = 'Eric'", false, "a first name 'ERIC' (LIKE folds case, = does not)"},
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE 'S!%' ESCAPE '!'", "SELECT StuID FROM Student WHERE LName = 'S%'", false, "ESCAPE is outside the subset; a last name 's%' (LIKE folds case)"},
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE '%e%'", "SELECT StuID FROM Student WHERE LName LIKE '%e'", false, "'Lee' ends in e, 'Kern' only contains it"},
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE 'Sm_th'", "SELECT StuID FROM Student WHERE LName = 'Smith'", false, "'Smyth'"},
	{"world_1", "SELECT Name FROM country WHERE HeadOfState NOT LIKE '%a%'", "SELECT Name FROM country WHERE HeadOfState IS NULL OR HeadOfState NOT LIKE '%a%'", false, "a country without a head of state (one in the data): NOT LIKE of NULL is NULL"},
	{"world_1", "SELECT Name FROM country WHERE HeadOfState LIKE '%'", "SELECT Name FROM country", false, "NULL LIKE '%' is NULL"},
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE 's%'", "SELECT StuID FROM Student WHERE LName LIKE 'S%'", true, "LIKE folds ASCII case"},
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE 'Smith'", "SELECT StuID FROM Student WHERE LName LIKE 'SMITH'", true, "LIKE folds ASCII case"},
	{"pets_1", "SELECT StuID FROM Student WHERE LName LIKE 'a%%b'", "SELECT StuID FROM Student WHERE LName LIKE 'A%B'", true, "'%%' is '%'"},
	{"pets_1", "SELECT StuID FROM Student WHERE Fname LIKE '%'", "SELECT StuID FROM Student WHERE Fname IS NOT NULL", true, "'%' matches every text"},
	{"pets_1", "SELECT count(*) FROM Student WHERE NOT LName LIKE 'S%'", "SELECT count(*) FROM Student WHERE LName NOT LIKE 'S%'", true, "NOT x LIKE p is x NOT LIKE p"},
	{"pets_1", "SELECT StuID FROM Student WHERE Sex NOT LIKE 'M'", "SELECT StuID FROM Student WHERE Sex = 'F'", true, "Sex is F or M in the data, never NULL"},
	{"concert_singer", "SELECT Name FROM singer WHERE Country LIKE 'France'", "SELECT Name FROM singer WHERE Country = 'France'", true, "the data spells every country one way; 'france' would be another case"},
	{"concert_singer", "SELECT Name FROM singer WHERE Country LIKE 'U%'", "SELECT Name FROM singer WHERE Country = 'United States'", true, "three countries in the data, one starts with U"},
}

// TestProofLikeCorpus: no inequivalent LIKE pair is proven, every proof survives the
// cross-check on SQLite, and the equivalent pairs proven are counted.
func TestProofLikeCorpus(t *testing.T) {
	t.Parallel()
	if !prove.DefaultSolver().Available() {
		t.Skip("z3 not installed (CI installs it: .ci/run)")
	}
	testutil.Shared(t, "data/spider/database")
	s := New(Options{Seed: 7, Semantics: judge.Bird, Proof: ProofOptions{On: true}})
	defer s.Close()
	outs := make([]*ProofOutcome, len(likeCorpus))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 2)
	for i, p := range likeCorpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			po, _, err := s.proveOnly(context.Background(), testutil.SpiderDB(t, p.db), i, []string{p.gold}, p.pred)
			if err != nil {
				po = &ProofOutcome{Status: prove.Unknown, Reason: err.Error()}
			}
			outs[i] = po
		}()
	}
	wg.Wait()
	proven, equiv := 0, 0
	for i, p := range likeCorpus {
		o := outs[i]
		t.Logf("%v %s (%s): %s vs %s", p.equivalent, o.Status, o.Reason, p.gold, p.pred)
		switch {
		case !p.equivalent && o.Status == prove.Proven:
			t.Errorf("proven but inequivalent (%s):\n  gold %s\n  pred %s", p.why, p.gold, p.pred)
		case o.Status == prove.Proven && o.Checked < crossChecks:
			t.Errorf("%s: proven after only %d cross-checks", p.pred, o.Checked)
		case p.equivalent && o.Status == prove.Refuted:
			t.Errorf("equivalent pair refuted (%s):\n  gold %s\n  pred %s", o.Reason, p.gold, p.pred)
		}
		if p.equivalent {
			equiv++
			if o.Status == prove.Proven {
				proven++
			}
		}
	}
	t.Logf("equivalent LIKE pairs proven: %d of %d", proven, equiv)
	if proven == 0 {
		t.Errorf("no equivalent LIKE pair proven")
	}
}
