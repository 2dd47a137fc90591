// Package export turns an SQLite database into what other engines load: tables on a
// PostgreSQL or MySQL server (LoadSQLite, the load-db subcommand), and JSON documents,
// one collection per table, for Couchbase's cbimport (WriteDocs, export-docs), so that the
// server engines in internal/engine run the same data. It reads SQLite through
// engine.SQLite, so the values it writes are exactly those the judge compares.
//
// To support another target, add a Dialect (how to quote, which column types, how to
// number placeholders) or another writer beside docs.go.
package export
