package record

// SpiderRewrite says where Spider's official rewrite (internal/judge, spider_rewrite.go:
// "value" plugged as a substring, DISTINCT deleted wherever it is) changed what a query
// means: the rewritten query no longer ran, or no longer returned the rows, as a set,
// of the query as written. ex_spider there may be the rewrite's doing, not the system's.
// Fields are added here, never renamed.
type SpiderRewrite struct {
	// SpiderRewriteChanged lists the queries the official rewrite changed: "gold" (an
	// accepted gold of the question), "pred" (this prediction), in that order.
	SpiderRewriteChanged []string `json:"spider_rewrite_changed,omitempty"`
	// SpiderRewriteCorners names the corners of the rewrite found in those queries
	// (judge.Corner*: value_in_name, distinct_in_aggregate, ...), sorted.
	SpiderRewriteCorners []string `json:"spider_rewrite_corners,omitempty"`
	// ExSpiderOfficial is set only under --spider-mode corrected, and only where the
	// official rewrite gives another ex_spider: that verdict (0/1).
	ExSpiderOfficial *int `json:"ex_spider_official,omitempty"`
}
