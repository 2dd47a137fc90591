package record

// Efficiency holds the efficiency and partial-credit scores of one record (VES, R-VES,
// Soft-F1). Fields are added here, never renamed.
//
// SoftF1 is computed for every judged record. The timing fields are set only when the run
// timed its predictions (eval --ves), in a separate phase after judging; they are nil
// otherwise, so "not timed" never reads as a score of 0.
type Efficiency struct {
	// SoftF1 is BIRD mini-dev's Soft-F1 of the prediction's result against the first gold
	// SQL that ran (0 when the prediction failed). Nil for skipped and gold_error records.
	SoftF1 *float64 `json:"soft_f1,omitempty"`

	// Timing names how the timing fields were measured: "official" (BIRD's scripts: fresh
	// connection per execution, mean of the ratios within 3 standard deviations) or
	// "robust" (sequential, warmed up, interleaved, median ratio).
	Timing string `json:"timing,omitempty"`
	// VES is the BIRD paper's reward sqrt(gold time / prediction time); 0 when the
	// prediction is not correct.
	VES *float64 `json:"ves,omitempty"`
	// RVESReward is BIRD mini-dev's bucketed reward (1.25, 1, 0.75, 0.5, 0.25; 0 when not
	// correct). The R-VES score averages its square root.
	RVESReward *float64 `json:"rves_reward,omitempty"`
	// TimeRatio is gold time / prediction time as the timing mode aggregates it (mean of
	// the cleaned ratios, or their median). Absent for predictions that were not timed.
	TimeRatio *float64 `json:"time_ratio,omitempty"`
	// TimeRatioSpread is the interquartile range of the per-iteration ratios.
	TimeRatioSpread *float64 `json:"time_ratio_spread,omitempty"`
	// TimingIterations is how many timed (prediction, gold) pairs produced the ratio.
	TimingIterations int `json:"timing_iterations,omitempty"`
	// GoldMillis and PredMillis are the median single-execution times of the gold and the
	// prediction during timing.
	GoldMillis *float64 `json:"gold_ms,omitempty"`
	PredMillis *float64 `json:"pred_ms,omitempty"`
}
