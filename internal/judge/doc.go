// Package judge runs each question's gold SQL and every system's prediction, compares the
// results under BIRD's and Spider's execution-match semantics, and gives every prediction
// one verdict (correct, incorrect, error, skipped, gold_error) with an error category.
//
// Gold results are executed once per question and shared by all systems of a run; the
// same SQL text is executed once per question however many systems or candidates
// produced it. Work is spread over one pool of workers (judgeInOrder, shared by Run and
// RunSpider2); records come out in dataset order.
//
// To add a comparison semantics: write a pure function over two engine.Results in its own
// file (compare_<name>.go), with tests reproducing the reference tool's verdicts, and add a
// record field for it in internal/record; never change what an existing field means.
package judge
