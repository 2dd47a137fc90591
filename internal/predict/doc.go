// Package predict reads the outputs of NL2SQL systems and pairs them with dataset
// questions: BIRD prediction JSON, Spider prediction text, JSON lists of SQL strings and
// NL2SQLBench records (module nodes, or the released tool's flat records). CSV tables and
// question files are refused with a hint saying what they are (wrongformat.go).
//
// Pairing is strict: a count mismatch, a missing, duplicate or unknown key, or a db_id
// that disagrees with the dataset is an error that names the offending line or key. (The
// official BIRD scripts pair by position and silently mis-score; we refuse instead.)
//
// It owns the module-record format, with its one Go model (modulerecord.go): a
// ModuleRecord is one line, a ModuleOutput (what eval reads: node type, ids, schema, SQL,
// usage) plus ModuleDetails (what the writer notes: strategy, pass, votes, ...; never read
// by eval). internal/collect writes that type, and ModuleUsage reads the per-module usage
// through it.
//
// To add a format: write a reader in its own file returning a *Set, and teach detect (detect.go)
// to recognise it (detect.go).
package predict
