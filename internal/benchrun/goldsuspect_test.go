package benchrun

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// tieDB writes a SQLite file whose singer table has the given ages.
func tieDB(tb testing.TB, ages ...int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "s.sqlite")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE singer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL)`); err != nil {
		tb.Fatal(err)
	}
	for i, a := range ages {
		if _, err := db.Exec(`INSERT INTO singer VALUES (?, ?, ?)`, i+1, string(rune('a'+i)), a); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// TestGoldSuspectNamesAuditFinding: a gold-suspect counterexample (issue 43) names the
// gold audit's finding on the original data: limit_tie when the real rows already tie
// under the gold's LIMIT, "none" when only the synthetic database ties. Records
// without a gold-suspect counterexample are left alone.
func TestGoldSuspectNamesAuditFinding(t *testing.T) {
	t.Parallel()
	const gold = "SELECT name FROM singer ORDER BY age LIMIT 1"
	for _, tc := range []struct {
		name    string
		ages    []int
		suspect string
		want    string // the linked check; "" for no link
	}{
		{"real tie", []int{20, 20, 31}, "tie on age under the gold's LIMIT 1", "limit_tie"},
		{"synthetic tie only", []int{20, 25, 31}, "tie on age under the gold's LIMIT 1", "none"},
		{"not gold suspect", []int{20, 20, 31}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := tieDB(t, tc.ages...)
			g := newGoldSuspectLinker(Config{Timeout: 10 * time.Second, MaxRows: 1000})
			defer g.Close()
			q := &dataset.Question{Index: 3, ID: "3", DBID: "s", Text: "Who is the youngest singer?", Gold: []string{gold}}
			rec := &record.Record{Index: 3}
			rec.Counterexample = &record.Counterexample{Kind: "realistic", GoldSuspect: tc.suspect}
			if err := g.Annotate(context.Background(), q, db, rec); err != nil {
				t.Fatal(err)
			}
			got := rec.Counterexample.GoldSuspectAudit
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("linked %+v to a record that is not gold suspect", got)
			case tc.want != "" && (got == nil || got.Check != tc.want):
				t.Errorf("linked %+v; want check %q", got, tc.want)
			case tc.want == "limit_tie" && !strings.Contains(got.Evidence, "age"):
				t.Errorf("evidence %q does not name the tied key", got.Evidence)
			}
		})
	}
}
