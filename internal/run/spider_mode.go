package run

import "github.com/nl2sqlbench/nl2sqlbench/internal/judge"

// spiderMode is the Spider rewrite in force: official unless --spider-mode says
// corrected. A bad value is refused by checkSpiderMode in Prepare.
func (c Config) spiderMode() judge.SpiderMode {
	m, err := judge.ParseSpiderMode(c.SpiderMode)
	if err != nil {
		return judge.SpiderOfficial
	}
	return m
}

// checkSpiderMode refuses an unknown --spider-mode before anything is loaded.
func checkSpiderMode(c Config) error {
	if _, err := judge.ParseSpiderMode(c.SpiderMode); err != nil {
		return configf("--spider-mode: %v", err)
	}
	return nil
}

// spiderModeSetting is the manifest's spider_mode: the mode in force, "" for a Spider
// 2.0 run, which has no ex_spider.
func spiderModeSetting(cfg Config, p *Plan) string {
	if p.Dataset.Spider2 != nil {
		return ""
	}
	return string(cfg.spiderMode())
}
