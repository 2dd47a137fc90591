package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// WriteMarkdown writes the run's headline tables as GitHub-flavoured Markdown, for a pull
// request or a paper draft: scores per system, correct rate per difficulty, and error
// categories. Metric columns (ETM, ESM, Soft-F1, ...) appear when the records carry them.
func WriteMarkdown(w io.Writer, run *Run) error {
	var b strings.Builder
	s := &run.Summary
	fmt.Fprintf(&b, "## nl2sqlbench: %s\n\n", mdEsc(s.Dataset.Kind+" "+baseName(s.Dataset.Path)))
	fmt.Fprintf(&b, "%d questions, %s semantics. Rates in %% over judged questions (skipped and gold_error excluded).\n\n",
		s.Dataset.Questions, mdEsc(run.Semantics()))

	t := scoreTable(run)
	head := append([]string{"system", "judged", "correct", "incorrect", "error", "EX bird", "EX spider"}, t.Extra...)
	head = append(head, "skipped", "gold_error")
	mdRow(&b, head)
	mdAlign(&b, len(head))
	for _, r := range t.Rows {
		cells := append([]string{r.System, fmt.Sprint(r.Judged), r.Correct, r.Incorrect, r.Error, r.ExBird, r.ExSpider}, r.Extra...)
		mdRow(&b, append(cells, fmt.Sprint(r.Skipped), fmt.Sprint(r.GoldError)))
	}

	if diffs := difficulties(s.Systems); len(diffs) > 0 {
		fmt.Fprintf(&b, "\n### Correct rate by difficulty\n\n")
		mdRow(&b, append(append([]string{"system"}, diffs...), "all"))
		mdAlign(&b, len(diffs)+2)
		count := []string{"count"}
		for _, d := range diffs {
			count = append(count, fmt.Sprint(judgedIn(s.Systems[0], d)))
		}
		mdRow(&b, append(count, fmt.Sprint(s.Systems[0].Overall.Counts.Judged)))
		for _, sys := range s.Systems {
			row := []string{sys.System}
			for _, d := range diffs {
				row = append(row, pct(rateIn(sys, d)))
			}
			mdRow(&b, append(row, pct(sys.Overall.Rates.Correct)))
		}
	}

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
