package record

// Efficiency holds the efficiency and partial-credit scores of one record (VES, R-VES, Soft-F1).
// Fields are added here, never renamed.
type Efficiency struct{}
