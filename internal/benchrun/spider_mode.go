package benchrun

// spiderModeSetting is the manifest's spider_mode: the mode in force, "" for a Spider
// 2.0 run, which has no ex_spider.
func spiderModeSetting(p *Plan) string {
	if p.Dataset.Spider2 != nil {
		return ""
	}
	return string(p.Settings.SpiderMode)
}
