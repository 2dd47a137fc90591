package match

import (
	"context"
	"slices"
	"testing"
)

// TestClauseDiff checks which clauses result_diff names against hand-read pairs.
func TestClauseDiff(t *testing.T) {
	tests := []struct {
		name, pred, gold string
		want             []string
	}{
		{"identical", "SELECT name FROM singer", "SELECT name FROM singer", nil},
		{"select and where", "SELECT age FROM singer", "SELECT name FROM singer WHERE age > 3", []string{"select", "where"}},
		{"group and having", "SELECT country, count(*) FROM singer GROUP BY country",
			"SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 1", []string{"having"}},
		{"order limit", "SELECT name FROM singer ORDER BY age DESC", "SELECT name FROM singer ORDER BY age DESC LIMIT 1", []string{"order/limit"}},
		{"set op", "SELECT name FROM singer UNION SELECT name FROM stadium",
			"SELECT name FROM singer INTERSECT SELECT name FROM stadium", []string{"set_op"}},
		// Columns are table-qualified, so another table changes select too.
		{"from", "SELECT name FROM stadium", "SELECT name FROM singer", []string{"select", "from/join"}},
		{"does not parse", "SELEC name FROM", "SELECT name FROM singer", nil},
	}
	s, fk := testSchema(), testFK()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := PrepareGold(tt.gold, s, fk, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, _, got, err := g.matchDetail(context.Background(), PredText(tt.pred), s, fk, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("clauses %q, want %q", got, tt.want)
			}
		})
	}
}
