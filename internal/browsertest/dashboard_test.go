package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/cli"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// findChromium returns a Chromium binary: $NL2SQLBENCH_CHROME, else the first of the usual
// names on PATH (.ci/run installs Debian's chromium).
func findChromium() string {
	if p := os.Getenv("NL2SQLBENCH_CHROME"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startServe runs `nl2sqlbench serve DIR --addr 127.0.0.1:0` in the background and returns
// its base URL; the server stops when the test ends.
func startServe(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	u, stop := startServeStop(t, dir, flags...)
	t.Cleanup(stop)
	return u
}

// startServeStop is startServe returning the function that stops the server (and waits
// for it), for a test that restarts it.
func startServeStop(t *testing.T, dir string, flags ...string) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb testutil.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(ctx, append([]string{"nl2sqlbench", "serve", dir, "--addr", "127.0.0.1:0"}, flags...), strings.NewReader(""), &out, &errb)
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Error("serve did not stop within 10s of its context ending")
			}
		})
	}
	t.Cleanup(stop)
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if u := re.FindString(out.String()); u != "" {
			if strings.Contains(errb.String(), "warning") {
				t.Errorf("serve on loopback printed a warning: %s", errb.String())
			}
			return u, stop
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d: %s", code, errb.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("serve printed no address: stdout %q stderr %q", out.String(), errb.String())
	return "", stop
}

// browser starts headless Chromium and records every console message of its pages.
func browser(t *testing.T, exe string) (context.Context, func() []string) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, tcancel := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { tcancel(); cancel(); acancel() })
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium %s: %v", exe, err)
	}
	// Every page records its Content-Security-Policy violations (checkFits reads them),
	// besides the console messages the browser logs for them.
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline")));`})
		return err
	}))
	if err != nil {
		t.Fatalf("install the CSP listener: %v", err)
	}
	var mu sync.Mutex
	var problems []string
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() || m.Type == chromedp.ConsoleWarning {
				mu.Lock()
				problems = append(problems, fmt.Sprintf("%s: %s (%s)", m.Type, m.Text, m.URL))
				mu.Unlock()
			}
		}
	}()
	return ctx, func() []string {
		time.Sleep(200 * time.Millisecond) // let the last events arrive
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), problems...)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	start := time.Now()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond))
}

// artifactDir is where the browser test keeps its screenshots for a person (and CI) to
// look at: $NL2SQLBENCH_ARTIFACTS (a relative path is under the repository root), default
// ci-artifacts/screenshots under the repository root (gitignored).
func artifactDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("NL2SQLBENCH_ARTIFACTS")
	if d == "" {
		d = filepath.Join("ci-artifacts", "screenshots")
	}
	if !filepath.IsAbs(d) { // go test runs in the package directory: relative to the repository instead
		d = filepath.Join(testutil.RepoRoot(t), d)
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatalf("screenshot directory: %v", err)
	}
	return d
}

// screenshot saves the whole page as PNG in dir.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(png) < 10_000 {
		t.Errorf("screenshot %s is only %d bytes: the page looks empty", name, len(png))
	}
}

// overflowJS lists what sticks out of the viewport on the right: the document itself when
// it scrolls sideways, and every visible element whose right edge passes the viewport
// unless an ancestor scrolls it (overflow-x auto or scroll: a table in its own box).
const overflowJS = `(() => {
  const vw = window.innerWidth, out = [];
  if (document.documentElement.scrollWidth > vw)
    out.push("document is " + document.documentElement.scrollWidth + "px wide");
  const scrolled = e => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll") return true;
    }
    return false;
  };
  const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "");
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= vw + 1 || scrolled(e)) continue;
    out.push(name(e) + " ends at " + Math.round(r.right) + "px" + (e.parentElement ? " in " + name(e.parentElement) : ""));
    if (out.length >= 10) break;
  }
  // Text that runs out of its element (a long word that does not wrap).
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walk.nextNode(); n && out.length < 20; n = walk.nextNode()) {
    if (!n.textContent.trim() || scrolled(n)) continue;
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1)
      out.push("text " + JSON.stringify(n.textContent.trim().slice(0, 40)) + " ends at " + Math.round(r.right) + "px in " + name(n.parentElement));
  }
  return out;
})()`

// checkFits fails when anything on the page is wider than the viewport.
func checkFits(t *testing.T, ctx context.Context, page string, width int64) {
	t.Helper()
	if csp := eval[[]string](t, ctx, `window.__csp || []`); len(csp) > 0 {
		t.Errorf("%s at %dpx: Content-Security-Policy violations: %s", page, width, strings.Join(csp, "; "))
	}
	if over := eval[[]string](t, ctx, overflowJS); len(over) > 0 {
		t.Errorf("%s at %dpx: wider than the viewport:\n  %s", page, width, strings.Join(over, "\n  "))
	}
}

// visibleQuestions counts the question list's entries the filters leave visible.
const visibleQuestions = `Array.from(document.querySelectorAll(".q")).filter(e => !e.hidden).length`

// setFilter changes a filter control as a user would (value, then the change event).
func setFilter(id, value string) string {
	return fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("change")); return true })()`, id, value)
}

// TestBrowserDashboardAndReport drives headless Chromium against `serve` on the demo run and
// against the HTML report file: pages load without console errors or CSP violations, the
// charts are there, a filter narrows the question list, clicking a question opens its
// drill-down, a hostile prediction renders as text, and every page fits a 1400px desktop
// and a 390px phone (nothing wider than the viewport except inside a box that scrolls).
// Screenshots of every page at both widths go to artifactDir.
func TestBrowserDashboardAndReport(t *testing.T) {
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
	writeHostileRun(t, runDir, filepath.Join(root, "runs", "hostile"))
	reportFile := filepath.Join(root, "report.html")
	runCLI(t, "report", runDir, "--html", reportFile)

	// The drill-downs re-run queries only under a root the user names: the demo's own.
	dbRoots, _ := filepath.Glob(filepath.Join(root, "cache", "*", "databases"))
	if len(dbRoots) != 1 {
		t.Fatalf("the demo's databases: %v", dbRoots)
	}
	base := startServe(t, filepath.Join(root, "runs"), "--db-root", dbRoots[0])
	ctx, problems := browser(t, exe)

	// The run list links to both runs.
	do(t, ctx, "open the run list", chromedp.Navigate(base))
	if n := eval[int](t, ctx, `document.querySelectorAll("a[href^='/run/']").length`); n != 2 {
		t.Errorf("run list links to %d runs, want 2", n)
	}
	do(t, ctx, "open the demo run", chromedp.Navigate(base+"run/demo/"), chromedp.WaitVisible(chromedp.ID("qlist")))
	checkRunPage(t, ctx)

	// Clicking a question opens its drill-down page.
	do(t, ctx, "click a question", chromedp.Click(chromedp.CSS(".q:not([hidden]) a.qlink")), chromedp.WaitVisible(chromedp.CSS(".drill")))
	if n := eval[int](t, ctx, `document.querySelectorAll(".drill .answer").length`); n != 3 {
		t.Errorf("drill-down shows %d answers, want one per system (3)", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll(".drill table.result").length`); n < 2 {
		t.Errorf("drill-down shows %d result tables, want the gold's and the predictions'", n)
	}
	checkDrillLabels(t, ctx)

	// Comparing two systems lists the questions one gets right and the other wrong.
	do(t, ctx, "compare", chromedp.Navigate(base+"run/demo/compare?a=reviser&b=baseline"), chromedp.WaitVisible(chromedp.ID("a-only")))
	if n := eval[int](t, ctx, `document.querySelectorAll(".q").length`); n == 0 {
		t.Error("compare reviser/baseline lists no question; the demo's reviser fixes several")
	}
	// Without a choice, compare starts with two different systems.
	do(t, ctx, "compare by default", chromedp.Navigate(base+"run/demo/compare"), chromedp.WaitVisible(chromedp.ID("a-only")))
	if a, b := eval[string](t, ctx, `document.getElementById("cmp-a").value`), eval[string](t, ctx, `document.getElementById("cmp-b").value`); a == b {
		t.Errorf("compare starts with A = B = %q", a)
	}
	// A system's questions: the run page with its system filter chosen.
	do(t, ctx, "a system's questions", chromedp.Navigate(base+"run/demo/?system=reviser"), chromedp.WaitVisible(chromedp.ID("qlist")))
	if v := eval[string](t, ctx, `document.getElementById("f-sys").value`); v != "1" {
		t.Errorf("?system=reviser selects system filter %q, want reviser's index 1", v)
	}

	// A hostile prediction is shown as text and runs nothing.
	do(t, ctx, "open the hostile run's question", chromedp.Navigate(base+"run/hostile/q/0"), chromedp.WaitVisible(chromedp.CSS(".drill")))
	checkHostile(t, ctx, hostileSQL[8:60])
	do(t, ctx, "open the hostile run", chromedp.Navigate(base+"run/hostile/"), chromedp.WaitVisible(chromedp.ID("qlist")))
	checkHostile(t, ctx, hostileQuestion)

	// The self-contained report file.
	do(t, ctx, "open the report file", chromedp.Navigate("file://"+reportFile), chromedp.WaitVisible(chromedp.ID("qlist")))
	checkRunPage(t, ctx)
	do(t, ctx, "open a question", chromedp.Click(chromedp.CSS(".q:not([hidden]) > summary")))
	if !eval[bool](t, ctx, `document.querySelector(".q:not([hidden])").open`) {
		t.Error("clicking a question in the report did not open its drill-down")
	}
	if n := eval[float64](t, ctx, `document.querySelector(".q:not([hidden]) .drill").getBoundingClientRect().height`); n < 100 {
		t.Errorf("the opened drill-down is %.0fpx high: it does not show", n)
	}
	checkDrillLabels(t, ctx)

	hostileReport := filepath.Join(root, "hostile.html")
	runCLI(t, "report", filepath.Join(root, "runs", "hostile"), "--html", hostileReport)
	do(t, ctx, "open the hostile report", chromedp.Navigate("file://"+hostileReport), chromedp.WaitVisible(chromedp.ID("qlist")))
	do(t, ctx, "open the hostile question", chromedp.Click(chromedp.CSS(".q > summary")))
	checkHostile(t, ctx, hostileSQL[8:60])
	checkHostile(t, ctx, hostileQuestion)

	checkLayouts(t, ctx, base, reportFile)

	if p := problems(); len(p) > 0 {
		t.Errorf("console errors, warnings or CSP violations:\n%s", strings.Join(p, "\n"))
	}
}

// checkLayouts opens every page at a desktop and a phone width, checks that nothing is
// wider than the viewport and keeps a screenshot of each.
func checkLayouts(t *testing.T, ctx context.Context, base, reportFile string) {
	t.Helper()
	shots := artifactDir(t)
	// openAll opens every drill-down of the report, so that each is checked; the
	// screenshot then shows the first one open.
	const openAll = `(() => { document.querySelectorAll(".q").forEach(q => q.open = true); return true })()`
	const openFirst = `(() => { document.querySelectorAll(".q").forEach((q, i) => q.open = i === 0); return true })()`
	pages := []struct{ name, url, wait string }{
		{"index", base, "h1"},
		{"run", base + "run/demo/", "#qlist"},
		{"system-questions", base + "run/demo/?system=sampler-5", "#qlist"},
		{"question", base + "run/demo/q/5", ".drill"},
		{"compare", base + "run/demo/compare", "#a-only"},
		{"report", "file://" + reportFile, "#qlist"},
	}
	for _, w := range []int64{1400, 390} {
		do(t, ctx, fmt.Sprintf("viewport %dpx", w), chromedp.EmulateViewport(w, 900))
		for _, p := range pages {
			do(t, ctx, fmt.Sprintf("open %s at %dpx", p.name, w), chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.CSS(p.wait)))
			if p.name == "report" {
				eval[bool](t, ctx, openAll)
				checkFits(t, ctx, "report, every question open", w)
				eval[bool](t, ctx, openFirst)
			}
			checkFits(t, ctx, p.name, w)
			checkReadable(t, ctx, p.name, w)
			screenshot(t, ctx, shots, fmt.Sprintf("%s-%d.png", p.name, w))
		}
	}
	t.Logf("screenshots of %d pages at 1400 and 390px: %s", len(pages), shots)
}

// checkDrillLabels checks that the drill-down shows its per-question values as a labelled
// table (a label cell beside its value cell), not raw keys and JSON.
func checkDrillLabels(t *testing.T, ctx context.Context) {
	t.Helper()
	if n := eval[int](t, ctx, `document.querySelectorAll(".drill table.kv th").length`); n == 0 {
		t.Error("the drill-down has no labelled table of values")
	}
	if eval[bool](t, ctx, `Array.from(document.querySelectorAll(".drill table.kv td")).some(td => /[{}"]/.test(td.textContent))`) {
		t.Error("the drill-down's values table shows raw JSON")
	}
}

// checkRunPage checks the charts and the filters of a run page (dashboard or report file).
func checkRunPage(t *testing.T, ctx context.Context) {
	t.Helper()
	if n := eval[int](t, ctx, `document.querySelectorAll("svg.chart").length`); n < 6 {
		t.Errorf("%d charts drawn, want at least 6 on the demo", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("svg.chart rect").length`); n < 50 {
		t.Errorf("the charts hold %d rectangles: they look empty", n)
	}
	all := eval[int](t, ctx, visibleQuestions)
	if all != 51 {
		t.Errorf("%d questions listed, want the demo's 51", all)
	}
	eval[bool](t, ctx, setFilter("f-verdict", "error"))
	errs := eval[int](t, ctx, visibleQuestions)
	if errs == 0 || errs >= all {
		t.Errorf("verdict=error leaves %d of %d questions: the filter does not narrow the list", errs, all)
	}
	eval[bool](t, ctx, setFilter("f-sys", "1")) // reviser: fewer errors than any system
	if n := eval[int](t, ctx, visibleQuestions); n == 0 || n >= errs {
		t.Errorf("system=reviser and verdict=error leaves %d questions, want fewer than %d and some", n, errs)
	}
	if txt := eval[string](t, ctx, `document.getElementById("f-count").textContent`); !strings.Contains(txt, "of 51 questions") {
		t.Errorf("filter count reads %q", txt)
	}
	eval[bool](t, ctx, setFilter("f-sys", ""))
	eval[bool](t, ctx, setFilter("f-verdict", ""))
	eval[bool](t, ctx, setFilter("f-diff", "challenging"))
	if n := eval[int](t, ctx, visibleQuestions); n == 0 || n >= all {
		t.Errorf("difficulty=challenging leaves %d of %d questions", n, all)
	}
	eval[bool](t, ctx, setFilter("f-diff", ""))
	if eval[bool](t, ctx, `document.getElementById("f-dis") !== null`) {
		eval[bool](t, ctx, `(() => { const e = document.getElementById("f-dis"); e.checked = true; e.dispatchEvent(new Event("change")); return true })()`)
		want := eval[int](t, ctx, `document.querySelectorAll(".q[data-dis]:not([data-dis=''])").length`)
		if n := eval[int](t, ctx, visibleQuestions); n != want || n >= all {
			t.Errorf("EX and ETM disagree leaves %d questions, want the %d marked (fewer than %d)", n, want, all)
		}
		eval[bool](t, ctx, `(() => { const e = document.getElementById("f-dis"); e.checked = false; e.dispatchEvent(new Event("change")); return true })()`)
	}
}

// hostileSQL closes a textarea, opens a script and carries a javascript: link.
const hostileSQL = `SELECT '</textarea><script>window.pwned=1</script><a id="evil" href="javascript:window.pwned=2">x</a><img src=x onerror="window.pwned=3">'`

// checkHostile checks that no hostile string ran and that want is shown as text.
const hostileQuestion = `<script>window.pwned=4</script> how many?`

func checkHostile(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	if v := eval[string](t, ctx, `String(window.pwned)`); v != "undefined" {
		t.Errorf("a hostile prediction ran script: window.pwned = %s", v)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#evil, img[src=x]").length`); n != 0 {
		t.Errorf("a hostile prediction created %d elements", n)
	}
	if !eval[bool](t, ctx, fmt.Sprintf(`document.body.textContent.includes(%q)`, want)) {
		t.Errorf("%q is not shown as text", want)
	}
}

// writeHostileRun copies the demo run with the first record of every system given the
// hostile prediction (and a hostile question text).
func writeHostileRun(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if d.Name() == "records.jsonl" {
			first, rest, _ := bytes.Cut(b, []byte("\n"))
			first = regexp.MustCompile(`"pred_sql":"[^"]*"`).ReplaceAll(first, []byte(`"pred_sql":`+jsonString(hostileSQL)))
			first = regexp.MustCompile(`"question":"[^"]*"`).ReplaceAll(first, []byte(`"question":`+jsonString(hostileQuestion)))
			b = append(append(first, '\n'), rest...)
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func jsonString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// runCLI runs the command line in-process and fails the test on a non-zero exit.
func runCLI(tb testing.TB, args ...string) (stdout, stderr string) {
	tb.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(context.Background(), append([]string{"nl2sqlbench"}, args...), strings.NewReader(""), &out, &errb); code != 0 {
		tb.Fatalf("nl2sqlbench %s: exit %d\nstderr:\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String(), errb.String()
}
