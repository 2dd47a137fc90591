// Package dbschema describes the schema of a benchmark database: its tables, their columns
// in order with their declared types, primary keys, foreign keys, UNIQUE constraints
// (unique indexes) and NOT NULL columns.
//
// It exists because several stages need the same facts: the Spider loader, the
// schema-selection metrics (which tables and columns a database really has), ETM's
// equivalence rules (keys, uniqueness, NOT NULL) and prompt building. A Schema comes
// either from a live SQLite file (Introspect, which opens it read-only through engine and
// never modifies it; Introspections shares one introspection per database across a run)
// or from a Spider/BIRD tables.json (ReadTablesJSON), which carries names, types and keys
// but no NOT NULL or UNIQUE facts. A tables.json is read through inputfile, a bad line
// named with jsonscan, as every reader of a user's file does, and parsed once per process
// while its contents stay the same (tablescache.go); ESM's foreign-key maps come from that
// parse (ReadTablesEntries). AffinityOf is SQLite's type-affinity rule for a declared type,
// the one counterexample generation and export both map.
//
// To add a source (a PostgreSQL catalogue, another JSON format), write a function in its
// own file that fills a Schema; keep lookups case-insensitive, as SQL identifiers are.
package dbschema
