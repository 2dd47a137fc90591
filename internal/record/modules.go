package record

// Modules holds the per-module outcomes of one record: Pass@k and the verdicts before and after revision.
// Fields are added here, never renamed.
type Modules struct {
	// PassAt maps k (as text: "1", "5", ...) to 1 when one of the first k candidates is
	// correct, else 0. A question with fewer than k candidates uses all it has (see
	// PassAtCandidates). A record without candidates counts its judged SQL as its one
	// candidate.
	// Read-only: records share the usual maps (metrics.FillPassAt); replace, never write.
	PassAt map[string]int `json:"pass_at,omitempty"`
	// PassAtCandidates is how many candidates Pass@k had for this question.
	PassAtCandidates int `json:"pass_at_candidates,omitempty"`
	// PreRevisionVerdict is the verdict of the SQL before query revision (the first
	// candidate); PostRevisionVerdict is the verdict after it (the judged SQL). Both are
	// set only when the system reported a revision and at least one candidate.
	PreRevisionVerdict        Verdict       `json:"pre_revision_verdict,omitempty"`
	PreRevisionErrorCategory  ErrorCategory `json:"pre_revision_error_category,omitempty"`
	PostRevisionVerdict       Verdict       `json:"post_revision_verdict,omitempty"`
	PostRevisionErrorCategory ErrorCategory `json:"post_revision_error_category,omitempty"`
}
