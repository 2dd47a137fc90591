package cli

// metricsUsage is eval's --metrics help (the run layer reads the list: run/selection.go).
const metricsUsage = "compute only these metrics: registry ids (ex, ex_bird, ex_spider, soft_f1, esm, etm, ...), by_difficulty, esm_partial, " +
	"or groups bird (BIRD's scripts), spider (test-suite evaluation.py --etype all), all (default); comma-separated or repeated. " +
	"Only the work they need runs: ex alone parses no SQL (docs/metrics-selection.md)"
