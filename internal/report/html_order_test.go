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
