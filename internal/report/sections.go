package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The one list of output sections. Every text output of a run iterates it, in its order,
// and prints the entries placed in it: eval's one screen (WriteShort), eval --details and
// merge (WriteDetails), and report --md (WriteMarkdown). eval's hint of what --details
// adds (DetailsHas) is read from it too, and the HTML page (the report and the dashboard)
// draws its sections from it: BuildPage fills each placement's part of the page, and the
// page template draws each with the placement's template. To add a section: write its
// renderers (an HTML one is a "section-<id>" template in templates/report.html.tmpl),
// add an entry where it belongs, with the outputs that show it and, when --details adds
// it to the one screen, the words eval's hint names it by.
//
// An entry is a placement: a section that two outputs print at different places (the
// comparison with the best is the one screen's fourth section and --details' twelfth)
// has one entry per place, each naming the outputs printed there.

// Output is a text output of a run, as a set of bits.
type Output uint8

const (
	OutShort    Output = 1 << iota // eval's one screen (WriteShort)
	OutDetails                     // eval --details and merge (WriteDetails)
	OutMarkdown                    // report --md (WriteMarkdown)
	// OutHTML is the HTML report and the dashboard: BuildPage fills the page's section
	// fields from these placements, in this order, and the page template draws them in
	// the same order, each with its Template (between the title and the questions).
	OutHTML
)

// Section is one placement of an output section.
type Section struct {
	ID string
	In Output // the outputs that print it here
	// Hint names the section in eval's hint of what --details adds (DetailsHas), for
	// this summary; nil or empty: not named.
	Hint func(*rundir.Summary) []string
	// Short and Details print it on a terminal (nil when the output does not show it):
	// each prints nothing when the summary has none of it.
	Short, Details func(io.Writer, *rundir.Summary) error
	// Markdown writes it for report --md (nil when Markdown does not show it).
	Markdown func(*strings.Builder, *rundir.Run)
	// HTML fills its part of the page (nil: nothing to fill, as for a heading), after
	// the page's questions are built; Template draws it from the page ("": drawn by
	// another placement's template, as the reviewed scores among the statistics).
	HTML     func(*Page, *rundir.Run)
	Template string
}

// Sections is the ordered list every output iterates (see above).
var Sections = []Section{
	{ID: "scores", In: OutShort | OutDetails | OutMarkdown | OutHTML, Template: "section-scores", Short: writeShortScores, Details: writeScores, Markdown: mdScores,
		HTML: func(p *Page, r *rundir.Run) { p.Scores = Scores(&r.Summary) }},
	{ID: "tasks", In: OutShort, Short: writeTasksTable},
	{ID: "intervals", In: OutShort, Short: writeShortIntervals},
	{ID: "vs_best", In: OutShort | OutMarkdown | OutHTML, Template: "section-vs_best", Short: writeShortComparison, Markdown: mdComparison,
		HTML: func(p *Page, r *rundir.Run) { p.Comparison = ComparisonTable(&r.Summary) }},
	{ID: "charts", In: OutHTML, Template: "section-charts", HTML: func(p *Page, r *rundir.Run) { p.Charts = Charts(r) }},
	{ID: "ex_by_difficulty", In: OutShort, Short: writeEXByDifficulty},
	{ID: "errors", In: OutShort, Short: writeErrorLines},
	{ID: "legend", In: OutShort | OutDetails, Short: writeHeadlineLegend, Details: writeHeadlineLegend},
	// The heading over the score tables below it (by difficulty, modules, tasks, statistics).
	{ID: "score_tables", In: OutHTML, Template: "section-score_tables"},
	{ID: "by_difficulty", In: OutDetails | OutMarkdown | OutHTML, Template: "section-by_difficulty", Details: writeDifficultyTable, Markdown: mdDifficulty,
		HTML: func(p *Page, r *rundir.Run) { p.ByDifficulty = ByDifficulty(&r.Summary) },
		// The one screen shows EX by difficulty for up to two systems, or none beside vs_best.
		Hint: hintIf(func(s *rundir.Summary) bool { return len(s.Systems) > 2 && s.VsBest != nil }, "EX by difficulty")},
	{ID: "errors", In: OutDetails, Details: writeErrorCategories},
	{ID: "modules", In: OutDetails | OutMarkdown | OutHTML, Template: "section-modules", Details: WriteModulesTable, Markdown: mdModules,
		HTML: func(p *Page, r *rundir.Run) { p.ModuleTables = ModuleTables(&r.Summary) },
		Hint: hintIf(func(s *rundir.Summary) bool { return s.Modules != nil }, "schema, candidates, usage")},
	{ID: "etm", In: OutDetails, Details: writeETM, Hint: hintIf(func(s *rundir.Summary) bool { return s.ETM != nil }, "ETM")},
	{ID: "test_suite", In: OutDetails, Details: writeTestSuite},
	{ID: "esm_partial", In: OutDetails, Details: WritePartialTable,
		Hint: hintIf(func(s *rundir.Summary) bool { return len(s.ESMPartial) > 0 }, "ESM partial match")},
	{ID: "flex", In: OutDetails, Details: writeFlexTable},
	{ID: "spider2", In: OutDetails, Details: writeSpider2Table,
		Hint: hintIf(func(s *rundir.Summary) bool { return len(s.Spider2) > 0 }, "Spider 2.0 modes")},
	{ID: "tasks", In: OutDetails | OutMarkdown | OutHTML, Template: "section-tasks", Details: writeTasksTable, Markdown: mdText(func(r *rundir.Run) []TextTable { return TasksTables(&r.Summary) }),
		HTML: func(p *Page, r *rundir.Run) { p.Tasks = TasksTables(&r.Summary) }},
	{ID: "vs_best", In: OutDetails, Details: textSection(func(s *rundir.Summary) []TextTable {
		if c := ComparisonTable(s); c != nil {
			return []TextTable{*c}
		}
		return nil
	})},
	{ID: "stats", In: OutDetails | OutMarkdown | OutHTML, Template: "section-stats", Details: textSection(StatsTables), Markdown: mdText(func(r *rundir.Run) []TextTable { return StatsTables(&r.Summary) }),
		HTML: func(p *Page, r *rundir.Run) { p.Stats = StatsTables(&r.Summary) },
		Hint: func(s *rundir.Summary) []string {
			if s.Paired != nil {
				return []string{"95% intervals", "paired tests"}
			}
			return []string{"95% intervals"}
		}},
	{ID: "slices", In: OutDetails | OutMarkdown, Details: textSection(SliceTables), Markdown: mdText(func(r *rundir.Run) []TextTable { return SliceTables(&r.Summary) })},
	// The HTML shows the reviewed scores among the statistics tables.
	{ID: "reviewed", In: OutMarkdown | OutHTML, Markdown: mdText(ReviewedTable), HTML: func(p *Page, r *rundir.Run) { p.Stats = append(p.Stats, ReviewedTable(r)...) }},
	{ID: "audit", In: OutMarkdown, Markdown: mdText(AuditTables)},
	{ID: "agreement", In: OutMarkdown | OutHTML, Template: "section-agreement", Markdown: mdText(func(r *rundir.Run) []TextTable { return AgreementTables(r.Agreement) }),
		HTML: func(p *Page, r *rundir.Run) { p.Agreement = Agreement(r) }},
	{ID: "slices", In: OutHTML, Template: "section-slices", HTML: func(p *Page, r *rundir.Run) {
		p.Slices, p.SliceFilter = SliceTables(&r.Summary), sliceFilter(&r.Summary, p.Questions)
	}},
	{ID: "audit", In: OutHTML, Template: "section-audit", HTML: func(p *Page, r *rundir.Run) {
		attachAudit(r, p.Questions)
		p.Audit = AuditTables(r)
	}},
	{ID: "errors", In: OutMarkdown, Markdown: mdErrors},
	{ID: "test_suite", In: OutMarkdown, Markdown: mdTestSuite},
}

// writeOutput prints the sections placed in out, in the list's order, through one
// errWriter: after a write fails the rest print nowhere, and the first error is returned.
func writeOutput(w io.Writer, s *rundir.Summary, out Output, sections []Section) error {
	ew := &errWriter{w: w}
	for _, sec := range sections {
		if sec.In&out == 0 {
			continue
		}
		write := sec.Details
		if out == OutShort {
			write = sec.Short
		}
		if err := write(ew, s); err != nil {
			return err
		}
	}
	return ew.err
}

// DetailsHas names what WriteDetails adds to WriteShort for this run (eval prints it as
// the hint to add --details), in the order --details prints it: only what it has (a
// Spider 2.0 run has no ESM).
func DetailsHas(s *rundir.Summary) []string {
	var out []string
	for _, sec := range Sections {
		if sec.In&OutDetails != 0 && sec.Hint != nil {
			out = append(out, sec.Hint(s)...)
		}
	}
	return out
}

// hintIf names a section in the hint when has says the summary holds it.
func hintIf(has func(*rundir.Summary) bool, name string) func(*rundir.Summary) []string {
	return func(s *rundir.Summary) []string {
		if has(s) {
			return []string{name}
		}
		return nil
	}
}

// textSection prints a section made of titled text tables on a terminal.
func textSection(tables func(*rundir.Summary) []TextTable) func(io.Writer, *rundir.Summary) error {
	return func(w io.Writer, s *rundir.Summary) error { return WriteTextTables(w, tables(s)) }
}

// mdText writes a section made of titled text tables in Markdown.
func mdText(tables func(*rundir.Run) []TextTable) func(*strings.Builder, *rundir.Run) {
	return func(b *strings.Builder, r *rundir.Run) { mdTextTables(b, tables(r)) }
}

func mdScores(b *strings.Builder, run *rundir.Run) {
	s := &run.Summary
	scores := Scores(s)
	excluded := scores.SkipTerm + " and gold_error excluded"
	if scores.Excluded != "" {
		excluded = mdEsc(scores.Excluded)
	}
	fmt.Fprintf(b, "%d questions, %s semantics. Rates in %% over judged questions (%s).\n\n",
		s.Dataset.Questions, mdEsc(SemanticsName(s)), excluded)
	mdGrid(b, scoreRows(scores, true))
}

func mdComparison(b *strings.Builder, run *rundir.Run) {
	if ct := ComparisonTable(&run.Summary); ct != nil {
		mdTextTables(b, []TextTable{*ct})
	}
}

func mdDifficulty(b *strings.Builder, run *rundir.Run) {
	if d := ByDifficulty(&run.Summary); len(d.Rows) > 0 {
		fmt.Fprintf(b, "\n### By %s (%%)\n\n", d.Grouping)
		mdGrid(b, difficultyRows(d, d.Rows, []string{"system", "metric"}, "count", true))
	}
}

func mdModules(b *strings.Builder, run *rundir.Run) {
	for _, t := range ModuleTables(&run.Summary) {
		fmt.Fprintf(b, "\n### %s\n\n", t.Title)
		rows := [][]string{append([]string{"system"}, labels(t.Columns)...)}
		for _, r := range t.Rows {
			row := []string{r.System}
			for _, c := range r.Cells {
				row = append(row, c.Text)
			}
			rows = append(rows, row)
		}
		mdGrid(b, rows)
	}
}

func mdErrors(b *strings.Builder, run *rundir.Run) {
	if rows := categoryRows(&run.Summary); rows != nil {
		fmt.Fprintf(b, "\n### Errors by category (count)\n\n")
		mdGrid(b, rows)
	}
}

func mdTestSuite(b *strings.Builder, run *rundir.Run) {
	if lines := testSuiteLines(&run.Summary); len(lines) > 0 {
		fmt.Fprintf(b, "\n### Counterexample databases\n\n```\n%s\n```\n", strings.Join(lines[2:], "\n"))
	}
}
