package counterex

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

func TestParseBudget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Budget
		bad  bool
	}{
		{"200", Budget{DBs: 200}, false},
		{"2s", Budget{Time: 2 * time.Second}, false},
		{"100,500ms", Budget{DBs: 100, Time: 500 * time.Millisecond}, false},
		{"0", Budget{}, true},
		{"soon", Budget{}, true},
		{"-3", Budget{}, true},
	} {
		got, err := ParseBudget(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("ParseBudget(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
		if err == nil {
			if back, _ := ParseBudget(got.String()); back != got {
				t.Errorf("%q: String %q does not read back", tc.in, got.String())
			}
		}
	}
}

// TestSearchIsDeterministic: the same seed and count budget give the same script,
// whichever Searcher (and so whichever worker) runs it; another seed may differ.
func TestSearchIsDeterministic(t *testing.T) {
	db := testutil.SpiderDB(t, "concert_singer")
	gold := "SELECT name FROM stadium ORDER BY capacity DESC LIMIT 1"
	pred := "SELECT name FROM stadium WHERE capacity = (SELECT max(capacity) FROM stadium)"
	var scripts []string
	for range 2 {
		s := New(Options{Seed: 5, Budget: Budget{DBs: 200}, Semantics: judge.Spider})
		out, err := s.Search(context.Background(), db, 6, []string{gold}, pred)
		s.Close()
		if err != nil || out.Found == nil {
			t.Fatalf("no counterexample: %v", err)
		}
		scripts = append(scripts, out.Found.Script)
	}
	if scripts[0] != scripts[1] {
		t.Errorf("same seed, different scripts:\n%s\n---\n%s", scripts[0], scripts[1])
	}
}

// TestVerifyRejects: a script whose data breaks a foreign key, or on which the two
// queries agree, is refused with the matching error.
func TestVerifyRejects(t *testing.T) {
	ctx := context.Background()
	schema := `PRAGMA foreign_keys = ON;
CREATE TABLE p (id INTEGER NOT NULL, PRIMARY KEY (id));
CREATE TABLE c (id INTEGER NOT NULL, pid INTEGER, PRIMARY KEY (id), FOREIGN KEY (pid) REFERENCES p (id));
`
	gold, pred := "SELECT count(*) FROM c", "SELECT count(*) FROM c WHERE pid > 1"
	if _, _, err := Verify(ctx, schema+"INSERT INTO c VALUES (1, 9);\n", []string{gold}, pred, judge.Bird); !errors.Is(err, ErrConstraint) {
		t.Errorf("dangling foreign key: %v, want ErrConstraint", err)
	}
	if _, _, err := Verify(ctx, schema+"INSERT INTO p VALUES (5);\nINSERT INTO c VALUES (1, 5);\n", []string{gold}, pred, judge.Bird); !errors.Is(err, ErrNotReproduced) {
		t.Errorf("equal results: %v, want ErrNotReproduced", err)
	}
	g, p, err := Verify(ctx, schema+"INSERT INTO p VALUES (1);\nINSERT INTO c VALUES (1, 1);\n", []string{gold}, pred, judge.Bird)
	if err != nil || g.Value(0, 0) != int64(1) || p.Value(0, 0) != int64(0) {
		t.Errorf("a real counterexample: %v %v %v", g, p, err)
	}
}

// TestNeighboursChangeOneThing: each neighbour differs from the gold, and the mutations
// named in the issue all appear for a query that has the parts they change.
func TestNeighboursChangeOneThing(t *testing.T) {
	gold := "SELECT DISTINCT T1.name FROM a AS T1 JOIN b AS T2 ON T1.id = T2.aid WHERE T2.x > 3 AND T2.y = 'k' ORDER BY count(*) LIMIT 2"
	nbs := neighbours(gold)
	want := []string{
		"SELECT T1.name FROM",     // DISTINCT dropped
		"LEFT JOIN",               // join kind
		"T2.x >= 3",               // operator
		"ORDER BY count(*) DESC",  // direction
		"COUNT(DISTINCT *)",       // aggregate (a broken neighbour is simply never killed)
		"LIMIT 3",                 // limit
		"WHERE T2.x > 3 ORDER BY", // conjunct dropped
		"T2.x > 3 OR T2.y = 'k'",  // AND -> OR
	}
	for _, w := range want {
		found := false
		for _, n := range nbs {
			if n == gold {
				t.Fatalf("neighbour equal to the gold")
			}
			if strings.Contains(n, w) {
				found = true
			}
		}
		if !found {
			t.Errorf("no neighbour contains %q among %d", w, len(nbs))
		}
	}
}
