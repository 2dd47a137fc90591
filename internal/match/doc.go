// Package match holds the structural verdicts: does a predicted query have the same
// structure as the gold query, independently of what executing them returns?
//
// Why it exists: execution accuracy has false positives (a wrong query that happens to
// return the gold rows) and exact set match has false negatives (a right query written
// differently). nl2sqlbench reports both, plus Enhanced Tree Matching (ETM), side by side
// per question, so that their disagreements can be read.
//
// Spider's exact set match (ESM) reproduces the official evaluation.py of the
// Spider test-suite repository (the same logic as the original Spider script). Both
// queries are parsed by internal/spidersql (a faithful model of process_sql) against the
// schema read from the SQLite file, exactly as the official script does; then esm_rebuild.go
// normalises them the way rebuild_sql_val / rebuild_sql_col do (values and DISTINCT
// dropped, columns mapped through the foreign-key map of tables.json), and esm.go compares
// them clause by clause as eval_exact_match does. Options turns on the stricter variants
// (values compared, DISTINCT compared), off by default so the official numbers reproduce.
// Spider's partial-match breakdown of the same comparison is partial.go (esm_partial,
// averaged by metrics.SummarizePartial into summary.json's esm_partial).
//
// ETM (etm*.go, normalize*.go and one rules_<family>.go per rule family of the ETM paper's
// Table 5) normalises both queries' sqlast trees under assumptions read from the database
// (keys, unique indexes, NOT NULL, non-empty tables, exact column lists) and compares the
// normal forms; SummarizeETM gives the rates and the EX/ETM disagreement lists. ETMMode (etm_mode.go) chooses between the ETM authors'
// script (official, the default: its quirks are switches, each named in a comment where it
// is reproduced) and our corrections (corrected); a new quirk is one more switch, one
// entry in quirkNames, a pair in TestETMModes and a row in docs/etm-modes.md. The
// corrected mode also records the official verdict where it differs (etm_official,
// etm_mode_rule).
//
// Both run as judge annotators (ESM's Annotator, ETMAnnotator) and add esm, etm and
// etm_rules to records. The run gives both, per record, one context deadline of --timeout
// (run/annotate.go): ETM checks it between rules, ESM (on reused workers, esm_workers.go,
// its parser taking the same context) stops at it; past it the field stays absent
// (ErrOverBudget, never a 0) and the run warns with the count. ETM does not prepare again
// a text the run's SQLite engine already ran without error on the same file
// (engine.SQLite.Ran, byte-identical text), and shares its parse of each prediction with
// schema linking (sqlast.ParseShared; neither modifies the tree), as it shares each
// database's introspection (dbschema.Introspections, one per run). The annotator also adds
// to an incorrect record's result_diff the clauses that differ from the gold's.
//
// To extend: a new structural metric is a function (pred, gold SQL, schema) -> verdict in
// its own file, one field in record.Structural, one call in Annotator.Annotate, and its
// counts in summary.go.
package match
