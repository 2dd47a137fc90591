// Package match holds the structural verdicts: does a predicted query have the same
// structure as the gold query, independently of what executing them returns?
//
// Why it exists: execution accuracy has false positives (a wrong query that happens to
// return the gold rows) and exact set match has false negatives (a right query written
// differently). nl2sqlbench reports both, plus Enhanced Tree Matching (ETM), side by side
// per question, so that their disagreements can be read.
//
// Now: Spider's exact set match (ESM), reproducing the official evaluation.py of the
// Spider test-suite repository (the same logic as the original Spider script). Both
// queries are parsed by internal/spidersql (a faithful model of process_sql) against the
// schema read from the SQLite file, exactly as the official script does; then esm_rebuild.go
// normalises them the way rebuild_sql_val / rebuild_sql_col do (values and DISTINCT
// dropped, columns mapped through the foreign-key map of tables.json), and esm.go compares
// them clause by clause as eval_exact_match does. Options turns on the stricter variants
// (values compared, DISTINCT compared), off by default so the official numbers reproduce.
//
// ETM (etm*.go, normalize*.go and one rules_<family>.go per rule family of the ETM paper's
// Table 5) normalises both queries' sqlast trees under assumptions read from the database
// (keys, unique indexes, NOT NULL, non-empty tables, exact column lists) and compares the
// normal forms; ETMAnnotator fills the record's etm and etm_rules, SummarizeETM the rates and
// the EX/ETM disagreement lists. ETMMode (etm_mode.go) chooses between the ETM authors'
// script (official, the default: its quirks are switches, each named in a comment where it
// is reproduced) and our corrections (corrected); a new quirk is one more switch, one
// entry in quirkNames, a pair in TestETMModes and a row in docs/etm-modes.md.
//
// To extend: a new structural metric is a function (pred, gold SQL, schema) -> verdict in
// its own file, one field in record.Structural, one call in Annotator.Annotate, and its
// counts in summary.go.
package match
