package testutil

import (
	"strconv"
	"strings"
)

// InList is SELECT name FROM table WHERE column IN (0, 1, ..., n-1): the long IN list
// the structural-match budget tests judge.
func InList(table, column string, n int) string {
	var b strings.Builder
	b.WriteString("SELECT name FROM " + table + " WHERE " + column + " IN (")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString(")")
	return b.String()
}
