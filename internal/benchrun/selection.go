package benchrun

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// The metrics a run computes (Config.Metrics, eval --metrics) are selected once, by
// Resolve (settings.go): the registry declares what each one needs (metrics.Need), and
// Settings.Needs turns the union into the run's dataset options, annotators and judge
// options, so that EX alone parses no SQL.

// metricOptions are the registry options in force.
func (c *Config) metricOptions() metrics.Options {
	return metrics.Options{PassK: c.passK(), Pricing: c.Pricing}
}

// metricsSetting is the selection as the manifest records it: nil for every metric, so
// that a run with the default resumes a run made before --metrics existed.
func (s Settings) metricsSetting() []string {
	return s.Selection.IDs(s.MetricOptions)
}
