package slicing

import (
	"fmt"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestGroupPairsCapped: a slice group compares every two systems up to
// metrics.MaxPairedSystems and none past it, so the slices section grows linearly in
// systems (issue 45, failure 6: quadratic growth per group made summary.json 289 MiB at
// 200 systems).
func TestGroupPairsCapped(t *testing.T) {
	m := &metrics.Declared(metrics.Options{})[0]
	for _, n := range []int{3, metrics.MaxPairedSystems + 1} {
		systems := make([]metrics.SystemRecords, n)
		pos := make([]map[int]int, n)
		for k := range systems {
			recs := make([]record.Record, 10)
			pos[k] = map[int]int{}
			for i := range recs {
				recs[i] = record.Record{Index: i, Verdict: record.Incorrect}
				if i < k%10 {
					recs[i].Verdict, recs[i].ExBird, recs[i].ExSpider = record.Correct, 1, 1
				}
				pos[k][i] = i
			}
			systems[k] = metrics.SystemRecords{Name: fmt.Sprintf("s%d", k), Records: recs}
		}
		g := group(m, "all", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, systems, pos)
		want := n * (n - 1) / 2
		if n > metrics.MaxPairedSystems {
			want = 0
		}
		if len(g.Paired) != want || len(g.Systems) != n {
			t.Errorf("%d systems: %d pairs, %d systems; want %d pairs", n, len(g.Paired), len(g.Systems), want)
		}
	}
}
