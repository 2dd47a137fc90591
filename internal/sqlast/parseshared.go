package sqlast

import "sync"

// ETM and schema linking both parse each prediction: ETM to normalise it, linking to
// extract the schema it uses. ParseShared lets the second take the first's tree. It is
// safe because neither changes the tree it is given (TestParseSharedUnchanged checks it
// over the Spider predictions), and Parse is a pure function of the text.

// parseSharedSize is how many recent texts ParseShared keeps: a question's predictions
// are parsed by ETM and then by linking in the same worker, a few dozen parses apart at
// most with two workers.
const parseSharedSize = 128

type parsed struct {
	q   *Query
	err error
}

var parseShared struct {
	mu   sync.Mutex
	m    map[string]parsed
	ring [parseSharedSize]string // keys of m, oldest replaced first
	next int
}

// ParseShared is Parse, remembering the last few texts: the same text (byte for byte)
// gives the same *Query, shared, or the same error. Its tree must not be modified.
func ParseShared(sql string) (*Query, error) {
	parseShared.mu.Lock()
	if p, ok := parseShared.m[sql]; ok {
		parseShared.mu.Unlock()
		return p.q, p.err
	}
	parseShared.mu.Unlock()
	q, err := Parse(sql)
	parseShared.mu.Lock()
	defer parseShared.mu.Unlock()
	if parseShared.m == nil {
		parseShared.m = make(map[string]parsed, parseSharedSize)
	}
	if _, ok := parseShared.m[sql]; !ok {
		if len(parseShared.m) >= parseSharedSize { // full: the slot holds the oldest key
			delete(parseShared.m, parseShared.ring[parseShared.next])
		}
		parseShared.ring[parseShared.next] = sql
		parseShared.next = (parseShared.next + 1) % parseSharedSize
		parseShared.m[sql] = parsed{q, err}
	}
	return q, err
}
