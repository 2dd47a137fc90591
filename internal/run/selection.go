package run

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// The metrics a run computes (Config.Metrics, eval --metrics): the registry declares
// what each one needs (metrics.Need), and this file turns the union into the run's
// dataset options, annotators and judge options, so that EX alone parses no SQL.

// selection is the metrics cfg chooses; a mistake (an unknown id, a metric whose flag is
// off) matches ErrConfig.
func (c *Config) selection() (metrics.Selection, error) {
	sel, err := metrics.SelectMetrics(c.Metrics, c.metricOptions(), metrics.Switches{VES: c.VES, TestSuite: c.TestSuite, Flex: c.Flex, LLMJudge: c.LLMJudge != nil})
	if err != nil {
		return sel, configf("--metrics: %v", err)
	}
	return sel, nil
}

// needs is the work cfg's metrics need; a Config whose selection is invalid (which
// Prepare refuses) needs everything.
func (c *Config) needs() metrics.Need {
	sel, err := c.selection()
	if err != nil {
		sel = metrics.Selection{}
	}
	return sel.Needs(c.metricOptions())
}

// chosen is cfg's selection, every metric when it is invalid (Prepare refused it before
// anything could be summarised).
func (c *Config) chosen() metrics.Selection {
	sel, err := c.selection()
	if err != nil {
		return metrics.Selection{}
	}
	return sel
}

// metricOptions are the registry options in force.
func (c *Config) metricOptions() metrics.Options {
	return metrics.Options{PassK: c.passK(), Pricing: c.Pricing}
}

// metricsSetting is the selection as the manifest records it: nil for every metric, so
// that a run with the default resumes a run made before --metrics existed.
func (c *Config) metricsSetting() []string {
	return c.chosen().IDs(c.metricOptions())
}
