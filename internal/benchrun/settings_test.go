package benchrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// resolved is cfg's Settings; the test fails when cfg does not resolve.
func resolved(tb testing.TB, cfg Config) Settings {
	tb.Helper()
	st, err := Resolve(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// manifestOf is the manifest settings of a run with cfg on an empty dataset.
func manifestOf(tb testing.TB, cfg Config) rundir.ManifestSettings {
	tb.Helper()
	p := &Plan{Config: cfg, Dataset: &dataset.Dataset{}, Settings: resolved(tb, cfg)}
	return manifestSettings(p)
}

// TestResolve: every mode is parsed into its type once; a bad value is an error naming
// its flag (never read as the default), and a mode's default is "official".
func TestResolve(t *testing.T) {
	st := resolved(t, Config{})
	if st.Semantics != "" || st.SpiderMode != judge.SpiderOfficial || st.ETMMode != match.ETMOfficial || st.Spider2Mode != judge.Spider2Official || st.Timing != "" {
		t.Errorf("defaults: %+v", st)
	}
	st = resolved(t, Config{Semantics: "spider", SpiderMode: "corrected", ETMMode: "corrected", Spider2Mode: "strict", VES: true, Timing: "robust", Metrics: []string{"ex,ves"}})
	if st.Semantics != judge.Spider || st.SpiderMode != judge.SpiderCorrected || st.ETMMode != match.ETMCorrected || st.Spider2Mode != judge.Spider2Strict ||
		st.Timing != judge.TimingRobust || !st.Selection.Has("ves") || st.Selection.Has("esm") {
		t.Errorf("given: %+v", st)
	}
	bad := []struct {
		cfg  Config
		flag string
	}{
		{Config{Semantics: "exact"}, "--semantics"},
		{Config{SpiderMode: "strict"}, "--spider-mode"},
		{Config{ETMMode: "strict"}, "--etm-mode"},
		{Config{Spider2Mode: "corrected"}, "--spider2-mode"},
		{Config{VES: true, Timing: "fast"}, "--timing"},
		{Config{VES: true}, "--timing"}, // no timing mode given with --ves: not read as official
		{Config{Metrics: []string{"nope"}}, "--metrics"},
		{Config{Metrics: []string{"ves"}}, "--metrics"}, // needs --ves
	}
	for _, tc := range bad {
		_, err := Resolve(tc.cfg)
		if !errors.Is(err, ErrConfig) || !strings.HasPrefix(err.Error(), tc.flag+": ") {
			t.Errorf("%+v: error %v, want ErrConfig naming %s", tc.cfg, err, tc.flag)
		}
	}
	// Without --ves the timing mode is not read: nothing is timed.
	if _, err := Resolve(Config{Timing: "fast"}); err != nil {
		t.Errorf("--timing without --ves: %v", err)
	}
}

// TestResolveManifest: a run's recorded modes are read with the run's own metric
// switches; one this build does not know is refused, naming its manifest key.
func TestResolveManifest(t *testing.T) {
	m := &rundir.Manifest{Settings: rundir.ManifestSettings{Semantics: "spider", SpiderMode: "corrected", TestSuite: "seed=1", Metrics: []string{"ex", "ts_ex"}}}
	st, err := ResolveManifest(m, new(Config).metricOptions())
	if err != nil || st.Semantics != judge.Spider || st.SpiderMode != judge.SpiderCorrected || !st.Selection.Has("ts_ex") || st.Selection.Has("esm") {
		t.Errorf("good manifest: %+v, %v", st, err)
	}
	for key, set := range map[string]func(*rundir.ManifestSettings){
		"semantics":    func(s *rundir.ManifestSettings) { s.Semantics = "exact" },
		"spider_mode":  func(s *rundir.ManifestSettings) { s.SpiderMode = "bogus" },
		"etm_mode":     func(s *rundir.ManifestSettings) { s.ETMMode = "bogus" },
		"spider2_mode": func(s *rundir.ManifestSettings) { s.Spider2Mode = "bogus" },
		"timing":       func(s *rundir.ManifestSettings) { s.VES, s.Timing = true, "bogus" },
		"metrics":      func(s *rundir.ManifestSettings) { s.Metrics = []string{"nope"} },
	} {
		m := &rundir.Manifest{}
		set(&m.Settings)
		_, err := ResolveManifest(m, new(Config).metricOptions())
		if !errors.Is(err, ErrManifestSetting) || !strings.Contains(err.Error(), "manifest setting "+key+":") {
			t.Errorf("bad %s: %v", key, err)
		}
	}
}

// TestVerifyRefusesUnknownSemantics: verify re-runs counterexamples under the run's
// semantics; one it does not know is refused, naming it, not read as BIRD's; so is a
// mode of the run's manifest.
func TestVerifyRefusesUnknownSemantics(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("s/records.jsonl", `{"index": 0, "question_id": "q0", "db_id": "d", "gold_sql": "SELECT 1", "pred_sql": "SELECT 1", "verdict": "correct"}`+"\n")
	for sem, want := range map[string]string{"bird": "", "": "", "exact": `semantics: must be bird or spider, not "exact"`,
		// A mode the manifest records, this build does not know.
		`bird"}, "manifest": {"settings": {"etm_mode": "bogus"}}, "x": {"y": "`:        `manifest setting etm_mode: `,
		`bird"}, "manifest": {"settings": {"spider_mode": "corrected"}}, "x": {"y": "`: ""} {
		write("summary.json", `{"settings": {"semantics": "`+sem+`"}, "systems": [{"system": "s", "dir": "s"}]}`)
		_, _, err := VerifyCounterexamples(context.Background(), dir)
		switch {
		case want == "" && err != nil:
			t.Errorf("semantics %q: %v", sem, err)
		case want != "" && (!errors.Is(err, ErrManifestSetting) || !strings.Contains(err.Error(), want)):
			t.Errorf("semantics %q: error %v, want one naming it", sem, err)
		}
	}
}
