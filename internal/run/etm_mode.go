package run

import "github.com/nl2sqlbench/nl2sqlbench/internal/match"

// etmMode is the ETM mode in force: official (the ETM authors' script) unless
// --etm-mode says corrected. A bad value is refused by checkETMMode in Prepare.
func (c Config) etmMode() match.ETMMode {
	m, err := match.ParseETMMode(c.ETMMode)
	if err != nil {
		return match.ETMOfficial
	}
	return m
}

// checkETMMode refuses an unknown --etm-mode before anything is loaded.
func checkETMMode(c Config) error {
	if _, err := match.ParseETMMode(c.ETMMode); err != nil {
		return configf("--etm-mode: %v", err)
	}
	return nil
}
