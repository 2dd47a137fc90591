package benchrun

import (
	"errors"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Settings are the settings that shape verdicts and scores, parsed into their types
// once: Resolve reads them from a Config (the flags), ResolveManifest from a run's
// manifest (merge, rescore). Everything after (Prepare, the manifest, the annotators,
// judging, the summary) reads them here and never parses a mode string again. A bad
// value is an error naming the flag or the manifest key, never a fallback to a default.
//
// To add a mode: a field here, one parse in resolve, and its entry in the table of
// recorded settings (recorded.go), which declares its flag and manifest key.
type Settings struct {
	// Semantics decides the verdict. Resolve leaves it "" when --semantics is not given;
	// Prepare sets the dataset kind's default once the dataset is loaded.
	Semantics   judge.Semantics
	SpiderMode  judge.SpiderMode
	ETMMode     match.ETMMode
	Spider2Mode judge.Spider2Mode
	// Timing is the VES timing mode; "" without VES (--timing is then not read).
	Timing judge.TimingMode
	// TestSuite is the counterexample search's seed, budget and domain as the manifest
	// records them (testSuiteSetting); "" when off. The summary shows it.
	TestSuite string
	// Selection is the chosen metrics (the zero Selection: every metric) and Needs what
	// they need, for the registry options MetricOptions.
	Selection     metrics.Selection
	Needs         metrics.Need
	MetricOptions metrics.Options
}

// rawSettings are the strings resolve parses, with what names each in an error.
type rawSettings struct {
	semantics, spiderMode, etmMode, spider2Mode, timing, testSuite string
	ves                                                            bool
	metrics                                                        []string
	switches                                                       metrics.Switches
	opt                                                            metrics.Options
}

// Resolve parses cfg's modes and selects its metrics; a mistake matches ErrConfig and
// names the flag.
func Resolve(cfg Config) (Settings, error) {
	return resolve(rawSettings{
		semantics: cfg.Semantics, spiderMode: cfg.SpiderMode, etmMode: cfg.ETMMode, spider2Mode: cfg.Spider2Mode,
		timing: cfg.Timing, ves: cfg.VES, metrics: cfg.Metrics, testSuite: testSuiteSetting(cfg),
		switches: metrics.Switches{VES: cfg.VES, TestSuite: cfg.TestSuite, Flex: cfg.Flex, LLMJudge: cfg.LLMJudge != nil},
		opt:      cfg.metricOptions(),
	}, func(flag, _ string) string { return flag }, configf)
}

// ErrManifestSetting is ResolveManifest's error: a manifest records a setting this build
// does not know (a mode it cannot read is refused, not read as the default).
var ErrManifestSetting = errors.New("unknown manifest setting")

// ResolveManifest parses the settings a run's manifest recorded; a value this build does
// not know matches ErrManifestSetting and names the manifest key. The metric switches
// are the run's own (its VES, test suite, flex and LLM judge settings).
func ResolveManifest(m *rundir.Manifest, opt metrics.Options) (Settings, error) {
	st := m.Settings
	return resolve(rawSettings{
		semantics: st.Semantics, spiderMode: st.SpiderMode, etmMode: st.ETMMode, spider2Mode: st.Spider2Mode,
		timing: st.Timing, ves: st.VES, metrics: st.Metrics, testSuite: st.TestSuite,
		switches: metrics.Switches{VES: st.VES, TestSuite: st.TestSuite != "", Flex: st.Flex, LLMJudge: st.LLMJudge != ""},
		opt:      opt,
	}, func(_, key string) string { return "manifest setting " + key }, func(format string, a ...any) error {
		return &manifestSettingError{msg: fmt.Sprintf(format, a...)}
	})
}

// manifestSettingError is a recorded setting this build cannot read; its message names
// the manifest key.
type manifestSettingError struct{ msg string }

func (e *manifestSettingError) Error() string        { return e.msg }
func (e *manifestSettingError) Is(target error) bool { return target == ErrManifestSetting }

// resolve parses raw; name gives a setting's name in an error (its flag or manifest
// key), errf builds the error.
func resolve(raw rawSettings, name func(flag, key string) string, errf func(string, ...any) error) (Settings, error) {
	var s Settings
	var err error
	if s.Semantics, err = parseSemantics(raw.semantics); err != nil {
		return s, errf("%s: %v", name("--semantics", "semantics"), err)
	}
	if s.SpiderMode, err = judge.ParseSpiderMode(raw.spiderMode); err != nil {
		return s, errf("%s: %v", name("--spider-mode", "spider_mode"), err)
	}
	if s.ETMMode, err = match.ParseETMMode(raw.etmMode); err != nil {
		return s, errf("%s: %v", name("--etm-mode", "etm_mode"), err)
	}
	if s.Spider2Mode, err = judge.ParseSpider2Mode(raw.spider2Mode); err != nil {
		return s, errf("%s: %v", name("--spider2-mode", "spider2_mode"), err)
	}
	if raw.ves {
		if s.Timing, err = judge.ParseTimingMode(raw.timing); err != nil {
			return s, errf("%s: %v", name("--timing", "timing"), err)
		}
	}
	if s.Selection, err = metrics.SelectMetrics(raw.metrics, raw.opt, raw.switches); err != nil {
		return s, errf("%s: %v", name("--metrics", "metrics"), err)
	}
	s.MetricOptions, s.TestSuite = raw.opt, raw.testSuite
	s.Needs = s.Selection.Needs(raw.opt)
	return s, nil
}

// parseSemantics reads --semantics: bird, spider, or "" (the dataset kind's default,
// semanticsFor).
func parseSemantics(s string) (judge.Semantics, error) {
	switch judge.Semantics(s) {
	case "", judge.Bird, judge.Spider:
		return judge.Semantics(s), nil
	}
	return "", fmt.Errorf("must be bird or spider, not %q", s)
}

// ParseRecordedSemantics reads the semantics a run recorded (summary.json's or the
// manifest's): bird or spider; "" (a run that recorded none) is bird.
func ParseRecordedSemantics(s string) (judge.Semantics, error) {
	sem, err := parseSemantics(s)
	if err != nil {
		return "", &manifestSettingError{msg: "setting semantics: " + err.Error()}
	}
	if sem == "" {
		sem = judge.Bird
	}
	return sem, nil
}

// withDefaultSemantics is s with the semantics of a dataset of kind when --semantics
// was not given.
func (s Settings) withDefaultSemantics(kind string) Settings {
	if s.Semantics == "" {
		s.Semantics = semanticsFor(kind)
	}
	return s
}
