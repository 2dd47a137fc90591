package sqlast

import (
	"fmt"
	"testing"
)

// TestParseShared: the same text gives the same tree (or the same error as Parse); the
// cache keeps at most parseSharedSize texts and forgets the oldest first.
func TestParseShared(t *testing.T) {
	a, err := ParseShared("SELECT a FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := ParseShared("SELECT a FROM t"); b != a {
		t.Error("the same text was parsed twice")
	}
	if b, _ := ParseShared("SELECT a FROM t "); b == a {
		t.Error("another text (a trailing space) got the same tree")
	}
	_, want := Parse("SELEC a")
	if _, err := ParseShared("SELEC a"); err == nil || err.Error() != want.Error() {
		t.Errorf("error %v, want %v", err, want)
	}
	for i := range 2 * parseSharedSize {
		if _, err := ParseShared(fmt.Sprintf("SELECT %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	parseShared.mu.Lock()
	n := len(parseShared.m)
	_, oldest := parseShared.m["SELECT 0"]
	_, newest := parseShared.m[fmt.Sprintf("SELECT %d", 2*parseSharedSize-1)]
	parseShared.mu.Unlock()
	if n != parseSharedSize || oldest || !newest {
		t.Errorf("%d texts kept (want %d), oldest kept %v, newest kept %v", n, parseSharedSize, oldest, newest)
	}
}
