// Package report renders a run for people and tools, and computes nothing: every number
// it prints comes from summary.json (the registry's metrics section and the analysis
// sections); the run's types and files are internal/rundir's. Records are read typed
// (rundir.Load) and only for per-question views. Functions here write to an io.Writer
// and never choose file names themselves: the cli decides where things go.
//
// The outputs:
//   - the terminal tables: WriteShort, the one-screen default (headline, each system
//     against the best from summary.json's vs_best, vsbest.go, or one system's intervals;
//     EX by difficulty for up to two systems; errors; a legend), and WriteDetails (eval
//     --details and merge), every section that says something, each followed by a legend
//     of its terms (legend.go); every terminal table is rows of cells printed by its grid
//     writer; table_stats.go prints the intervals and paired tests from summary.json's
//     texts, table_slices.go the slice and result_diff tables, audit.go the audit section
//     and each question's findings from audit.jsonl;
//   - the self-contained HTML report (html*.go: inline SVG charts, a per-question
//     drill-down with the question list's slice filter, result tables re-executed
//     read-only only under a database root the user gave, never the run's);
//   - the Markdown summary (markdown.go);
//   - serve, a local dashboard over run directories, which also records reviews
//     (serve_review.go) and re-scores through the Rescorer the cli gives it.
//
// scores.go builds the tables every output shares (headline, by difficulty, schema,
// Pass@k, usage) from the metrics section, so each number is printed from the same text
// everywhere; its row builders (scoreRows, difficultyRows, categoryRows) serve the
// terminal and the Markdown alike; charts draw the section's values and the modules
// analyses. A run whose
// files differ from their recorded hashes is rendered under a banner saying it was
// changed.
//
// Sections are listed once, in sections.go: an ordered list of placements (id, the
// outputs that print it, its renderer per output, its name in eval's --details hint),
// which WriteShort, WriteDetails, WriteMarkdown, BuildPage and DetailsHas iterate; the
// HTML page draws the list too, each placement with its "section-<id>" template. To add
// a section, add its entry there (and its template, when the page shows it).
//
// To add an output: a new file with a Write<Thing>(w io.Writer, ...) function that reads
// a *rundir.Summary through scores.go's tables, and a golden test under testdata/.
package report
