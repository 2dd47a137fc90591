package match

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFiredRulesOracle: the bit set lists what a map of ids sorted by compareRuleIDs
// lists (the form it replaced), for random sets of Table 5 ids, ids outside Table 5, and
// no id at all (nil, as before).
func TestFiredRulesOracle(t *testing.T) {
	seen := map[uint]string{}
	for _, id := range ruleIDs {
		b, ok := ruleBit(id)
		if !ok || b >= 64 {
			t.Fatalf("ruleBit(%q) = %d, %v", id, b, ok)
		}
		if other, dup := seen[b]; dup {
			t.Fatalf("%q and %q share bit %d", id, other, b)
		}
		seen[b] = id
	}
	if !slices.IsSortedFunc(ruleIDs, compareRuleIDs) || len(ruleIDs) != 35 {
		t.Fatalf("ruleIDs %v: want P0..P8, 1..26 in compareRuleIDs order", ruleIDs)
	}
	for _, id := range []string{"", "P", "P9", "0", "27", "30", "100", "x"} {
		if _, ok := ruleBit(id); ok {
			t.Errorf("ruleBit(%q) accepted an id outside Table 5", id)
		}
	}
	pool := append(slices.Clone(ruleIDs), "27", "P9", "99")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		var f firedRules
		m := map[string]bool{}
		for range r.IntN(8) {
			id := pool[r.IntN(len(pool))]
			f.add(id)
			m[id] = true
		}
		var want []string
		for id := range m {
			want = append(want, id)
		}
		slices.SortFunc(want, compareRuleIDs)
		if got := f.ids(); !slices.Equal(got, want) || (want == nil) != (got == nil) {
			t.Fatalf("set %d: ids %q, want %q", i, got, want)
		}
	}
}
