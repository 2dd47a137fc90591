package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// WriteMarkdown writes the run's headline tables as GitHub-flavoured Markdown, for a pull
// request or a paper draft: its title, then the sections of the one list (sections.go)
// placed in Markdown: scores per system, correct rate per difficulty, error categories,
// .... Metric columns (ETM, ESM, Soft-F1, ...) appear when the records carry them.
func WriteMarkdown(w io.Writer, run *rundir.Run) error {
	var b strings.Builder
	s := &run.Summary
	fmt.Fprintf(&b, "## nl2sqlbench: %s\n\n", mdEsc(s.Dataset.Kind+" "+baseName(s.Dataset.Path)))
	if banner := run.Integrity.Banner(); banner != "" {
		fmt.Fprintf(&b, "> **Warning: %s**\n\n", mdEsc(banner))
	} else if note := run.Integrity.Note(); note != "" {
		fmt.Fprintf(&b, "> Note: %s.\n\n", mdEsc(note))
	}
	for _, sec := range Sections {
		if sec.In&OutMarkdown != 0 {
			sec.Markdown(&b, run)
		}
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
