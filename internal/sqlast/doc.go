// Package sqlast understands SQLite-dialect SQL well enough to say which tables and
// columns a query uses: the gold schema of a question, or the schema a prediction touched.
//
// It exists because schema-selection metrics (precision / recall / F1 of a system's
// selected schema against the gold query's) need every column reference of a query
// resolved to its table, and doing that by regular expressions is wrong as soon as a query
// has aliases, subqueries, CTEs or set operations.
//
// Parsing is done by github.com/sqlc-dev/meyer (a pure Go port of SQLite's own grammar);
// no meyer type appears in this package's API, so the parser can be swapped. On top of its
// syntax tree the package builds scopes (each SELECT's FROM items, table aliases local to
// their SELECT, CTE names visible lexically, subqueries in FROM exposing their output
// columns) and resolves every column reference against a dbschema.Schema the way SQLite
// does: identifiers compare case-insensitively, backtick / double-quote / bracket quoting
// is only spelling, and a double-quoted word that names no column is a string literal
// (Spider writes string literals that way). ExtractSchema returns a Use: the tables,
// the table.column pairs, and the references that stayed unresolved or ambiguous. The
// gold schema of the schema-selection metrics and the parse command come from it
// (conventions below, and docs/parse.md); a corpus test checks it against SQLite's own
// authorizer. ParseShared lets ETM and schema linking share one parse of each text (its
// tree is never modified). A text over sqlscan.MaxAnalysed (256 KiB) is a parse error,
// not parsed: its tree would cost hundreds of bytes of memory per byte, and no real query
// comes near it; MaxDepth bounds the tree of a shorter one.
//
// Query.Features reads a query's characteristics for internal/slicing: joins, nesting,
// aggregation, GROUP BY, HAVING, ORDER BY with LIMIT, set operations, window functions,
// CASE, LIKE, date/time functions, arithmetic in SELECT, DISTINCT.
//
// Gold-schema conventions (ExtractSchema):
//   - every base table named in a FROM clause anywhere in the query (also in subqueries,
//     CTEs and set-operation branches, and in "x IN table") is used, even when none of its
//     columns is referenced;
//   - a column is used when any clause references it: SELECT, JOIN ... ON / USING (and the
//     shared columns of a NATURAL join), WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, window
//     definitions, function arguments, subqueries, CTE bodies;
//   - COUNT(*) adds no column; SELECT * and t.* add every column of the tables in scope;
//   - a reference to a CTE's or FROM-subquery's output column maps back to the base
//     columns that output column was computed from (its lineage); the CTE or subquery
//     body is itself part of the query, so its own references count whether or not the
//     outer query reads them;
//   - a reference to a result alias (ORDER BY cnt) adds nothing of its own: the aliased
//     expression already did;
//   - references that match no table in scope are reported in Use.Unresolved, those that
//     match several in Use.Ambiguous, and neither adds a column; names in FROM that are
//     neither a CTE nor a schema table are reported in Use.UnknownTables.
//
// To extend: resolution lives in resolve.go (one method per syntax form) and scope lookup
// in scope.go; a new syntax form that holds expressions needs a case in resolver.expr,
// otherwise its sub-expressions are still visited through the generic fallback.
package sqlast
