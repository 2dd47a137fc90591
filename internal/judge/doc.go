// Package judge runs each question's gold SQL and every system's prediction, compares the
// results under BIRD's and Spider's execution-match semantics, and gives every prediction
// one verdict (correct, incorrect, error, skipped, gold_error) under the run's primary
// semantics, with an error category for errors.
//
// Gold results are executed once per question and shared by all systems of a run; the
// same SQL text is executed once per question however many systems or candidates
// produced it. Work is spread over one pool of workers (judgeInOrder, shared by Run and
// RunSpider2); records come out in dataset order whatever order the workers finish in.
// Annotators (Annotator: ESM, ETM, schema linking, counterexamples, the LLM judge) add
// their fields to each record on the same workers.
//
// # Comparisons
//
// BirdEqual is BIRD's set semantics; SpiderEqual is Spider's test-suite semantics, after
// the official text rewrites. The judge notes where the official rewrite changed what a
// gold or a prediction means (the query as written ran, its rewrite did not or returned
// other rows: spider_note.go), and --spider-mode corrected compares after a rewrite
// limited to real placeholders and a top-level DISTINCT (spider_corrected.go,
// docs/spider-modes.md), keeping the official verdict in ex_spider_official where it
// differs. With Options.Flex it adds NL2SQL++'s flexible comparison (FlexCompare:
// normalised values, typed two-stage column mapping, exact / column_flexible / failure).
// Every incorrect record gets result_diff (resultdiff.go, docs/result-diff.md): how its
// result differs from the first gold's, matched as bags in place on the results the
// judge holds; match's annotator adds the clauses that differ from the gold's where both
// parse.
//
// The comparisons read engine.Results in place. BIRD's set comparison, Spider's two fast
// paths and Soft-F1 hash each row from its cells (cells.go: Python's ==, so an int equal
// to a float hashes alike) into an open-addressing table of row indices (one table reused
// through a pool) and confirm every hash match cell by cell, so no result is copied.
// Spider's permutation search runs only when the fast paths fail and the columns can be
// paired as multisets (checked in place first, so a wrong prediction is rejected without
// a copy); it and the flex comparison convert to their own value forms. The boxed
// [][]any comparators in oracle_old_test.go are the oracles of a differential test and a
// fuzz target.
//
// # Faults and targets
//
// A query failing with an infrastructure fault is retried (fault.go); one that outlasts
// its retries gives no verdict: that question and the later ones get no record and Run
// returns a FaultError, so a resumed run judges them. Predictions and gold SQL can run on
// different targets (Options.Locate, Options.Gold: the NL2SQL++ benchmark takes gold
// results from SQLite and runs SQL++ predictions on Couchbase), each with its own
// per-question cache.
//
// # Spider 2.0
//
// A Spider 2.0 run takes another path (RunSpider2, spider2_run.go): each task's answer is
// a result table (a CSV read by pandascsv, or a .sql run on SQLite and written and read
// back as pandas would), compared with the gold variants in both modes (spider2.go:
// evaluate.py's rules, quirks named; spider2_strict.go: rows as rows) and, where they
// disagree, why (spider2_why.go); records get ex_spider2 and both verdicts. The run layer
// dispatches to it for spider2 datasets (run/spider2.go).
//
// To add a comparison semantics: write a pure function over two engine.Results in its own
// file (compare_<name>.go), with tests reproducing the reference tool's verdicts, and add a
// record field for it in internal/record; never change what an existing field means.
package judge
