package match

import (
	"slices"
	"strconv"
)

// firedRules is the set of Table 5 rule ids that fired while normalising one query. The
// ids are a fixed small set ("P0".."P8", "1".."26"), so they are bits of one word rather
// than keys of a map built for every query; an id outside it (none today) goes to extra.
type firedRules struct {
	bits  uint64
	extra map[string]bool
}

// ruleIDs lists the ids a bit stands for, in compareRuleIDs order.
var ruleIDs = func() []string {
	var ids []string
	for i := range 9 {
		ids = append(ids, "P"+strconv.Itoa(i))
	}
	for i := 1; i <= 26; i++ {
		ids = append(ids, strconv.Itoa(i))
	}
	return ids
}()

// ruleBit is id's bit (false: not a Table 5 id).
func ruleBit(id string) (uint, bool) {
	switch {
	case len(id) == 2 && id[0] == 'P' && id[1] >= '0' && id[1] <= '8':
		return uint(id[1] - '0'), true
	case len(id) == 1 && id[0] >= '1' && id[0] <= '9':
		return uint(9 + id[0] - '1'), true
	case len(id) == 2 && id[0] >= '1' && id[0] <= '2' && id[1] >= '0' && id[1] <= '9':
		if n := int(id[0]-'0')*10 + int(id[1]-'0'); n <= 26 {
			return uint(9 + n - 1), true
		}
	}
	return 0, false
}

func (f *firedRules) add(id string) {
	if b, ok := ruleBit(id); ok {
		f.bits |= 1 << b
		return
	}
	if f.extra == nil {
		f.extra = map[string]bool{}
	}
	f.extra[id] = true
}

// ids lists the fired ids sorted by compareRuleIDs (nil when none fired).
func (f *firedRules) ids() []string {
	var out []string
	for b, id := range ruleIDs {
		if f.bits&(1<<uint(b)) != 0 {
			out = append(out, id)
		}
	}
	if len(f.extra) > 0 {
		for id := range f.extra {
			out = append(out, id)
		}
		slices.SortFunc(out, compareRuleIDs)
	}
	return out
}
