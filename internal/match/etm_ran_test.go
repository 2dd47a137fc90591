package match

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// countingRan counts the texts a RanChecker vouched for.
type countingRan struct {
	RanChecker
	hits int
}

func (c *countingRan) Ran(path, q string) bool {
	ok := c.RanChecker.Ran(path, q)
	if ok {
		c.hits++
	}
	return ok
}

// TestETMRanSkipsPrepare: ETM trusting the judge's engine (a text it ran without error
// on the same file is not prepared again) gives every Spider dev prediction of the seven
// systems the same verdict, rules and reason as ETM preparing everything itself. And the
// promise the skip rests on holds for every text: what the engine ran, ETM's own
// connection prepares. The raw prediction lines (untrimmed, some ending in ";") and the
// gold queries are run as the judge runs them.
func TestETMRanSkipsPrepare(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ETM twice over seven systems")
	}
	dev := testutil.SpiderDev(t)
	eng := engine.NewSQLite()
	defer eng.Close()
	ctx := context.Background()
	plain := map[string]*ETMDB{} // no skip
	fast := map[string]*ETMDB{}  // the skip, through the engine
	counter := &countingRan{RanChecker: eng}
	open := func(m map[string]*ETMDB, path string, ran RanChecker) *ETMDB {
		if d := m[path]; d != nil {
			return d
		}
		d, err := OpenETMDB(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		d.ran = ran
		m[path] = d
		return d
	}
	compared := 0
	for _, sys := range []string{"C3", "DAIL", "DIN", "RASAT+PICARD", "RESDSQL", "SuperSQL", "codeS"} {
		b, err := os.ReadFile(testutil.Shared(t, "data/spider/predictions/"+sys+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		for i, q := range dev {
			if i >= len(lines) {
				break
			}
			path := testutil.SpiderDB(t, q.DBID)
			if _, err := os.Stat(path); err != nil {
				continue // a database Spider's release lacks (wta_1): ETM never runs on it
			}
			raw, _, _ := strings.Cut(lines[i], "\t")
			for _, text := range []string{q.Query, raw, strings.TrimSpace(raw)} {
				if _, err := eng.Query(ctx, path, text, engine.Limits{}); err != nil {
					continue
				}
				// The promise: ETM's own connection prepares what the engine ran (ETM
				// only asks about trimmed texts).
				if text == strings.TrimSpace(text) && !open(plain, path, nil).prepares(ctx, text) {
					t.Errorf("%s #%d: the engine ran %q but ETM's connection does not prepare it", sys, i, text)
				}
			}
			want := open(plain, path, nil).Compare(ctx, raw, q.Query)
			got := open(fast, path, counter).Compare(ctx, raw, q.Query)
			compared++
			if got.Match != want.Match || got.Reason != want.Reason || strings.Join(got.Rules, ",") != strings.Join(want.Rules, ",") {
				t.Errorf("%s #%d: with the skip %+v, without %+v\n  pred: %s", sys, i, got, want, raw)
			}
		}
	}
	if counter.hits == 0 {
		t.Fatal("the engine vouched for no text: the skip was never taken")
	}
	t.Logf("%d comparisons, %d prepares skipped", compared, counter.hits)
}
