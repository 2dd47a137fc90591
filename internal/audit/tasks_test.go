package audit

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
)

// TestTodaysDate: a Query's answer depends on the day wherever it reads the date; a
// Management turn's only where it compares or computes on it, not where it stores it.
func TestTodaysDate(t *testing.T) {
	tests := []struct {
		cat  taskset.Category
		sql  string
		want string
	}{
		{taskset.Query, "SELECT title FROM p WHERE seen >= NOW() - INTERVAL '30 day'", "NOW()"},
		{taskset.Query, "SELECT age(current_date, born) FROM u", "CURRENT_DATE"},
		{taskset.Query, "SELECT 1 -- as of NOW()\n", ""},
		{taskset.Query, "SELECT 'current_dates' AS x, nowhere FROM t", ""},
		{taskset.Management, "INSERT INTO p (id, created_at) VALUES (1, NOW())", ""},
		{taskset.Management, "UPDATE p SET updated_at = CURRENT_TIMESTAMP WHERE id = 1", ""},
		{taskset.Management, "DELETE FROM s WHERE last_login < (CURRENT_TIMESTAMP - INTERVAL '180 day')", "CURRENT_TIMESTAMP"},
		{taskset.Management, "UPDATE u SET flag = true WHERE EXTRACT(YEAR FROM now()) - y > 2", "NOW()"},
	}
	for _, tt := range tests {
		if got := todaysDate(tt.cat, []string{tt.sql}); got != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.cat, tt.sql, got, tt.want)
		}
	}
}
