package cli

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

	"github.com/chromedp/chromedp"
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

// syncBuffer is a bytes.Buffer safe for the server goroutine writing and the test reading.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs `nl2sqlbench serve DIR --addr 127.0.0.1:0` in the background and returns
// its base URL; the server stops when the test ends.
func startServe(t *testing.T, dir string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", dir, "--addr", "127.0.0.1:0"}, strings.NewReader(""), &out, &errb)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop within 10s of its context ending")
		}
	})
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if u := re.FindString(out.String()); u != "" {
			if strings.Contains(errb.String(), "warning") {
				t.Errorf("serve on loopback printed a warning: %s", errb.String())
			}
			return u
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d: %s", code, errb.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("serve printed no address: stdout %q stderr %q", out.String(), errb.String())
	return ""
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

// screenshot saves the whole page (or, with a name starting "view-", the viewport) as PNG.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot := chromedp.FullScreenshot(100)
	if strings.HasPrefix(name, "view-") {
		shot = chromedp.CaptureScreenshot()
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dirs := []string{t.TempDir()}
	if d := os.Getenv("NL2SQLBENCH_SCREENSHOTS"); d != "" {
		dirs = append(dirs, d) // keep them for a person to look at
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", p, len(png))
	}
	if len(png) < 10_000 {
		t.Errorf("screenshot %s is only %d bytes: the page looks empty", name, len(png))
	}
}

// visibleQuestions counts the question list's entries the filters leave visible.
const visibleQuestions = `Array.from(document.querySelectorAll(".q")).filter(e => !e.hidden).length`

// setFilter changes a filter control as a user would (value, then the change event).
func setFilter(id, value string) string {
	return fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("change")); return true })()`, id, value)
}

// TestBrowserDashboardAndReport drives headless Chromium against `serve` on the demo run and
// against the HTML report file: pages load without console errors, the charts are there,
// a filter narrows the question list, clicking a question opens its drill-down, and a
// hostile prediction renders as text.
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

	base := startServe(t, filepath.Join(root, "runs"))
	ctx, problems := browser(t, exe)

	// The run list links to both runs.
	do(t, ctx, "open the run list", chromedp.Navigate(base))
	if n := eval[int](t, ctx, `document.querySelectorAll("a[href^='/run/']").length`); n != 2 {
		t.Errorf("run list links to %d runs, want 2", n)
	}
	do(t, ctx, "open the demo run", chromedp.Navigate(base+"run/demo/"), chromedp.WaitVisible(chromedp.ID("qlist")))
	checkRunPage(t, ctx)
	screenshot(t, ctx, "dashboard.png")

	// Clicking a question opens its drill-down page.
	do(t, ctx, "click a question", chromedp.Click(chromedp.CSS(".q:not([hidden]) a.qlink")), chromedp.WaitVisible(chromedp.CSS(".drill")))
	if n := eval[int](t, ctx, `document.querySelectorAll(".drill .answer").length`); n != 3 {
		t.Errorf("drill-down shows %d answers, want one per system (3)", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll(".drill table.result").length`); n < 2 {
		t.Errorf("drill-down shows %d result tables, want the gold's and the predictions'", n)
	}
	screenshot(t, ctx, "drilldown.png")

	// Comparing two systems lists the questions one gets right and the other wrong.
	do(t, ctx, "compare", chromedp.Navigate(base+"run/demo/compare?a=reviser&b=baseline"), chromedp.WaitVisible(chromedp.ID("a-only")))
	if n := eval[int](t, ctx, `document.querySelectorAll(".q").length`); n == 0 {
		t.Error("compare reviser/baseline lists no question; the demo's reviser fixes several")
	}

	// A hostile prediction is shown as text and runs nothing.
	do(t, ctx, "open the hostile run's question", chromedp.Navigate(base+"run/hostile/q/0"), chromedp.WaitVisible(chromedp.CSS(".drill")))
	checkHostile(t, ctx, hostileSQL[8:60])
	do(t, ctx, "open the hostile run", chromedp.Navigate(base+"run/hostile/"), chromedp.WaitVisible(chromedp.ID("qlist")))
	checkHostile(t, ctx, hostileQuestion)

	// The self-contained report file.
	reportFile := filepath.Join(root, "report.html")
	runCLI(t, "report", runDir, "--html", reportFile)
	do(t, ctx, "open the report file", chromedp.Navigate("file://"+reportFile), chromedp.WaitVisible(chromedp.ID("qlist")))
	checkRunPage(t, ctx)
	screenshot(t, ctx, "view-report-top.png")
	do(t, ctx, "open a question", chromedp.Click(chromedp.CSS(".q:not([hidden]) > summary")))
	if !eval[bool](t, ctx, `document.querySelector(".q:not([hidden])").open`) {
		t.Error("clicking a question in the report did not open its drill-down")
	}
	if n := eval[float64](t, ctx, `document.querySelector(".q:not([hidden]) .drill").getBoundingClientRect().height`); n < 100 {
		t.Errorf("the opened drill-down is %.0fpx high: it does not show", n)
	}
	screenshot(t, ctx, "report.png")
	do(t, ctx, "scroll to the question", chromedp.ScrollIntoView(chromedp.CSS(".q[open]")))
	screenshot(t, ctx, "view-report-question.png")

	hostileReport := filepath.Join(root, "hostile.html")
	runCLI(t, "report", filepath.Join(root, "runs", "hostile"), "--html", hostileReport)
	do(t, ctx, "open the hostile report", chromedp.Navigate("file://"+hostileReport), chromedp.WaitVisible(chromedp.ID("qlist")))
	do(t, ctx, "open the hostile question", chromedp.Click(chromedp.CSS(".q > summary")))
	checkHostile(t, ctx, hostileSQL[8:60])
	checkHostile(t, ctx, hostileQuestion)

	if p := problems(); len(p) > 0 {
		t.Errorf("console errors or warnings:\n%s", strings.Join(p, "\n"))
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
