// Package export turns an SQLite database into what other engines load: tables on a
// PostgreSQL or MySQL server (LoadSQLite, the load-db subcommand), and JSON documents,
// one collection per table, for Couchbase's cbimport (WriteDocs, export-docs), so that the
// server engines in internal/engine run the same data. It reads SQLite through
// engine.SQLite, so the values it writes are exactly those the judge compares. Every
// file it names from data (a table, a question id) goes through Dir (outdir.go): the name
// is encoded by FileName and the file created inside an os.Root, so no name can write
// outside the directory the user gave.
//
// To support another target, add a Dialect (how to quote, which column types, how to
// number placeholders) or another writer beside docs.go.
package export
