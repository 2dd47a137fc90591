package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// WriteMarkdown writes the run's headline tables as GitHub-flavoured Markdown, for a pull
// request or a paper draft: scores per system, correct rate per difficulty, and error
// categories. Metric columns (ETM, ESM, Soft-F1, ...) appear when the records carry them.
func WriteMarkdown(w io.Writer, run *rundir.Run) error {
	var b strings.Builder
	s := &run.Summary
	fmt.Fprintf(&b, "## nl2sqlbench: %s\n\n", mdEsc(s.Dataset.Kind+" "+baseName(s.Dataset.Path)))
	if banner := run.Integrity.Banner(); banner != "" {
		fmt.Fprintf(&b, "> **Warning: %s**\n\n", mdEsc(banner))
	} else if note := run.Integrity.Note(); note != "" {
		fmt.Fprintf(&b, "> Note: %s.\n\n", mdEsc(note))
	}
	scores := Scores(s)
	excluded := scores.SkipTerm + " and gold_error excluded"
	if scores.Excluded != "" {
		excluded = mdEsc(scores.Excluded)
	}
	fmt.Fprintf(&b, "%d questions, %s semantics. Rates in %% over judged questions (%s).\n\n",
		s.Dataset.Questions, mdEsc(SemanticsName(s)), excluded)

	mdGrid(&b, scoreRows(scores, true))
	if ct := ComparisonTable(s); ct != nil {
		mdTextTables(&b, []TextTable{*ct})
	}

	if d := ByDifficulty(s); len(d.Rows) > 0 {
		fmt.Fprintf(&b, "\n### By %s (%%)\n\n", d.Grouping)
		mdGrid(&b, difficultyRows(d, d.Rows, []string{"system", "metric"}, "count", true))
	}

	for _, t := range ModuleTables(s) {
		fmt.Fprintf(&b, "\n### %s\n\n", t.Title)
		rows := [][]string{append([]string{"system"}, labels(t.Columns)...)}
		for _, r := range t.Rows {
			row := []string{r.System}
			for _, c := range r.Cells {
				row = append(row, c.Text)
			}
			rows = append(rows, row)
		}
		mdGrid(&b, rows)
	}

	mdTextTables(&b, TasksTables(s))
	mdTextTables(&b, StatsTables(s))
	mdTextTables(&b, SliceTables(s))
	mdTextTables(&b, ReviewedTable(run))
	mdTextTables(&b, AuditTables(run))
	mdTextTables(&b, AgreementTables(run.Agreement))

	if rows := categoryRows(s); rows != nil {
		fmt.Fprintf(&b, "\n### Errors by category (count)\n\n")
		mdGrid(&b, rows)
	}
	if lines := testSuiteLines(s); len(lines) > 0 {
		fmt.Fprintf(&b, "\n### Counterexample databases\n\n```\n%s\n```\n", strings.Join(lines[2:], "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdGrid writes rows as a table, the first as its head.
func mdGrid(b *strings.Builder, rows [][]string) {
	mdRow(b, rows[0])
	mdAlign(b, len(rows[0]))
	for _, r := range rows[1:] {
		mdRow(b, r)
	}
}

func mdRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + mdEsc(c) + " |")
	}
	b.WriteString("\n")
}

func mdAlign(b *strings.Builder, n int) {
	b.WriteString("|---|")
	for i := 1; i < n; i++ {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
}

// mdEsc keeps a name from breaking the table or turning into markup or HTML.
var mdReplacer = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "\n", " ", "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`)

func mdEsc(s string) string { return mdReplacer.Replace(s) }

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
