package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// tableScrollJS lists the score tables (intervals, paired comparisons, slices ...) whose
// box scrolls sideways: none may, at a desktop width (intervals wrap under their value)
// or at a phone's (rows become cards).
const tableScrollJS = `(() => {
  const out = [];
  for (const t of document.querySelectorAll("table.scores")) {
    const w = t.closest(".table-wrap") || t.parentElement;
    if (w.getBoundingClientRect().width === 0) continue;
    if (w.scrollWidth > w.clientWidth + 1) {
      const h = w.previousElementSibling;
      out.push((h ? h.textContent.trim().slice(0, 50) : "a table") + ": " + w.scrollWidth + "px in " + w.clientWidth + "px");
    }
  }
  return out;
})()`

// chartTextJS lists the charts whose smallest text renders under 11px (font size times
// the SVG's scale to its box).
const chartTextJS = `(() => {
  const out = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    const vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
    if (!vb || !vb.width || r.width === 0) continue;
    let min = Infinity;
    for (const t of svg.querySelectorAll("text")) min = Math.min(min, parseFloat(getComputedStyle(t).fontSize) * r.width / vb.width);
    if (min < 10.99) out.push((svg.getAttribute("aria-label") || "a chart") + ": " + min.toFixed(1) + "px");
  }
  return out;
})()`

// chartFitJS lists the charts whose box scrolls sideways, or with a label drawn outside
// the chart (cut at its edge): from a 460px screen up, charts fit (issue 44; svg.go's
// fitWidth).
const chartFitJS = `(() => {
  const out = [];
  for (const box of document.querySelectorAll(".chart-box")) {
    const svg = box.querySelector("svg.chart");
    if (!svg) continue;
    const name = svg.getAttribute("aria-label") || "a chart";
    if (box.scrollWidth > box.clientWidth + 1) out.push(name + ": scrolls, " + box.scrollWidth + "px in " + box.clientWidth + "px");
    const s = svg.getBoundingClientRect();
    if (s.right > box.getBoundingClientRect().right + 1) out.push(name + ": wider than its box");
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1) {
        out.push(name + ": label " + JSON.stringify(t.textContent.slice(0, 30)) + " outside the chart");
        break;
      }
    }
  }
  return out;
})()`

// chartsFitFrom is the narrowest screen at which charts fit unscrolled (svg.go's fitWidth);
// below it they keep 11px text and scroll inside their box.
const chartsFitFrom = 460

// cardsHideNothingJS lists the score-table cells that have a value but show no label at
// phone width (a card's line must say what its number is).
const cardsHideNothingJS = `(() => {
  const out = [];
  for (const td of document.querySelectorAll("table.scores td:not(:first-child)")) {
    if (td.textContent.trim() && !td.getAttribute("data-label") && td.getBoundingClientRect().width > 0) out.push(td.textContent.trim().slice(0, 30));
    if (out.length >= 5) break;
  }
  return out;
})()`

// checkReadable fails when a score table scrolls sideways or chart text is under 11px;
// from 460px up when a chart scrolls or cuts a label; at phone width also when a card's
// value has no label.
func checkReadable(t *testing.T, ctx context.Context, page string, width int64) {
	t.Helper()
	if over := eval[[]string](t, ctx, tableScrollJS); len(over) > 0 {
		t.Errorf("%s at %dpx: tables scroll sideways:\n  %s", page, width, strings.Join(over, "\n  "))
	}
	if small := eval[[]string](t, ctx, chartTextJS); len(small) > 0 {
		t.Errorf("%s at %dpx: chart text under 11px:\n  %s", page, width, strings.Join(small, "\n  "))
	}
	if width >= chartsFitFrom {
		if bad := eval[[]string](t, ctx, chartFitJS); len(bad) > 0 {
			t.Errorf("%s at %dpx: charts that scroll or cut a label:\n  %s", page, width, strings.Join(bad, "\n  "))
		}
	}
	if width < 600 {
		if bare := eval[[]string](t, ctx, cardsHideNothingJS); len(bare) > 0 {
			t.Errorf("%s at %dpx: values without a label: %q", page, width, bare)
		}
	}
}

// topScreenshot saves the page's first 8000px at width w: a thousand questions make
// the whole page too tall to capture in the test's time, and the tables come first.
func topScreenshot(t *testing.T, ctx context.Context, dir, name string, w int64) {
	t.Helper()
	do(t, ctx, "tall viewport", chromedp.EmulateViewport(w, 8000))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(png) < 10_000 {
		t.Errorf("screenshot %s is only %d bytes: the page looks empty", name, len(png))
	}
	do(t, ctx, "viewport back", chromedp.EmulateViewport(w, 900))
}

// TestBrowserSpiderLayouts opens the report and the dashboard of a real three-system
// Spider dev run (DAIL, C3, DIN: the widest tables a run has, with the slice tables) at
// 1400px, 500px and 390px: nothing is wider than the viewport, no score table scrolls
// sideways, chart text is at least 11px, at 1400 and 500px no chart scrolls sideways or
// draws a label outside itself, the slice filter narrows the question list,
// and a screenshot of each goes to artifactDir.
func TestBrowserSpiderLayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
	exe := findChromium()
	if exe == "" {
		t.Skip("no chromium binary found (install Debian's chromium, as .ci/run does, or set NL2SQLBENCH_CHROME): skipping the browser test")
	}
	spider := testutil.Shared(t, "data/spider")
	root := t.TempDir()
	runDir := filepath.Join(root, "runs", "spider-dev")
	args := []string{"eval", "--dataset", "spider:" + spider, "--out", runDir}
	for _, s := range []string{"DAIL", "C3", "DIN"} {
		args = append(args, "--pred", s+"="+filepath.Join(spider, "predictions", s+".txt"))
	}
	runCLI(t, args...)
	reportFile := filepath.Join(root, "report.html")
	runCLI(t, "report", runDir, "--html", reportFile, "--no-exec")
	base := startServe(t, filepath.Join(root, "runs"))
	ctx, problems := browser(t, exe)
	shots := artifactDir(t)

	pages := []struct{ name, url string }{
		{"spider-report", "file://" + reportFile},
		{"spider-dashboard", base + "run/spider-dev/"},
	}
	for _, w := range []int64{1400, 500, 390} {
		do(t, ctx, fmt.Sprintf("viewport %dpx", w), chromedp.EmulateViewport(w, 900))
		for _, p := range pages {
			do(t, ctx, fmt.Sprintf("open %s at %dpx", p.name, w), chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.ID("qlist")))
			checkFits(t, ctx, p.name, w)
			checkReadable(t, ctx, p.name, w)
			topScreenshot(t, ctx, shots, fmt.Sprintf("%s-%d.png", p.name, w), w)
		}
	}
	// The slice filter: "nested subquery: yes" leaves the 83 executable questions whose
	// gold nests a query (the slice table's n).
	if n := eval[int](t, ctx, `document.querySelectorAll("#slices ~ div table.stats").length`); n < 2 {
		t.Errorf("%d slice and result_diff tables, want the slice scores and the kinds at least", n)
	}
	all := eval[int](t, ctx, visibleQuestions)
	eval[bool](t, ctx, setFilter("f-slice", "nested=yes"))
	nested := eval[int](t, ctx, visibleQuestions)
	want := eval[int](t, ctx, `document.querySelectorAll(".q[data-s~='nested=yes']").length`)
	if nested == 0 || nested != want || nested >= all {
		t.Errorf("slice nested=yes leaves %d of %d questions, want the %d marked", nested, all, want)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console errors, warnings or CSP violations:\n%s", strings.Join(p, "\n"))
	}
}
