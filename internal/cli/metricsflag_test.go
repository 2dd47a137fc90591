package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// metricIDs lists the ids of a run's metrics section.
func metricIDs(s *rundir.Summary) []string {
	var ids []string
	for _, d := range s.Metrics.Definitions {
		ids = append(ids, d.ID)
	}
	return ids
}

// recordKeys collects every JSON key of the records of one system (a raw scan of the
// lines, so a field written as zero counts as present).
func recordKeys(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		for _, k := range []string{"esm", "etm", "esm_partial", "soft_f1", "gold_schema", "schema_table_f1", "pass_at", "ex_bird", "ex_spider", "flex"} {
			if strings.Contains(sc.Text(), `"`+k+`":`) {
				keys[k] = true
			}
		}
	}
	return keys
}

// sameEX checks that two runs give every system the same EX value, text and interval.
func sameEX(t *testing.T, a, b *rundir.Summary, systems []string) {
	t.Helper()
	for _, s := range systems {
		_, va, okA := a.Metrics.Lookup(s, "ex")
		_, vb, okB := b.Metrics.Lookup(s, "ex")
		if !okA || !okB || va.Text != vb.Text || va.CIText != vb.CIText || va.N != vb.N {
			t.Errorf("%s: EX %+v vs %+v", s, va, vb)
		}
	}
}

// TestMetricsSelectDemo: --metrics on the demo. An ex-only run gives the full run's EX,
// carries only ex in summary.json, leaves the unchosen fields out of its records,
// remembers the selection (manifest, args.json) and refuses a resume with another one;
// merge, report, compare, rescore and verify read it.
func TestMetricsSelectDemo(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	args, systems, f := demoArgsFiles(t)
	dir := t.TempDir()
	full, ex := sharedFullDemoRun(t), filepath.Join(dir, "ex")
	runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--json", "--out", ex, "--metrics", "ex")...)
	// The sharded run below compares its merge with this run as judged, before the resume
	// and the rescore change it: shardedRun would judge the same arguments again.
	copyTree(t, ex, filepath.Join(dir, "shards", "full"))
	fs, es := readSummary(t, full), readSummary(t, ex)
	sameEX(t, fs, es, systems)
	if got := metricIDs(es); !slices.Equal(got, []string{"ex"}) {
		t.Errorf("ex-only summary carries %v", got)
	}
	if es.Structural != nil || es.ETM != nil || es.Modules != nil || es.ESMPartial != nil {
		t.Errorf("ex-only summary has sections of unchosen metrics: structural %v etm %v modules %v partial %v",
			es.Structural != nil, es.ETM != nil, es.Modules != nil, es.ESMPartial != nil)
	}
	if !slices.Equal(es.Manifest.Settings.Metrics, []string{"ex"}) || !slices.Equal(es.Settings.Metrics, []string{"ex"}) || fs.Manifest.Settings.Metrics != nil {
		t.Errorf("selection recorded as %v (manifest) %v (settings); full run %v", es.Manifest.Settings.Metrics, es.Settings.Metrics, fs.Manifest.Settings.Metrics)
	}
	fk, ek := recordKeys(t, filepath.Join(full, systems[0], recordsFile)), recordKeys(t, filepath.Join(ex, systems[0], recordsFile))
	for _, k := range []string{"esm", "etm", "soft_f1", "gold_schema"} {
		if !fk[k] {
			t.Errorf("full run's records have no %s: the check below would say nothing", k)
		}
		if ek[k] {
			t.Errorf("ex-only records have %s: its annotator ran", k)
		}
	}
	if !ek["ex_bird"] || !ek["ex_spider"] {
		t.Error("ex-only records lost ex_bird / ex_spider (judging's own fields)")
	}
	argsJSON, _ := os.ReadFile(filepath.Join(ex, argsFile))
	if !strings.Contains(string(argsJSON), `"--metrics=ex"`) {
		t.Errorf("args.json does not remember --metrics: %s", argsJSON)
	}

	// Resume: the remembered selection continues; another one is refused, named.
	runCLI(t, "eval", "--resume", "--out", ex, "--json")
	if got := metricIDs(readSummary(t, ex)); !slices.Equal(got, []string{"ex"}) {
		t.Errorf("resumed ex-only run carries %v", got)
	}
	checkExit(t, []string{"eval", "--resume", "--out", ex, "--metrics", "spider"}, exitError, "setting metrics changed (ex → ")
	checkExit(t, []string{"eval", "--resume", "--out", full, "--metrics", "ex"}, exitError, "setting metrics changed (all → ex)")

	// Readers of a run with a subset.
	md, _ := runCLI(t, "report", ex)
	if !strings.Contains(md, "EX") || strings.Contains(md, "Soft-F1") || strings.Contains(md, "ETM") {
		t.Errorf("report of an ex-only run:\n%s", md)
	}
	runCLI(t, "report", ex, "--html", filepath.Join(dir, "ex.html"))
	out, _ := runCLI(t, "compare", full, ex, "--system", systems[0])
	if !strings.Contains(out, "no significant change") {
		t.Errorf("compare full and ex-only runs:\n%s", out)
	}
	checkExit(t, []string{"compare", full, ex, "--system", systems[0], "--metric", "soft_f1"}, exitError, "not reported")
	if code, _, stderr := run("verify", ex); code != exitOK {
		t.Errorf("verify an ex-only run: exit %d: %s", code, stderr)
	}
	recs := readRecords(t, filepath.Join(ex, systems[0], recordsFile))
	review := fmt.Sprintf(`{"index": %d, "system": %q, "decision": "accept"}`+"\n", recs[0].Index, systems[0])
	if err := os.WriteFile(filepath.Join(ex, "reviews.jsonl"), []byte(review), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "rescore", ex)
	merged, unsharded := shardedRun(t, filepath.Join(dir, "shards"), 2, append(slices.Clone(args), "--metrics", "ex"))
	checkSameRun(t, merged, unsharded, systems)
	if got := metricIDs(readSummary(t, merged)); !slices.Equal(got, []string{"ex"}) {
		t.Errorf("merged ex-only run carries %v", got)
	}

	// The bird group without --ves: BIRD's EX and Soft-F1, no structural match.
	bird := filepath.Join(dir, "bird")
	runCLI(t, append(append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...), "--json", "--out", bird, "--metrics", "bird")...)
	if got := metricIDs(readSummary(t, bird)); !slices.Equal(got, []string{"ex_bird", "soft_f1"}) {
		t.Errorf("bird group carries %v", got)
	}
	if bk := recordKeys(t, filepath.Join(bird, systems[0], recordsFile)); bk["esm"] || bk["etm"] || !bk["soft_f1"] {
		t.Errorf("bird group's records: %v", bk)
	}
	_ = f
}

// TestMetricsSelectRefuses: unknown ids and metrics whose flag is off are usage errors
// that list what is valid.
func TestMetricsSelectRefuses(t *testing.T) {
	t.Parallel()
	args, _ := demoArgs(t)
	base := append([]string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows}, args...)
	for _, tt := range []struct {
		name     string
		extra    []string
		contains []string
	}{
		{"unknown id", []string{"--metrics", "ex,exact"}, []string{`unknown metric "exact"`, "soft_f1", "groups all, bird, spider"}},
		{"ves without --ves", []string{"--metrics", "ves"}, []string{`"ves" needs --ves`}},
		{"--ves left out", []string{"--metrics", "ex", "--ves"}, []string{"--ves computes ves"}},
		{"--test-suite left out", []string{"--metrics", "spider", "--test-suite"}, []string{"--test-suite computes ts_ex"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkExit(t, append(append(slices.Clone(base), "--out", t.TempDir()), tt.extra...), exitUsage, tt.contains...)
		})
	}
}

// TestMetricsExSpider: on Spider dev, --metrics ex gives DAIL and C3 the EX of a full
// run, and no structural match, linking or Soft-F1 ran.
func TestMetricsExSpider(t *testing.T) {
	t.Parallel()
	spider := testutil.Shared(t, "data/spider")
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:" + spider, "--json"}
	systems := []string{"DAIL", "C3"}
	for _, s := range systems {
		args = append(args, "--pred", s+"="+filepath.Join(spider, "predictions", s+".txt"))
	}
	dir := t.TempDir()
	full, ex := filepath.Join(dir, "full"), filepath.Join(dir, "ex")
	runCLI(t, append(slices.Clone(args), "--out", full)...)
	runCLI(t, append(slices.Clone(args), "--out", ex, "--metrics", "ex")...)
	fs, es := readSummary(t, full), readSummary(t, ex)
	sameEX(t, fs, es, systems)
	for i, s := range systems {
		if d := cmp.Diff(fs.Systems[i].Overall.Counts, es.Systems[i].Overall.Counts); d != "" {
			t.Errorf("%s: verdict counts differ (-full +ex):\n%s", s, d)
		}
		k := recordKeys(t, filepath.Join(ex, s, recordsFile))
		for _, f := range []string{"esm", "etm", "esm_partial", "soft_f1", "gold_schema", "pass_at"} {
			if k[f] {
				t.Errorf("%s: ex-only records have %s", s, f)
			}
		}
	}
	// No hardness parse: every question's difficulty is unknown.
	for _, r := range readRecords(t, filepath.Join(ex, "DAIL", recordsFile)) {
		if r.Difficulty != "unknown" {
			t.Fatalf("question %d has difficulty %q: hardness was computed", r.Index, r.Difficulty)
		}
	}
	t.Logf("EX DAIL %s (both runs)", func() string { _, v, _ := es.Metrics.Lookup("DAIL", "ex"); return v.Text }())
}
