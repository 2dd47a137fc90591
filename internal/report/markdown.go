package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
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
	fmt.Fprintf(&b, "%d questions, %s semantics. Rates in %% over judged questions (skipped and gold_error excluded).\n\n",
		s.Dataset.Questions, mdEsc(SemanticsName(s)))

	t := Scores(s)
	head := []string{"system", "judged"}
	for _, c := range t.Columns {
		head = append(head, c.Label)
	}
	head = append(head, "skipped", "gold_error")
	mdRow(&b, head)
	mdAlign(&b, len(head))
	for _, r := range t.Rows {
		cells := []string{r.System, fmt.Sprint(r.Judged)}
		for _, c := range r.Cells {
			cells = append(cells, c.Text)
		}
		mdRow(&b, append(cells, fmt.Sprint(r.Skipped), fmt.Sprint(r.GoldError)))
	}
	if ct := ComparisonTable(s); ct != nil {
		mdTextTables(&b, []TextTable{*ct})
	}

	if d := ByDifficulty(s); len(d.Rows) > 0 {
		fmt.Fprintf(&b, "\n### By %s (%%)\n\n", d.Grouping)
		mdRow(&b, append(append([]string{"system", "metric"}, d.Difficulties...), "all"))
		mdAlign(&b, len(d.Difficulties)+3)
		count := []string{"count", ""}
		for _, n := range d.Counts {
			count = append(count, fmt.Sprint(n))
		}
		mdRow(&b, count)
		for _, r := range d.Rows {
			row := []string{r.System, r.Label}
			for _, c := range r.Cells {
				row = append(row, c.Text)
			}
			mdRow(&b, row)
		}
	}

	for _, t := range ModuleTables(s) {
		fmt.Fprintf(&b, "\n### %s\n\n", t.Title)
		head := []string{"system"}
		for _, c := range t.Columns {
			head = append(head, c.Label)
		}
		mdRow(&b, head)
		mdAlign(&b, len(head))
		for _, r := range t.Rows {
			cells := []string{r.System}
			for _, c := range r.Cells {
				cells = append(cells, c.Text)
			}
			mdRow(&b, cells)
		}
	}

	mdTextTables(&b, StatsTables(s))
	mdTextTables(&b, SliceTables(s))
	mdTextTables(&b, ReviewedTable(run))
	mdTextTables(&b, AuditTables(run))
	mdTextTables(&b, AgreementTables(run.Agreement))

	errs := false
	for _, sys := range s.Systems {
		errs = errs || sys.Overall.Counts.Error > 0
	}
	if errs {
		fmt.Fprintf(&b, "\n### Errors by category (count)\n\n")
		head := []string{"system"}
		for _, c := range record.Categories {
			head = append(head, string(c))
		}
		mdRow(&b, head)
		mdAlign(&b, len(head))
		for _, sys := range s.Systems {
			row := []string{sys.System}
			for _, c := range record.Categories {
				row = append(row, fmt.Sprint(sys.Overall.Counts.Categories[c]))
			}
			mdRow(&b, row)
		}
	}
	if lines := testSuiteLines(s); len(lines) > 0 {
		fmt.Fprintf(&b, "\n### Counterexample databases\n\n```\n%s\n```\n", strings.Join(lines[2:], "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
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
