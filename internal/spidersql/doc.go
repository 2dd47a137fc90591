// Package spidersql parses SQL exactly the way Spider's official evaluation does
// (process_sql.py: tokenize + get_sql) and derives Spider's hardness label (easy / medium /
// hard / extra) from the parse, exactly as evaluation.py's Evaluator.eval_hardness does.
//
// Why it exists: Spider question files carry no difficulty label; the official scripts
// compute it from the gold SQL, and our per-hardness numbers must match theirs. The parse
// result (SQL) is a faithful model of process_sql's nested structure, including its quirks
// (for example trailing tokens are ignored, and "NOT" on a condition is counted as an
// aggregation by count_others), so that Spider's exact set match (internal/match) compares
// these structures and agrees with the official tool. The Spider loader derives each
// question's difficulty with it. ParseContext stops at its context's deadline, so a
// structural comparison whose budget ends frees its CPU, and refuses a query over
// sqlscan.MaxAnalysed (256 KiB) with a parse error before tokenizing it, so one is bounded
// in memory too (process_sql has no such limit; no real query comes near it).
//
// Layout: tokenize.go and treebank.go reproduce the tokenizer (NLTK word_tokenize plus the
// string-value and operator handling of process_sql); parse_*.go hold the recursive-descent
// parser, one file per level (statement, clauses, units); hardness.go holds the three
// counters and the thresholds; pynum.go reads numbers with Python's float/int syntax;
// repr.go prints a parse the way Python prints the dict.
//
// To extend: keep the structure in sql.go aligned with process_sql. A new clause needs a
// field in SQL, a parse function called from parseSQL in the position process_sql calls it,
// and a line in repr.go. Counting rules belong in hardness.go, one function per reference
// counter, so each can be compared with the reference line by line.
package spidersql
