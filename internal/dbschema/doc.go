// Package dbschema describes the schema of a benchmark database: its tables, their columns
// in order, primary keys, foreign keys, UNIQUE constraints and NOT NULL columns.
//
// It exists because several stages need the same facts: the schema-selection metrics
// (which tables and columns a database really has), ETM's equivalence rules (keys,
// uniqueness, NOT NULL) and prompt building. A Schema comes either from a live SQLite file
// (Introspect, which never modifies the file) or from a Spider/BIRD tables.json
// (ReadTablesJSON), which carries names, types and keys but no NOT NULL or UNIQUE facts.
//
// To add a source (a PostgreSQL catalogue, another JSON format), write a function in its
// own file that fills a Schema; keep lookups case-insensitive, as SQL identifiers are.
package dbschema
