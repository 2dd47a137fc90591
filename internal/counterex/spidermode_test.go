package counterex

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestSearchHonoursSpiderMode: Spider's official rewrite drops DISTINCT inside an
// aggregate, so under --spider-mode official count(DISTINCT country) and count(country)
// are one query and no counterexample exists; under corrected they differ, the search
// finds it, and Verify re-runs the script under the same mode (its header says so).
func TestSearchHonoursSpiderMode(t *testing.T) {
	db := testutil.SpiderDB(t, "concert_singer")
	gold, pred := "SELECT count(DISTINCT country) FROM singer", "SELECT count(country) FROM singer"
	for _, c := range []struct {
		mode  judge.SpiderMode
		found bool
	}{{judge.SpiderOfficial, false}, {judge.SpiderCorrected, true}} {
		s := New(Options{Seed: 3, Budget: Budget{DBs: 200}, Semantics: judge.Spider, SpiderMode: c.mode})
		out, err := s.Search(context.Background(), db, 1, []string{gold}, pred)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if (out.Found != nil && out.Found.Refutes()) != c.found {
			t.Fatalf("%s: found %v, want %v", c.mode, out.Found, c.found)
		}
		if !c.found {
			continue
		}
		if !strings.Contains(out.Found.Script, correctedMark) {
			t.Errorf("script header does not name the mode:\n%s", out.Found.Script)
		}
		if _, _, err := Verify(context.Background(), out.Found.Script, []string{gold}, pred, judge.Spider); err != nil {
			t.Errorf("verify: %v", err)
		}
	}
}
