package record

// Structural holds the structural-match verdicts of one record: exact set match and ETM.
// Fields are added here, never renamed.
type Structural struct{}
