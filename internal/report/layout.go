package report

import (
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// The HTML tables' cells carry their column's header (data-label) so that at phone
// width, where style.css turns every score table's rows into cards, each value is
// shown beside its label without sideways scrolling; a value's interval is its own
// span, so a narrow column breaks a cell between the value and the interval, never
// inside either.

func colLabel(cols []metrics.Definition, i int) string {
	if i < len(cols) {
		return cols[i].Label
	}
	return ""
}

// diffLabel is the difficulty of cell i of a by-difficulty row: the difficulties, then "all".
func diffLabel(ds []string, i int) string {
	if i < len(ds) {
		return ds[i]
	}
	return "all"
}

func headLabel(head []string, i int) string {
	if i < len(head) {
		return head[i]
	}
	return ""
}

// splitCI splits "83.23 [80.81, 85.40]" into the value and its interval; any other text
// comes back whole.
func splitCI(s string) []string {
	if k := strings.Index(s, " ["); k > 0 && strings.HasSuffix(s, "]") {
		return []string{s[:k], s[k+1:]}
	}
	return []string{s}
}
