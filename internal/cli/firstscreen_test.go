package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// comparisonRow is one printed line of the first screen's comparison: metric (blank
// when it continues the one above), "SYS - BEST", the difference, p and Holm p.
var comparisonRow = regexp.MustCompile(`(?m)^  (\S*(?: \S+)?)\s+(\S+) - (\S+)\s+([-+]\d+\.\d+) \[[^\]]+\]\s+p([=<]\d\.\d{4})\s+Holm p([=<]\d\.\d{4})\s+(no detectable difference|better|worse)$`)

// TestSpiderDevComparesOnFirstScreen is issue 29's check: Spider dev with DAIL, C3 and
// DIN prints at most 25 lines (stdout and stderr), which say for EX, ESM and ETM how each
// system compares with the best, with the p-values of summary.json's paired section.
func TestSpiderDevComparesOnFirstScreen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("judges 3 x 1034 Spider dev questions")
	}
	root := testutil.Shared(t, "data/spider")
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:" + root, "--out", out}
	for _, s := range []string{"DAIL", "C3", "DIN"} {
		args = append(args, "--pred", s+"="+filepath.Join(root, "predictions", s+".txt"))
	}
	stdout, stderr := runCLI(t, args...)
	checkLines(t, "eval on Spider dev with three systems", stdout, stderr, 25)
	sum := readSummary(t, out)
	labels := map[string]string{}
	for _, d := range sum.Metrics.Definitions {
		labels[d.Label] = d.ID
	}
	seen := map[string]int{}
	metric := ""
	for _, m := range comparisonRow.FindAllStringSubmatch(stdout, -1) {
		if m[1] != "" {
			metric = labels[m[1]]
		}
		sys, best, p := m[2], m[3], m[5]
		seen[metric]++
		test := pairedTest(t, sum.Paired, sys, best, metric)
		if want := metrics.FormatP(test.P)[1:]; p != want {
			t.Errorf("%s %s - %s: p%s printed, paired section has p%s", metric, sys, best, p, want)
		}
	}
	for _, id := range []string{"ex", "esm", "etm"} {
		if seen[id] != 2 {
			t.Errorf("%s: %d comparison rows, want 2 (C3 and DIN against DAIL)\n%s", id, seen[id], stdout)
		}
	}
	if !strings.Contains(stdout, "Holm p: corrected for each metric's comparisons") {
		t.Errorf("the output does not say its p-values are Holm-corrected:\n%s", stdout)
	}
}

// pairedTest finds the paired section's test of a and b on metric id, in either order.
func pairedTest(tb testing.TB, sec *metrics.PairedSection, a, b, id string) metrics.PairedTest {
	tb.Helper()
	for _, p := range sec.Pairs {
		if (p.A == a && p.B == b) || (p.A == b && p.B == a) {
			for _, x := range p.Tests {
				if x.Metric == id {
					return x
				}
			}
		}
	}
	tb.Fatalf("no paired test of %s and %s on %s", a, b, id)
	return metrics.PairedTest{}
}

// TestUsageErrors: every mistake in a call exits 2 with the message, a usage line and one
// example; an unknown flag names the nearest one.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"eval without arguments", []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, []string{"--dataset is required", "usage: nl2sqlbench eval --dataset KIND:PATH"}},
		{"dataset without its kind", []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", t.TempDir(), "--pred", "x.txt"}, []string{"KIND:PATH", "usage: nl2sqlbench eval"}},
		{"unknown dataset kind", []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spidr:" + t.TempDir(), "--pred", "x.txt"}, []string{"unknown dataset kind", "usage: nl2sqlbench eval"}},
		{"misspelt flag", []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--detials"}, []string{"unknown flag: --detials; did you mean --details?"}},
		{"far from every flag", []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--zzzzzzzz"}, []string{"unknown flag: --zzzzzzzz\n"}},
		{"missing argument", []string{"report"}, []string{"report: accepts 1 arg(s), received 0", "usage: nl2sqlbench report RUN_DIR"}},
		{"unknown command", []string{"evl"}, []string{`unknown command "evl"`, "usage: nl2sqlbench COMMAND"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := run(c.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			for _, w := range append(c.want, "\nusage: nl2sqlbench", "\nexample: nl2sqlbench ") {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Count(stderr, "example: ") != 1 {
				t.Errorf("want exactly one example:\n%s", stderr)
			}
		})
	}
}

// TestSpider2Words: a Spider 2.0 run says so: its EX is Spider 2.0's result-table match
// (not "bird semantics"), its per-difficulty values are per backend, and the pointer to
// --details names no ESM or ETM, which it does not have.
func TestSpider2Words(t *testing.T) {
	t.Parallel()
	suite := testutil.Shared(t, "data/spider2/spider2-lite")
	sub := filepath.Join(suite, "evaluation_suite", "example_submission_folder_csv")
	out := filepath.Join(t.TempDir(), "run")
	stdout, stderr := runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider2:"+suite, "--pred", "a="+sub, "--pred", "b="+sub, "--out", out)
	t.Logf("%s%s", stderr, stdout)
	for _, w := range []string{"EX under Spider 2.0 official semantics", "EX by backend (%)", "Spider2 Final/Real = "} {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	for _, gone := range []string{"bird semantics", "difficulty", "ESM", "ETM"} {
		if strings.Contains(stdout, gone) {
			t.Errorf("a Spider 2.0 run's output says %q", gone)
		}
	}
	md, _ := runCLI(t, "report", out)
	for _, gone := range []string{"bird semantics", "By difficulty", "by difficulty"} {
		if strings.Contains(md, gone) {
			t.Errorf("a Spider 2.0 run's Markdown says %q", gone)
		}
	}
}
