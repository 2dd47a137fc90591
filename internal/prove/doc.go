// Package prove decides, with an SMT solver, whether two SQL queries return the same
// result on every small database: bounded equivalence. It is the third verdict beside
// the counterexample search (internal/counterex): the search can only fail to find a
// difference; a proof says none exists within the bound.
//
// What "proven" promises: on every database whose tables hold at most Bound rows each
// and that satisfies the stated constraints (Schema: keys, NOT NULL, inclusions,
// non-empty tables; each listed in Result.Assumes), the two queries' results are equal
// under the requested comparison (a bag, a set, or a list up to the order of rows tied
// on the ORDER BY keys), whatever row SQLite picks where it may pick (a bare column of a
// group, a tie under LIMIT). Values are modelled abstractly: numbers as reals, text as
// ordered symbols (only comparisons with each other and with literals), so a proof
// covers every database of that shape; an encoding that would need more (functions,
// casts, integer division, collations, LIKE with ESCAPE or a pattern that is not a
// constant, a computed number compared with a TEXT column) is outside the subset and the
// answer is Unknown with the reason, never a guess. LIKE with a constant pattern is one
// predicate per pattern over the text symbols, fixed where the text is known (like.go);
// text compared with a number follows SQLite's affinity rules, "is this text a number"
// being two functions on the symbols fixed the same way (affinity.go).
//
// The subset (encode.go, expr.go, group.go): SELECT over tables and FROM subqueries
// joined by inner, cross or LEFT joins; WHERE and HAVING with SQL's three-valued logic
// (AND, OR, NOT, comparisons, IS [NOT] NULL, BETWEEN, IN lists, IN/EXISTS subqueries,
// correlated or not, scalar aggregate subqueries); GROUP BY with COUNT, SUM, MIN, MAX,
// AVG (DISTINCT too); bare columns of a group as SQLite's arbitrary choice; DISTINCT;
// UNION, INTERSECT, EXCEPT (ALL for UNION); ORDER BY with a constant LIMIT/OFFSET at
// the top, ties under LIMIT as any choice; CASE; + - * on numbers; [NOT] LIKE with a
// constant pattern; text against numbers by affinity.
//
// How it works: each table gets Bound symbolic rows, each present or absent; a query
// is evaluated symbolically into a bag of tuples, each with a presence condition; the
// solver (Z3, spoken to as SMT-LIB2 on `z3 -in`, so no cgo and no Go dependency) is
// asked for a database on which the two bags differ. unsat is Proven, sat is a
// counterexample (Result.DB, to be confirmed by running it on SQLite, which the caller
// does), unknown or the time budget spent is Unknown.
//
// To extend: a new expression form is a case in expr.go returning a value (a term and a
// NULL condition); a new aggregate is a case in group.go.
package prove
