package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// lines counts the lines of stdout and stderr together, as a terminal shows them, and
// among them the progress lines a phase longer than progressEvery prints off a terminal.
func lines(stdout, stderr string) (all, progress int) {
	all = strings.Count(stdout, "\n") + strings.Count(stderr, "\n")
	return all, len(progressLine.FindAllString(stderr, -1))
}

var progressLine = regexp.MustCompile(`(?m)^(judging|VES timing|hashing databases|collecting): \d+/\d+ .*$`)

// checkLines fails when the output is longer than limit lines. Progress lines come with
// slow phases (a loaded machine): up to two of them (a line at 5 s and the phase's last
// line) are in the budget; more are left out of the count, since their number measures
// the machine rather than the output.
func checkLines(t *testing.T, what, stdout, stderr string, limit int) {
	t.Helper()
	all, progress := lines(stdout, stderr)
	t.Logf("%s prints %d lines (%d of them progress):\n%s%s", what, all, progress, stderr, stdout)
	// On a terminal the progress line is rewritten in place: it takes one line of the
	// screen however many updates a slow run (a loaded machine, -race) prints here.
	if n := all - max(progress-1, 0); n > limit {
		t.Errorf("%s prints %d lines, want at most %d", what, n, limit)
	}
}

// legendOf is the text of the output's legend lines (from "legend:" to the next blank line).
func legendOf(out string) string {
	i := strings.Index(out, "legend: ")
	if i < 0 {
		return ""
	}
	end := strings.Index(out[i:], "\n\n")
	if end < 0 {
		return out[i:]
	}
	return out[i : i+end]
}

// TestDemoFitsOneScreen: the demo's default output is at most 30 lines, says what each
// system is, compares its three systems with the best one, explains every headline label
// it prints, and shows its deliberately broken questions as a note rather than as warnings.
func TestDemoFitsOneScreen(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	dir := filepath.Join(t.TempDir(), "demo")
	stdout, stderr := runCLI(t, "demo", "--cache", t.TempDir(), "--out", dir)
	checkLines(t, "demo", stdout, stderr, 30)
	if strings.Contains(stderr, "warning:") {
		t.Errorf("the demo's expected verdicts show as warnings:\n%s", stderr)
	}
	for _, want := range []string{"baseline ", "reviser ", "sampler-5 ", "broken on purpose: arc-001 skipped", "lib-021 gold_error",
		"scores in % of the judged questions", "each system against the best", "failed to run (error)", "add --details", "run directory: " + dir} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	for _, gone := range []string{"cross-system analysis", "Pass@1", "Pareto frontier", "CR/IR/ER", "I2C", "col. undefined", "pred_sql:"} {
		if strings.Contains(stdout, gone) {
			t.Errorf("demo's short output prints %q, which belongs to --details", gone)
		}
	}
	sum := readSummary(t, dir)
	legend := legendOf(stdout)
	for _, d := range sum.Metrics.Group("headline") {
		label := d.Label
		switch label {
		case "incorrect", "error":
			label = "incorrect/error"
		case "EX bird", "EX spider":
			label = "EX bird/spider"
		}
		if !strings.Contains(legend, label+" = ") {
			t.Errorf("headline label %q is not explained in the legend:\n%s", d.Label, legend)
		}
	}
	if strings.Contains(stdout, "n/a: covers") && !strings.Contains(legend, `"n/a: covers n of N" = `) {
		t.Errorf("n/a coverage cells are not explained:\n%s", legend)
	}
}

// TestEvalSpiderFitsOneScreen: eval on one Spider prediction file prints at most 20 lines
// (stdout and stderr); --details prints every section that says something for one system,
// and none that does not (no cross-system analysis, no Pass@k for one candidate).
func TestEvalSpiderFitsOneScreen(t *testing.T) {
	skipLongInShort(t)
	t.Parallel()
	root := testutil.Shared(t, "data/spider")
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:" + root, "--pred", filepath.Join(root, "predictions", "DAIL.txt")}
	stdout, stderr := runCLI(t, append(args, "--out", filepath.Join(t.TempDir(), "run"))...)
	checkLines(t, "eval on one Spider system", stdout, stderr, 20)
	for _, want := range []string{"EX by difficulty", "failed to run (error): 14 of 972", "legend: ", "run directory: ", "HTML report: nl2sqlbench report "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("eval output lacks %q", want)
		}
	}

	stdout, stderr = runCLI(t, append(args, "--details", "--out", filepath.Join(t.TempDir(), "details"))...)
	for _, want := range []string{"by difficulty (%)", "errors by category", "schema selection", "correct rate (%) by schema recall", "EX/ETM disagreements"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("eval --details lacks %q", want)
		}
	}
	for _, gone := range []string{"cross-system", "solved by exactly", "Pass@", "candidate generation", "overlap of wrong", "Pareto"} {
		if strings.Contains(stdout, gone) {
			t.Errorf("eval --details on one single-candidate system prints %q", gone)
		}
	}
	all, _ := lines(stdout, stderr)
	t.Logf("eval --details prints %d lines", all)
}

// TestDBIDDropsOtherWarnings: BIRD mini-dev repeats two question_ids on databases other
// than superhero; a run narrowed with --db-id superhero does not warn about them.
func TestDBIDDropsOtherWarnings(t *testing.T) {
	t.Parallel()
	qs := testutil.Shared(t, "data/bird/mini_dev_sqlite.json")
	dbRoot := testutil.Shared(t, "data/bird/dev_databases")
	preds := testutil.Shared(t, "data/bird/predictions/mini_dev")
	ds, err := dataset.Load(t.Context(), "bird:"+qs, dataset.Options{DBRoot: dbRoot})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(ds.Warnings, "\n"), "repeats question_id") {
		t.Fatalf("mini-dev no longer repeats a question_id: the test says nothing (warnings %q)", ds.Warnings)
	}
	_, stderr := runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:"+qs, "--db-root", dbRoot, "--db-id", "superhero",
		"--pred", filepath.Join(preds, "predict_mini_dev_gpt-4_sqlite.json"), "--out", filepath.Join(t.TempDir(), "run"))
	if strings.Contains(stderr, "repeats question_id") {
		t.Errorf("--db-id superhero still warns about other databases' questions:\n%s", stderr)
	}
}
