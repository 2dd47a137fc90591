package record

// Modules holds the per-module outcomes of one record: Pass@k and the verdicts before and after revision.
// Fields are added here, never renamed.
type Modules struct{}
