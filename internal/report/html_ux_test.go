package report

import (
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestQuestionLabel: a question reads "#index question_id", and a Spider question, whose
// id is its position, reads "#0" rather than "#0 0".
func TestQuestionLabel(t *testing.T) {
	for _, tt := range []struct {
		q    QuestionView
		want string
	}{
		{QuestionView{Index: 5, ID: "lib-006"}, "#5 lib-006"},
		{QuestionView{Index: 0, ID: "0"}, "#0"},
		{QuestionView{Index: 7, ID: ""}, "#7"},
		{QuestionView{Index: 7, ID: "3"}, "#7 3"},
	} {
		if got := tt.q.Label(); got != tt.want {
			t.Errorf("Label(%d, %q) = %q, want %q", tt.q.Index, tt.q.ID, got, tt.want)
		}
	}
}

// TestDrillDownFactsTable: the drill-down shows each value in a labelled row (a th beside
// its td), with human labels and units, never raw record keys or JSON.
func TestDrillDownFactsTable(t *testing.T) {
	c := func(v string) map[string]any { return map[string]any{"sql": "x", "verdict": v} }
	dir := filepath.Join(t.TempDir(), "run")
	writeRun(t, dir, "", sys{"s", []map[string]any{
		rec(0, "simple", "correct", "g", "p", "soft_f1", 0.5, "schema_table_p", 1.0, "total_tokens", 812,
			"candidates", []any{c("incorrect"), c("correct")}),
	}})
	out := renderHTML(t, loadFixture(t, dir), HTMLOptions{NoExec: true})
	for _, want := range []string{
		`>EX, BIRD semantics</th><td>match</td>`,
		`>Soft-F1</th><td>50.00%</td>`,
		`>table precision</th><td>100.00%</td>`,
		`>tokens</th><td>812</td>`,
		`>Pass@1</th><td>0.00%</td>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("drill-down lacks %q", want)
		}
	}
	if regexp.MustCompile(`pass_at|\{&#34;1&#34;|<span><b>`).MatchString(out) {
		t.Error("drill-down shows raw keys or JSON")
	}
}

// TestSchemaCaptionSaysWhereSchemasCameFrom: the caption names, per system, whether its
// predicted schemas were reported or read from its SQL, as summary.json counts them.
func TestSchemaCaptionSaysWhereSchemasCameFrom(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	g := "SELECT name FROM items"
	writeRun(t, dir, "",
		sys{"reporter", []map[string]any{rec(0, "simple", "correct", g, g, "gold_schema", map[string][]string{"items": {"name"}},
			"pred_schema", map[string][]string{"items": {"name"}}, "pred_schema_source", "reported", "schema_table_p", 1.0, "schema_column_p", 1.0)}},
		sys{"sqlonly", []map[string]any{rec(0, "simple", "correct", g, g, "gold_schema", map[string][]string{"items": {"name"}},
			"pred_schema", map[string][]string{"items": {"name"}}, "pred_schema_source", "pred_sql", "schema_table_p", 1.0, "schema_column_p", 1.0)}})
	c := chartSchema(&loadFixture(t, dir).Summary)
	if c.SVG == "" {
		t.Fatalf("schema chart not drawn: %s", c.Note)
	}
	for _, want := range []string{"reporter: the selection it reported (1 questions)", "sqlonly: read from its SQL, it reported no selection (1 questions)"} {
		if !strings.Contains(c.Caption, want) {
			t.Errorf("caption %q lacks %q", c.Caption, want)
		}
	}
}

// TestPassAtKLeavesOutSingleCandidateSystems: a system with one candidate per question has
// no Pass@k line (its Pass@k is its EX); one with several has.
func TestPassAtKLeavesOutSingleCandidateSystems(t *testing.T) {
	c := func(v string) map[string]any { return map[string]any{"sql": "x", "verdict": v} }
	dir := filepath.Join(t.TempDir(), "run")
	writeRun(t, dir, "",
		sys{"single", []map[string]any{rec(0, "simple", "correct", "g", "p"), rec(1, "simple", "incorrect", "g", "p")}},
		sys{"multi", []map[string]any{rec(0, "simple", "correct", "g", "p", "candidates", []any{c("incorrect"), c("correct")}),
			rec(1, "simple", "incorrect", "g", "p", "candidates", []any{c("incorrect"), c("incorrect")})}})
	ch := chartPassAtK(&loadFixture(t, dir).Summary)
	if ch.SVG == "" {
		t.Fatalf("Pass@k not drawn: %s", ch.Note)
	}
	if strings.Contains(string(ch.SVG), "single") || !strings.Contains(string(ch.SVG), "multi") {
		t.Errorf("Pass@k should draw multi only:\n%s", ch.SVG)
	}
}

// TestLegendFitsTheChart: every legend label ends inside the chart's width (a long legend
// wraps onto a second line instead of being cut at the edge).
func TestLegendFitsTheChart(t *testing.T) {
	series := []string{"table P", "table R", "table F1", "column P", "column R", "column F1", "a much longer series name"}
	svg := string(GroupedBars("t", []string{"sys"}, series, [][]float64{{1, 1, 1, 1, 1, 1, 1}}, 1, pctText))
	width, _ := strconv.Atoi(regexp.MustCompile(`width="(\d+)"`).FindStringSubmatch(svg)[1])
	lines := map[string]bool{}
	for _, m := range regexp.MustCompile(`<text x="(\d+)" y="(\d+)">([^<]+)</text>`).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.Atoi(m[1])
		if end := x + textWidth(m[3]); end > width {
			t.Errorf("legend label %q ends at %d, past the chart's %d", m[3], end, width)
		}
		lines[m[2]] = true
	}
	if len(lines) < 2 {
		t.Errorf("a legend of %d series drew on %d line(s): it should wrap", len(series), len(lines))
	}
	if !strings.Contains(svg, ">column F1</text>") {
		t.Error("legend lacks column F1")
	}
}

// TestServeCompareDefaultAndSystemFilter: compare starts with two different systems, and
// ?system=NAME chooses that system in the question filter (unknown: 400).
func TestServeCompareDefaultAndSystemFilter(t *testing.T) {
	dir := fixtureRun(t)
	srv := NewServer(filepath.Dir(dir), ExecOptions{Rows: 3})
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	_, body := get(t, ts.URL+"/run/run/compare")
	if !strings.Contains(body, `<option selected>alpha</option>`) || !strings.Contains(body, `id="cmp-b"><option>alpha</option><option selected>beta&lt;i&gt;</option>`) {
		t.Errorf("compare does not start with alpha vs beta<i>:\n%s", body)
	}
	if !strings.Contains(body, `id="a-only"`) {
		t.Error("compare with its defaults lists no questions")
	}
	_, body = get(t, ts.URL+"/run/run/?system=beta%3Ci%3E")
	if !strings.Contains(body, `<option value="1" selected>beta&lt;i&gt;</option>`) {
		t.Error("?system=beta<i> does not select it in the filter")
	}
	if _, body = get(t, ts.URL+"/run/run/"); strings.Contains(body, " selected>") && strings.Contains(body, `value="0" selected`) {
		t.Error("the run page preselects a system without ?system=")
	}
	if code, _ := get(t, ts.URL+"/run/run/?system=zeta"); code != 400 {
		t.Errorf("?system=zeta: %d, want 400", code)
	}
}
