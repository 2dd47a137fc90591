package report

import (
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// DetailsHas names what WriteDetails adds to WriteShort for this run (eval prints it as
// the hint to add --details): only what it has (a Spider 2.0 run has no ESM).
func DetailsHas(s *rundir.Summary) []string {
	var out []string
	if len(s.Systems) > 2 && s.VsBest != nil {
		out = append(out, "EX by difficulty")
	}
	out = append(out, "95% intervals")
	if s.Paired != nil {
		out = append(out, "paired tests")
	}
	if len(s.ESMPartial) > 0 {
		out = append(out, "ESM partial match")
	}
	if s.Modules != nil {
		out = append(out, "schema, candidates, usage")
	}
	if s.ETM != nil {
		out = append(out, "ETM")
	}
	if len(s.Spider2) > 0 {
		out = append(out, "Spider 2.0 modes")
	}
	return out
}

// WriteDetails prints every table summary.json has, for eval --details and merge: the
// full report (WriteTable), then each system against the best, the confidence intervals
// and the paired comparisons of the systems (docs/statistics.md), and the slices.
func WriteDetails(w io.Writer, sum *rundir.Summary) error {
	if err := WriteTable(w, sum); err != nil {
		return err
	}
	ts := append(StatsTables(sum), SliceTables(sum)...)
	if c := ComparisonTable(sum); c != nil {
		ts = append([]TextTable{*c}, ts...)
	}
	return WriteTextTables(w, ts)
}
