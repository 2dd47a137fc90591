package counterex

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/prove"
)

// affinityDB is a database whose TEXT column holds numeric texts ('1', '01', ' 3',
// '3.0') beside others, next to an INTEGER column: the pairs below differ only by
// SQLite's affinity rules (internal/prove/affinity.go).
func affinityDB(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "affinity.sqlite")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{"CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT NOT NULL, qty INTEGER NOT NULL, label TEXT)"}
	codes := []string{"1", "01", "2", "abc", " 3", "3.0", "x7", "10", "2.5", "B-12"}
	for i := 0; i < 40; i++ {
		code := codes[i%len(codes)]
		if i >= len(codes) {
			code = fmt.Sprintf("%s-%d", code, i)
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO item VALUES (%d, '%s', %d, 'l%d')", i+1, code, i%7, i%5))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// affinityCorpus: pairs that differ only by affinity (equivalent: false) must never be
// proven; the equivalent ones were checked on SQLite by hand.
var affinityCorpus = []struct {
	gold, pred string
	equivalent bool
	why        string
}{
	{"SELECT id FROM item WHERE code = 1", "SELECT id FROM item WHERE code = '01'", false, "TEXT affinity makes 1 the text '1', not '01'"},
	{"SELECT id FROM item WHERE code = 1", "SELECT id FROM item WHERE code = 1.0", false, "1.0 becomes the text '1.0'"},
	{"SELECT id FROM item WHERE code = 1", "SELECT id FROM item WHERE +code = 1", false, "+code has no affinity: text never equals a number"},
	{"SELECT id FROM item WHERE qty = '1'", "SELECT id FROM item WHERE +qty = '1'", false, "+qty has no affinity: '1' stays text"},
	{"SELECT id FROM item WHERE code = qty", "SELECT id FROM item WHERE +code = +qty", false, "without affinity no text equals a number; with it '01' equals 1"},
	{"SELECT id FROM item WHERE code = qty", "SELECT id FROM item WHERE code = '1' AND qty = 1", false, "'01' equals 1 under NUMERIC affinity"},
	{"SELECT id FROM item WHERE code IN (SELECT qty FROM item)", "SELECT id FROM item WHERE code IN (SELECT qty * 1 FROM item)", false, "the subquery's column has INTEGER affinity, then none: '01' matches 1, then only '1'"},
	{"SELECT i.id FROM item AS i JOIN (SELECT qty AS q FROM item) AS s ON i.code = s.q", "SELECT i.id FROM item AS i JOIN (SELECT qty + 0 AS q FROM item) AS s ON i.code = s.q", false, "a FROM subquery's column has its expression's affinity"},
	{"SELECT id FROM item WHERE (SELECT code FROM item WHERE id = 2) = 1", "SELECT id FROM item WHERE (SELECT +code FROM item WHERE id = 2) = 1", false, "the scalar subquery of code has TEXT affinity, of +code none"},
	{"SELECT id FROM item WHERE code = (SELECT qty FROM item WHERE id = 2)", "SELECT id FROM item WHERE code = (SELECT max(qty) FROM item WHERE id = 2)", false, "qty's affinity against none: '01' matches 1 only in the first"},
	{"SELECT id FROM item WHERE code < 2", "SELECT id FROM item WHERE code < '2' AND code <> '10'", false, "'10' < '2' as text"},
	{"SELECT id FROM item WHERE code = 1", "SELECT id FROM item WHERE code = '1'", true, "TEXT affinity applied to 1"},
	{"SELECT id FROM item WHERE qty = '01'", "SELECT id FROM item WHERE qty = 1", true, "NUMERIC affinity applied to '01'"},
	{"SELECT id FROM item WHERE qty = ' 3'", "SELECT id FROM item WHERE qty = 3.0", true, "spaces around a number are allowed"},
	{"SELECT id FROM item WHERE code = qty", "SELECT id FROM item WHERE qty = code", true, "symmetric"},
	{"SELECT id FROM item WHERE +code = qty", "SELECT id FROM item WHERE code = qty", true, "NUMERIC applies to an operand of no affinity too"},
	{"SELECT id FROM item WHERE code IN (1, 2)", "SELECT id FROM item WHERE code IN ('1', '2')", true, "TEXT affinity applied to the list"},
	{"SELECT id FROM item WHERE qty IN ('1', ' 2')", "SELECT id FROM item WHERE qty IN (1, 2)", true, "NUMERIC affinity applied to the list"},
	{"SELECT id FROM item WHERE qty < 'a'", "SELECT id FROM item", true, "every number sorts below every text"},
	{"SELECT id FROM item WHERE code = (SELECT qty FROM item WHERE id = 2)", "SELECT id FROM item WHERE (SELECT qty FROM item WHERE id = 2) = code", true, "symmetric, with the subquery's affinity"},
}

// TestProofAffinityCorpus: no pair that differs only by affinity is proven, every proof
// survives the cross-check on SQLite, and the equivalent pairs proven are counted.
func TestProofAffinityCorpus(t *testing.T) {
	t.Parallel()
	if !prove.DefaultSolver().Available() {
		t.Skip("z3 not installed (CI installs it: .ci/run)")
	}
	db := affinityDB(t)
	// A generous budget: the pairs are small, and a timeout under load would hide a proof.
	s := New(Options{Seed: 7, Semantics: judge.Spider, Proof: ProofOptions{On: true, Budget: 30 * time.Second}})
	defer s.Close()
	outs := make([]*ProofOutcome, len(affinityCorpus))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 2)
	for i, p := range affinityCorpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			po, _, err := s.proveOnly(context.Background(), db, i, []string{p.gold}, p.pred)
			if err != nil {
				po = &ProofOutcome{Status: prove.Unknown, Reason: err.Error()}
			}
			outs[i] = po
		}()
	}
	wg.Wait()
	proven, equiv := 0, 0
	for i, p := range affinityCorpus {
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
	t.Logf("equivalent affinity pairs proven: %d of %d", proven, equiv)
	if proven == 0 {
		t.Errorf("no equivalent affinity pair proven")
	}
}
