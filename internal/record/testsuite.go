package record

// TestSuite holds the counterexample search's fields (eval --test-suite, internal/
// counterex). Fields are added here, never renamed.
//
// TSEX is 1 when the record is EX-correct and no realistic counterexample database
// (Counterexample.Kind) was found within the budget, 0 when it is not correct or one
// was found; absent when the search was off. A robustness finding, or one marking the
// gold as suspect, is kept in Counterexample without changing TSEX. TSDBs counts the variant databases tried (0 with TSNote saying why none could
// be built: a query reading a view, say; ts_ex then stays the EX verdict).
type TestSuite struct {
	TSEX           *int            `json:"ts_ex,omitempty"`
	TSDBs          int             `json:"ts_dbs,omitempty"`
	TSNote         string          `json:"ts_note,omitempty"`
	Counterexample *Counterexample `json:"counterexample,omitempty"`
	// TSProof is the bounded proof's answer for an EX-correct record (internal/prove):
	// "proven" (equal on every database of at most Proof.Bound rows per table that
	// satisfies Proof.Assumes, cross-checked on random databases), "refuted" (a solver
	// counterexample confirmed on SQLite: Counterexample holds it) or "unknown"
	// (Proof.Reason says why). Absent when no proof was attempted.
	TSProof string `json:"ts_proof,omitempty"`
	Proof   *Proof `json:"proof,omitempty"`
}

// Proof is how a ts_proof answer was reached.
type Proof struct {
	Bound   int      `json:"bound"`             // rows per table
	Assumes []string `json:"assumes,omitempty"` // constraints every database considered satisfies
	// SolverMS is the solver's time in milliseconds.
	SolverMS int64 `json:"solver_ms"`
	// Checked counts the random databases within the bound on which both queries ran
	// with equal results before "proven" was kept.
	Checked int    `json:"checked,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// BySolver is true when the counterexample was found by the solver, not the sampler.
	BySolver bool `json:"by_solver,omitempty"`
}

// Counterexample is a database on which the prediction's result differs from the gold's
// under the run's semantics: a standalone SQL script (CREATE TABLE + INSERT) in the run
// directory, and both results on it.
type Counterexample struct {
	// Path is the script's path inside the run directory (slash-separated).
	Path       string      `json:"path"`
	Rows       int         `json:"rows"` // rows the script inserts
	GoldResult ResultTable `json:"gold_result"`
	PredResult ResultTable `json:"pred_result"`
	// Script is the SQL text, written to Path by the run directory's writer.
	Script string `json:"-"`
	// Kind is "realistic" when the database departs from nothing the original data shows
	// (its profile: NULLs, value domains, lookup tables, inclusions), "robustness" when it
	// does; Assumes lists the facts it departs from ("NULL in T.c (never NULL in the
	// data)"). Only a realistic one not marked GoldSuspect sets ts_ex to 0.
	Kind    string   `json:"kind,omitempty"`
	Assumes []string `json:"assumes,omitempty"`
	// GoldSuspect says why the difference points at the gold rather than the prediction
	// ("tie on age under the gold's LIMIT 1"): the record keeps ts_ex 1.
	GoldSuspect string `json:"gold_suspect,omitempty"`
	// GoldSuspectAudit is the gold audit's finding (internal/audit, the check audit.jsonl
	// would name) on the original data that a GoldSuspect difference matches: limit_tie
	// when the real rows already tie under the gold's LIMIT. Check "none" says the audit
	// finds no order dependence there: the tie exists only on the counterexample database.
	GoldSuspectAudit *AuditRef `json:"gold_suspect_audit,omitempty"`
}

// AuditRef names one gold-audit finding: its check, confidence and evidence.
type AuditRef struct {
	Check      string `json:"check"`
	Confidence string `json:"confidence,omitempty"`
	Evidence   string `json:"evidence,omitempty"`
}

// ResultTable is a small query result as stored for display: BLOBs as X'..' text.
type ResultTable struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}
