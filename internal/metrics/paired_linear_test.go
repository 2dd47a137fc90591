package metrics

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// manySystems is n systems on 100 questions, system k right on the first k%90+5.
func manySystems(n int) []SystemRecords {
	srs := make([]SystemRecords, n)
	for k := range srs {
		recs := make([]record.Record, 100)
		for i := range recs {
			recs[i] = record.Record{Index: i, Difficulty: "easy", Verdict: record.Incorrect}
			if i < k%90+5 {
				recs[i].Verdict, recs[i].ExSpider, recs[i].ExBird = record.Correct, 1, 1
			}
		}
		srs[k] = SystemRecords{Name: fmt.Sprintf("s%03d", k), Records: recs}
	}
	return srs
}

// TestPairedGrowsLinearly: past MaxPairedSystems the paired section keeps only the
// pairs with each headline metric's best system, so its JSON grows linearly in systems
// (200 systems made summary.json 289 MiB, which report and verify refused: issue 45,
// failure 6); vs_best still compares every system with the best; at or under the cap
// every pair is kept.
func TestPairedGrowsLinearly(t *testing.T) {
	ms := Declared(Options{})
	size := map[int]int{}
	for _, n := range []int{MaxPairedSystems, 40, 80} {
		srs := manySystems(n)
		sec := Aggregate(ms, srs)
		p := Paired(ms, sec, srs)
		if n <= MaxPairedSystems && len(p.Pairs) != n*(n-1)/2 {
			t.Errorf("%d systems: %d pairs, want every one (%d)", n, len(p.Pairs), n*(n-1)/2)
		}
		if n > MaxPairedSystems && len(p.Pairs) > 2*n {
			t.Errorf("%d systems: %d pairs, want at most %d", n, len(p.Pairs), 2*n)
		}
		vb := VsBest(ms, sec, p)
		if vb == nil || len(vb.Metrics) == 0 || len(vb.Metrics[0].Rows) != n-1 {
			t.Fatalf("%d systems: vs_best %+v, want every other system compared with the best", n, vb)
		}
		b, _ := json.Marshal(p)
		size[n] = len(b)
	}
	if r := float64(size[80]) / float64(size[40]); r > 2.2 {
		t.Errorf("paired section: %d bytes at 40 systems, %d at 80 (x%.1f), want linear growth", size[40], size[80], r)
	}
}
