package match

import "testing"

// TestJoinFactsCopy: a prediction's join facts start as a copy of the gold's (seed) and
// what the prediction learns never reaches the seed, whether the seed is nil, empty or
// holds facts; the maps are allocated lazily, so learning into an unset map works.
func TestJoinFactsCopy(t *testing.T) {
	gold := newJoinFacts(nil)
	if gold.size() != 0 || gold.unique["a.x"] {
		t.Fatalf("fresh facts %+v, want none", gold)
	}
	learn(&gold.unique, "a.x")
	for _, seed := range []*joinFacts{nil, {unique: map[string]bool{}}, gold} {
		before := seed.size()
		f := newJoinFacts(seed)
		if f.size() != before {
			t.Errorf("copy of %+v has %d facts, want %d", seed, f.size(), before)
		}
		learn(&f.unique, "b.y")
		learn(&f.notNull, "c.z")
		learn(&f.notNull, "c.z")
		if !f.unique["b.y"] || !f.notNull["c.z"] || f.size() != before+2 {
			t.Errorf("learnt facts %+v, want %d facts with b.y and c.z", f, before+2)
		}
		if seed.size() != before || (seed != nil && seed.unique["b.y"]) {
			t.Errorf("learning reached the seed: %+v", seed)
		}
		if seed == gold && !f.unique["a.x"] {
			t.Errorf("copy %+v lost the gold's a.x", f)
		}
	}
}
