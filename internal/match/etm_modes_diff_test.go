package match

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

var updateETMModes = flag.Bool("update-etm-modes", false, "rewrite testdata/etm_mode_diffs.txt")

// TestETMModeDiffs lists, by deciding quirk, every visible reference row where corrected
// mode differs from official mode (docs/etm-modes.md quotes it). The list is a golden
// file: a change to either mode that moves a verdict shows here. Official mode itself is
// held to the script by TestETMConformance, so each official value here is the script's.
func TestETMModeDiffs(t *testing.T) {
	byRule := map[string][]string{}
	for _, s := range etmSuites() {
		cases := s.cases(t)
		dbs := etmDBs(t, cases)
		for _, c := range cases {
			_, corr, diff := dbs[c.dbPath].CompareModes(context.Background(), c.pred, c.gold)
			if diff == nil {
				continue
			}
			if diff.Official != c.want {
				t.Errorf("%s #%d: official %d, script %d", s.name, c.index, diff.Official, c.want)
			}
			byRule[diff.Rule] = append(byRule[diff.Rule], fmt.Sprintf("%s #%d: official %d, corrected %d", s.name, c.index, diff.Official, b2i(corr.Match)))
		}
	}
	var rules []string
	for r := range byRule {
		rules = append(rules, r)
	}
	slices.Sort(rules)
	var b strings.Builder
	for _, r := range rules {
		fmt.Fprintf(&b, "%s (%d)\n", r, len(byRule[r]))
		for _, line := range byRule[r] {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	t.Logf("corrected vs official:\n%s", b.String())
	testutil.Golden(t, "etm_mode_diffs.txt", []byte(b.String()), *updateETMModes)
}
