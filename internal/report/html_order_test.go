package report

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReportSectionOrder: what a reader looks at first comes first. The scores, then the
// charts, then the scores by difficulty, then the long tables (slices, the gold audit's
// 210 findings on BIRD dev), then the questions; the charts used to come after all the
// tables, 15,800px down.
func TestReportSectionOrder(t *testing.T) {
	run := loadFixture(t, fixtureRun(t))
	p := BuildPage(context.Background(), run, "", "")
	p.Static = true
	p.Slices = append(p.Slices, TextTable{Title: "EX by slice", Head: []string{"slice", "n"}, Rows: [][]string{{"nested", "3"}}})
	audit := TextTable{Title: "Gold audit findings", Head: []string{"#", "check"}}
	for i := range 210 {
		audit.Rows = append(audit.Rows, []string{strconv.Itoa(i), "limit_tie"})
	}
	p.Audit = []TextTable{audit}
	if len(p.ByDifficulty.Rows) == 0 {
		t.Fatal("the fixture has no by-difficulty table: the test would not see where it goes")
	}
	var b bytes.Buffer
	if err := pageTemplates.ExecuteTemplate(&b, "page", p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	order := []string{"scores", "charts", "by-difficulty", "slices", "audit", "questions"}
	last := -1
	for _, id := range order {
		at := strings.Index(page, fmt.Sprintf(`id="%s"`, id))
		if at < 0 {
			t.Fatalf("no section id=%q in the page", id)
		}
		if at < last {
			t.Errorf("section %q comes before the one listed ahead of it; want the order %v", id, order)
		}
		last = at
	}
	// Every chart is in the charts section, before the first table after the scores.
	charts := strings.Index(page, `id="charts"`)
	for _, m := range regexp.MustCompile(`<svg [^>]*class="chart"`).FindAllStringIndex(page, -1) {
		if m[0] < charts || m[0] > strings.Index(page, `id="by-difficulty"`) {
			t.Errorf("a chart at byte %d is outside the charts section", m[0])
		}
	}
}

// TestPageSections: the page draws the HTML placements of Sections, in the list's order,
// each with its own template, so a section is one entry: every placement's template
// exists, every section template belongs to one placement, and the page follows a
// reordered list (not parallel: it swaps the list).
func TestPageSections(t *testing.T) {
	named := map[string]string{}
	for _, sec := range Sections {
		if sec.In&OutHTML == 0 || sec.Template == "" {
			continue
		}
		if pageTemplates.Lookup(sec.Template) == nil {
			t.Errorf("section %s: no template %q", sec.ID, sec.Template)
		}
		if prev, dup := named[sec.Template]; dup {
			t.Errorf("template %s drawn by placements %s and %s", sec.Template, prev, sec.ID)
		}
		named[sec.Template] = sec.ID
	}
	for _, tm := range pageTemplates.Templates() {
		if n := tm.Name(); strings.HasPrefix(n, "section-") && named[n] == "" {
			t.Errorf("template %s is drawn by no placement of Sections", n)
		}
	}
	run := loadFixture(t, fixtureRun(t))
	draw := func() string {
		p := BuildPage(context.Background(), run, "", "")
		p.Static = true
		p.Audit = []TextTable{{Title: "Gold audit findings", Head: []string{"#", "check"}, Rows: [][]string{{"1", "limit_tie"}}}}
		var b bytes.Buffer
		if err := pageTemplates.ExecuteTemplate(&b, "page", p); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	before := draw()
	if strings.Index(before, `id="audit"`) < strings.Index(before, `id="scores"`) {
		t.Fatal("the gold audit comes before the scores in the list's order")
	}
	saved := Sections
	t.Cleanup(func() { Sections = saved })
	var moved []Section
	for _, sec := range saved {
		if sec.ID == "audit" && sec.In&OutHTML != 0 {
			moved = append([]Section{sec}, moved...)
		} else {
			moved = append(moved, sec)
		}
	}
	Sections = moved
	after := draw()
	if a, s := strings.Index(after, `id="audit"`), strings.Index(after, `id="scores"`); a < 0 || a > s {
		t.Errorf("with the audit placed first, the page has it at %d and the scores at %d", a, s)
	}
}
