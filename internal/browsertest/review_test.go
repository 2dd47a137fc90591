package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestBrowserReview drives headless Chromium through recording a review in `serve`: open a
// question the demo's baseline gets wrong, accept baseline's prediction through the form,
// see EX reviewed above EX raw; then stop the server, remove reviewed.json, start it again
// on the same run directory and see the review (from reviews.jsonl) still applied. No
// console error or CSP violation on the way.
func TestBrowserReview(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
	exe := findChromium()
	if exe == "" {
		t.Skip("no chromium binary found (install Debian's chromium, as .ci/run does, or set NL2SQLBENCH_CHROME): skipping the browser test")
	}
	root := t.TempDir()
	runDir := filepath.Join(root, "runs", "demo")
	runCLI(t, "demo", "--cache", filepath.Join(root, "cache"), "--out", runDir)
	idx := incorrectQuestion(t, runDir, "baseline")
	ctx, problems := browser(t, exe)

	base, stop := startServeStop(t, filepath.Join(root, "runs"))
	do(t, ctx, "open the run", chromedp.Navigate(base+"run/demo/"), chromedp.WaitVisible(chromedp.ID("qlist")))
	do(t, ctx, "open the drill-down", chromedp.Navigate(base+"run/demo/q/"+strconv.Itoa(idx)), chromedp.WaitVisible(chromedp.ID("review-form")))
	if n := eval[int](t, ctx, `document.querySelectorAll("#rv-scores table").length`); n != 0 {
		t.Fatalf("a run without reviews shows %d reviewed-score tables", n)
	}
	fill := `(() => {
		document.getElementById("rv-decision").value = "accept";
		document.getElementById("rv-system").value = "baseline";
		document.getElementById("rv-note").value = "reviewed in the browser test";
		return true })()`
	eval[bool](t, ctx, fill)
	do(t, ctx, "submit the review", chromedp.Click(chromedp.ID("rv-submit")), chromedp.WaitVisible(chromedp.CSS("#rv-scores table")))
	raw, reviewed := baselineScores(t, ctx)
	t.Logf("baseline EX raw %.1f, reviewed %.1f after accepting question %d", raw, reviewed, idx)
	if reviewed <= raw {
		t.Errorf("after accepting question %d, baseline EX reviewed %.1f is not above raw %.1f", idx, reviewed, raw)
	}
	if s := eval[string](t, ctx, `document.getElementById("rv-prior").textContent`); !strings.Contains(s, "reviewed in the browser test") {
		t.Errorf("the drill-down does not list the review: %q", s)
	}

	// Restart on the same directory without reviewed.json: reviews.jsonl is applied again.
	stop()
	if err := os.Remove(filepath.Join(runDir, rundir.ReviewedFile)); err != nil {
		t.Fatal(err)
	}
	base, _ = startServeStop(t, filepath.Join(root, "runs"))
	do(t, ctx, "reopen the drill-down after a restart", chromedp.Navigate(base+"run/demo/q/"+strconv.Itoa(idx)), chromedp.WaitVisible(chromedp.CSS("#rv-scores table")))
	raw2, reviewed2 := baselineScores(t, ctx)
	if raw2 != raw || reviewed2 != reviewed {
		t.Errorf("after a restart baseline EX raw/reviewed is %.1f/%.1f, want %.1f/%.1f", raw2, reviewed2, raw, reviewed)
	}
	do(t, ctx, "the run page after a restart", chromedp.Navigate(base+"run/demo/"), chromedp.WaitVisible(chromedp.ID("qlist")))
	if !eval[bool](t, ctx, `document.body.textContent.includes("EX reviewed")`) {
		t.Error("the run page does not show the reviewed scores")
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console errors, warnings or CSP violations:\n%s", strings.Join(p, "\n"))
	}
	if v := eval[[]string](t, ctx, `window.__csp`); len(v) > 0 {
		t.Errorf("CSP violations: %v", v)
	}
}

// baselineScores reads baseline's EX raw and reviewed (percent) from the drill-down's
// reviewed-score table.
func baselineScores(t *testing.T, ctx context.Context) (raw, reviewed float64) {
	t.Helper()
	cells := eval[[]string](t, ctx, `[...document.querySelectorAll("#rv-scores tr")].map(r => [...r.cells].map(c => c.textContent)).find(c => c[0] === "baseline") || []`)
	if len(cells) < 3 {
		t.Fatalf("no baseline row in the reviewed scores: %q", cells)
	}
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(strings.TrimSuffix(strings.Fields(s + " ")[0], "%"), 64)
		if err != nil {
			t.Fatalf("reviewed score %q: %v", s, err)
		}
		return f
	}
	return num(cells[1]), num(cells[2])
}

// incorrectQuestion returns the index of a question the run's system gets wrong.
func incorrectQuestion(t *testing.T, runDir, system string) int {
	t.Helper()
	run, err := rundir.Load(context.Background(), runDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range run.Systems {
		if s.Name != system {
			continue
		}
		for _, r := range s.Records {
			if r.Verdict == record.Incorrect {
				return r.Index
			}
		}
	}
	t.Fatalf("the demo's %s gets every question right", system)
	return -1
}
