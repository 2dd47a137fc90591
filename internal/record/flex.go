package record

// FlexMatch holds the flexible result comparison of the Couchbase NL2SQL++ benchmark
// (internal/judge, flex.go): results compared after value normalisation and a
// type-aware mapping of prediction columns to gold columns. Computed when the run asks
// for it (eval --flex; always for --engine sqlpp); absent otherwise and for records that
// were not judged (skipped, gold_error).
type FlexMatch struct {
	// Flex is 1 when FlexVerdict is exact or column_flexible (the blog's accuracy).
	Flex *int `json:"flex,omitempty"`
	// FlexVerdict is "exact", "column_flexible" or "failure".
	FlexVerdict string `json:"flex_verdict,omitempty"`
	// FlexReason says briefly why a failure failed.
	FlexReason string `json:"flex_reason,omitempty"`
}
