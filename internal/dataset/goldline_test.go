package dataset

import (
	"errors"
	"strings"
	"testing"
)

// TestGoldLineQuestion: a gold .sql line splits at its last tab; a line without one is
// ErrMissing naming the file, the line and the expected layout.
func TestGoldLineQuestion(t *testing.T) {
	for _, c := range []struct {
		line, db string
		gold     []string
		err      string
	}{
		{"SELECT 1\tdb1", "db1", []string{"SELECT 1"}, ""},
		{"SELECT 'a\tb' \t db2 ", "db2", []string{"SELECT 'a\tb'"}, ""},
		{"\tdb3", "db3", nil, ""},
		{"SELECT 1", "", nil, `gold.sql:7: question 3: want "SQL<TAB>db_id", found no tab`},
	} {
		q, err := goldLineQuestion("gold.sql", 7, 3, c.line, `"SQL<TAB>db_id"`)
		if c.err != "" {
			if err == nil || !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want ErrMissing with %q", c.line, err, c.err)
			}
			continue
		}
		if err != nil || q.Index != 3 || q.ID != "3" || q.DBID != c.db || strings.Join(q.Gold, "|") != strings.Join(c.gold, "|") || len(q.Gold) != len(c.gold) {
			t.Errorf("%q: got %+v, %v; want db %q gold %q", c.line, q, err, c.db, c.gold)
		}
	}
}
