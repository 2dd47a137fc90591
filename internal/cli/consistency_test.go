package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// One number per metric, everywhere: each run below is rendered by every output (the
// terminal table, --json, Markdown, the HTML report, the dashboard), every number is
// parsed back from the rendered text, and each must equal summary.json's metrics
// section. The metric texts of each run are also kept as a golden file
// (testdata/consistency/*.txt, rewritten with -update), so a change of any number shows
// in review.

// metricCells is what one output printed: "system|metric|difficulty" -> text.
type metricCells map[string]string

func cellKey(system, metric, difficulty string) string {
	return system + "|" + metric + "|" + difficulty
}

// fromSummary lists every value of the metrics section.
func fromSummary(s *rundir.Summary) metricCells {
	out := metricCells{}
	for _, sv := range s.Metrics.Systems {
		for i, v := range sv.Values {
			id := s.Metrics.Definitions[i].ID
			out[cellKey(sv.System, id, "all")] = v.Text
			for _, d := range v.ByDifficulty {
				out[cellKey(sv.System, id, d.Name)] = d.Text
			}
		}
	}
	return out
}

// checkCells fails for every printed cell that disagrees with the summary, and for every
// expected cell the output does not print at all.
func checkCells(tb testing.TB, output string, want, got metricCells, required []string) {
	tb.Helper()
	for k, text := range got {
		if w, ok := want[k]; !ok {
			tb.Errorf("%s prints %s = %q, which summary.json does not have", output, k, text)
		} else if w != text {
			tb.Errorf("%s prints %s = %q; summary.json says %q", output, k, text, w)
		}
	}
	for _, k := range required {
		if _, ok := got[k]; !ok {
			tb.Errorf("%s does not print %s (summary.json: %q)", output, k, want[k])
		}
	}
}

var cellSplit = regexp.MustCompile(`\s{2,}`)

// terminalTable returns the rows of the table whose header cells start with head, split
// into cells (tabwriter pads with two or more spaces; values hold at most one).
func terminalTable(text string, head ...string) [][]string {
	var rows [][]string
	in := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case !in && hasPrefix(cellSplit.Split(t, -1), head):
			in = true
		case in && (t == "" || !strings.Contains(line, "  ")):
			return rows
		}
		if in {
			rows = append(rows, cellSplit.Split(t, -1))
		}
	}
	return rows
}

// labelIDs maps the printed labels to metric ids.
func labelIDs(s *rundir.Summary) map[string]string {
	m := map[string]string{}
	for _, d := range s.Metrics.Definitions {
		m[d.Label] = d.ID
	}
	return m
}

// wideCells reads a table with a system column and one column per metric (overall).
func wideCells(rows [][]string, ids map[string]string, into metricCells) {
	if len(rows) == 0 {
		return
	}
	head := rows[0]
	for _, r := range rows[1:] {
		for j := 1; j < len(r) && j < len(head); j++ {
			if id, ok := ids[head[j]]; ok {
				into[cellKey(r[0], id, "all")] = r[j]
			}
		}
	}
}

// difficultyCells reads a (system, metric, difficulties..., all) table.
func difficultyCells(rows [][]string, ids map[string]string, into metricCells) {
	if len(rows) == 0 {
		return
	}
	head := rows[0]
	for _, r := range rows[1:] {
		if r[0] == "count" || len(r) != len(head) {
			continue
		}
		for j := 2; j < len(r); j++ {
			into[cellKey(r[0], ids[r[1]], head[j])] = r[j]
		}
	}
}

func hasPrefix(cells, head []string) bool {
	if len(cells) < len(head) {
		return false
	}
	for i := range head {
		if cells[i] != head[i] {
			return false
		}
	}
	return true
}

func terminalCells(s *rundir.Summary, out string) metricCells {
	ids := labelIDs(s)
	got := metricCells{}
	wideCells(terminalTable(out, "system", "judged"), ids, got)
	wideCells(terminalTable(out, "system", "questions", "source"), ids, got)
	wideCells(terminalTable(out, "system", "candidates"), ids, got)
	if defs := s.Metrics.Group("candidates"); len(defs) > 0 {
		wideCells(terminalTable(out, "system", defs[0].Label), ids, got) // Pass@k
	}
	difficultyCells(terminalTable(out, "system", "metric"), ids, got)
	// The short output's EX table.
	exByDifficulty(terminalTable(out, "EX by difficulty (%)"), got)
	var endToEnd [][]string // the usage table's end-to-end rows hold the registry's means
	for i, r := range terminalTable(out, "system", "module") {
		if i == 0 || len(r) > 1 && r[1] == "end to end" {
			endToEnd = append(endToEnd, r)
		}
	}
	wideCells(endToEnd, ids, got)
	return got
}

// exByDifficulty reads the short output's EX table: (system, difficulties..., all).
func exByDifficulty(rows [][]string, into metricCells) {
	if len(rows) == 0 {
		return
	}
	head := rows[0]
	for _, r := range rows[1:] {
		if r[0] == "questions" || len(r) != len(head) {
			continue
		}
		for j := 1; j < len(r); j++ {
			into[cellKey(r[0], "ex", head[j])] = r[j]
		}
	}
}

// shortRequired lists what the short output must print: every headline metric overall,
// and EX per difficulty up to two systems (with more, the comparisons take its place).
func shortRequired(s *rundir.Summary) []string {
	var out []string
	byDifficulty := len(s.Systems) <= 2 || s.VsBest == nil
	for _, key := range required(s, true) {
		parts := strings.Split(key, "|")
		d, _, _ := s.Metrics.Lookup(parts[0], parts[1])
		if d.Group == "headline" && (parts[2] == "all" || parts[1] == "ex" && byDifficulty) {
			out = append(out, key)
		}
	}
	return out
}

// terminalRequired is required(s, true) less the Pass@k cells of systems with one
// candidate per question, which --details names below the Pass@k table instead of
// filling a row with "n/a: 1 candidate".
func terminalRequired(s *rundir.Summary, want metricCells) []string {
	var out []string
	for _, key := range required(s, true) {
		if want[key] == "n/a: 1 candidate" {
			continue
		}
		out = append(out, key)
	}
	return out
}

var mdUnescape = strings.NewReplacer(`\|`, "|", `\_`, "_", `\*`, "*", `\[`, "[", "\\`", "`", "&lt;", "<", "&gt;", ">")

// markdownTables splits Markdown into its tables (rows of cells, the --- line dropped).
func markdownTables(md string) [][][]string {
	var tables [][][]string
	var cur [][]string
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			if cur != nil {
				tables = append(tables, cur)
				cur = nil
			}
			continue
		}
		if strings.HasPrefix(line, "|---") {
			continue
		}
		parts := strings.Split(strings.Trim(line, "|"), " |")
		for i := range parts {
			parts[i] = mdUnescape.Replace(strings.TrimSpace(parts[i]))
		}
		cur = append(cur, parts)
	}
	if cur != nil {
		tables = append(tables, cur)
	}
	return tables
}

func markdownCells(s *rundir.Summary, md string) metricCells {
	ids := labelIDs(s)
	got := metricCells{}
	for _, t := range markdownTables(md) {
		switch {
		case t[0][0] == "system" && len(t[0]) > 1 && t[0][1] == "metric":
			difficultyCells(t, ids, got)
		case t[0][0] == "system":
			wideCells(t, ids, got)
		}
	}
	return got
}

var htmlCell = regexp.MustCompile(`<td data-system="([^"]*)" data-metric="([^"]*)" data-difficulty="([^"]*)"[^>]*>([^<]*)</td>`)

// htmlCells reads the score tables' cells and the labels of the charts drawn from
// registry metrics: bars ("system, Label: text"), verdict segments ("system · difficulty
// correct: text"), Pass@k points ("system: k = text") and usage points ("system: x, EX").
func htmlCells(s *rundir.Summary, page string) metricCells {
	got := metricCells{}
	for _, m := range htmlCell.FindAllStringSubmatch(page, -1) {
		got[cellKey(html.UnescapeString(m[1]), m[2], m[3])] = html.UnescapeString(m[4])
	}
	ids := labelIDs(s)
	chart := func(id string) string {
		i := strings.Index(page, `<div class="chart-box" id="chart-`+id+`"`)
		if i < 0 {
			return "" // not drawn: a note says why
		}
		return page[i : i+strings.Index(page[i:], "</svg>")]
	}
	un := html.UnescapeString
	bar := regexp.MustCompile(`<title>([^<]*), ([^<,]*): ([^<]*)</title>`)
	for _, id := range []string{"ex-etm-esm", "efficiency", "schema"} {
		for _, m := range bar.FindAllStringSubmatch(chart(id), -1) {
			got[cellKey(un(m[1]), ids[un(m[2])], "all")] = un(m[3])
		}
	}
	verdict := map[string]string{"correct": "ex", "incorrect": "incorrect", "error": "error"}
	seg := regexp.MustCompile(`<title>([^<]*) · (\S+) (correct|incorrect|error): ([^<]*)</title>`)
	for _, m := range seg.FindAllStringSubmatch(chart("verdicts"), -1) {
		got[cellKey(un(m[1]), verdict[m[3]], m[2])] = un(m[4])
	}
	point := regexp.MustCompile(`<title>([^<]*): (\d+) = ([^<]*)</title>`)
	for _, m := range point.FindAllStringSubmatch(chart("pass-at-k"), -1) {
		got[cellKey(un(m[1]), "pass@"+m[2], "all")] = un(m[3])
	}
	usage := regexp.MustCompile(`<title>([^<]*): ([^<,]*), ([^<]*)</title>`)
	for id, metric := range map[string]string{"tokens": "tokens", "cost": "cost"} {
		for _, m := range usage.FindAllStringSubmatch(chart(id), -1) {
			got[cellKey(un(m[1]), metric, "all")] = un(m[2])
			got[cellKey(un(m[1]), "ex", "all")] = un(m[3])
		}
	}
	return got
}

// required lists the cells every output must print: every metric overall, and the
// headline metrics per difficulty, for every system.
func required(s *rundir.Summary, withDifficulty bool) []string {
	var out []string
	for _, d := range s.Metrics.Definitions {
		for _, sv := range s.Systems {
			out = append(out, cellKey(sv.System, d.ID, "all"))
			if !withDifficulty || d.Group != "headline" || notByDifficultyIDs[d.ID] {
				continue
			}
			for _, g := range sv.ByDifficulty {
				if g.Counts.Judged > 0 && len(difficultyNames(s)) > 1 {
					out = append(out, cellKey(sv.System, d.ID, g.Name))
				}
			}
		}
	}
	return out
}

var notByDifficultyIDs = map[string]bool{"incorrect": true, "error": true, "ex_bird": true, "ex_spider": true}

func difficultyNames(s *rundir.Summary) []string {
	var out []string
	for _, g := range s.Systems[0].ByDifficulty {
		if g.Counts.Judged > 0 {
			out = append(out, g.Name)
		}
	}
	return out
}

// checkRun renders the run directory dir every way and compares each with summary.json.
// stdout is what eval --details printed for it (every terminal table); the one-screen
// output is rendered from the same summary and checked too.
func checkRun(t *testing.T, name, dir, stdout string, args []string) {
	t.Helper()
	sum := readSummary(t, dir)
	want := fromSummary(sum)
	req := required(sum, true)
	checkCells(t, name+": terminal --details", want, terminalCells(sum, stdout), terminalRequired(sum, want))
	var short strings.Builder
	if err := report.WriteShort(&short, sum); err != nil {
		t.Fatal(err)
	}
	checkCells(t, name+": terminal", want, terminalCells(sum, short.String()), shortRequired(sum))

	code, js, stderr := run(append(args, "--json", "--out", filepath.Join(t.TempDir(), "json"))...)
	if code != exitOK {
		t.Fatalf("%s --json: exit %d: %s", name, code, stderr)
	}
	var viaJSON rundir.Summary
	if err := json.Unmarshal([]byte(js), &viaJSON); err != nil {
		t.Fatalf("%s --json: %v", name, err)
	}
	if d := cmp.Diff(stable(want), stable(fromSummary(&viaJSON))); d != "" {
		t.Errorf("%s: --json and summary.json disagree (-summary +json):\n%s", name, d)
	}

	md := filepath.Join(t.TempDir(), "summary.md")
	page := filepath.Join(t.TempDir(), "report.html")
	runCLI(t, "report", dir, "--md", md, "--html", page, "--no-exec")
	mdText, _ := os.ReadFile(md)
	checkCells(t, name+": markdown", want, markdownCells(sum, string(mdText)), req)
	pageText, _ := os.ReadFile(page)
	checkCells(t, name+": html", want, htmlCells(sum, string(pageText)), req)

	srv := report.NewServer(filepath.Dir(dir), report.ExecOptions{})
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	resp, err := ts.Client().Get(ts.URL + "/run/" + filepath.Base(dir) + "/")
	if err != nil {
		t.Fatal(err)
	}
	dash, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	checkCells(t, name+": dashboard", want, htmlCells(sum, string(dash)), req)

	checkSections(t, name, sum)
	golden(t, filepath.Join("consistency", name+".txt"), []byte(goldenText(sum)))
}

// checkSections: summary.json keeps its older per-metric sections (structural, etm, flex, the verdict rates) for the tools that read them; each must hold
// the registry's number.
func checkSections(t *testing.T, name string, s *rundir.Summary) {
	t.Helper()
	reg := func(system, id, difficulty string) float64 {
		_, v, ok := s.Metrics.Lookup(system, id)
		if !ok || v.In(difficulty) == nil || v.In(difficulty).Value == nil {
			return 0
		}
		return *v.In(difficulty).Value
	}
	near := func(what string, a, b float64) {
		if math.Abs(a-b) > 1e-9 {
			t.Errorf("%s: %s is %v in its section, %v in the metrics section", name, what, a, b)
		}
	}
	for _, sys := range s.Systems {
		for _, g := range append(sys.ByDifficulty, sys.Overall) {
			near(sys.System+" "+g.Name+" correct rate", g.Rates.Correct, reg(sys.System, "ex", g.Name))
			near(sys.System+" "+g.Name+" ex_bird rate", g.Rates.ExBird, reg(sys.System, "ex_bird", g.Name))
			near(sys.System+" "+g.Name+" ex_spider rate", g.Rates.ExSpider, reg(sys.System, "ex_spider", g.Name))
		}
	}
	if s.Structural != nil && s.Metrics.Has("esm") {
		for _, sys := range s.Structural.Systems {
			for _, g := range append(sys.ByDifficulty, sys.Overall) {
				near(sys.System+" "+g.Name+" ESM", g.ESMRate, reg(sys.System, "esm", g.Name))
			}
		}
	}
	if s.ETM != nil {
		for _, sys := range s.ETM.Systems {
			for _, g := range append(sys.ByDifficulty, sys.Overall) {
				near(sys.System+" "+g.Name+" ETM", g.Rate, reg(sys.System, "etm", g.Name))
			}
		}
	}
	for _, f := range s.Flex {
		for _, g := range append(f.ByDifficulty, f.Overall) {
			near(f.System+" "+g.Name+" Flex", g.Accuracy, reg(f.System, "flex", g.Name))
		}
	}
}

// stable drops the timing-dependent metrics (VES, R-VES), which differ between two runs.
func stable(c metricCells) metricCells {
	out := metricCells{}
	for k, v := range c {
		if strings.Contains(k, "|ves|") || strings.Contains(k, "|rves|") {
			continue
		}
		out[k] = v
	}
	return out
}

// goldenText lists the run's stable metric texts, sorted.
func goldenText(s *rundir.Summary) string {
	var lines []string
	for k, v := range stable(fromSummary(s)) {
		lines = append(lines, fmt.Sprintf("%s = %s", k, v))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// golden compares got with testdata/<name>, or rewrites it with -update.
func golden(tb testing.TB, name string, got []byte) {
	tb.Helper()
	testutil.Golden(tb, name, got, *update)
}

func TestOneNumberEverywhereDemo(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	dir := filepath.Join(t.TempDir(), "demo")
	args := []string{"demo", "--cache", t.TempDir()}
	stdout, _ := runCLI(t, append(args, "--out", dir, "--details")...)
	checkRun(t, "demo", dir, stdout, args)
	sum := readSummary(t, dir)
	// The demo's ESM is computed for 32 of 49 judged questions: n/a, never a headline number.
	if _, v, ok := sum.Metrics.Lookup("baseline", "esm"); !ok || v.Applicable || v.Text != "n/a: covers 32 of 49" {
		t.Errorf("demo ESM: %+v", v)
	}
}

func TestOneNumberEverywhereSpider(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	root := testutil.Shared(t, "data/spider")
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "spider:" + root,
		"--pred", "DAIL=" + filepath.Join(root, "predictions", "DAIL.txt"), "--pred", "C3=" + filepath.Join(root, "predictions", "C3.txt")}
	dir := filepath.Join(t.TempDir(), "spider")
	stdout, _ := runCLI(t, append(args, "--out", dir, "--details")...)
	checkRun(t, "spider-dev", dir, stdout, args)
}

func TestOneNumberEverywhereBIRD(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	qs := testutil.Shared(t, "data/bird/mini_dev_sqlite.json")
	dbRoot := testutil.Shared(t, "data/bird/dev_databases")
	preds := testutil.Shared(t, "data/bird/predictions/mini_dev")
	args := []string{"eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:" + qs, "--db-root", dbRoot, "--db-id", "superhero", "--ves", "--ves-iterations", "2", "--flex",
		"--pred", "gpt-4=" + filepath.Join(preds, "predict_mini_dev_gpt-4_sqlite.json"),
		"--pred", "llama-3-70b=" + filepath.Join(preds, "predict_mini_dev_meta-llama-3-70b-instruct-2_sqlite.json")}
	dir := filepath.Join(t.TempDir(), "bird")
	stdout, _ := runCLI(t, append(args, "--out", dir, "--details")...)
	checkRun(t, "bird-superhero", dir, stdout, args)
	sum := readSummary(t, dir)
	// ESM on BIRD: Spider's parser takes almost no BIRD gold, so ESM reads n/a with its coverage.
	for _, sys := range []string{"gpt-4", "llama-3-70b"} {
		if _, v, ok := sum.Metrics.Lookup(sys, "esm"); ok && v.Applicable {
			t.Errorf("%s: ESM reads %s on BIRD superhero, want n/a", sys, v.Text)
		}
		if _, v, ok := sum.Metrics.Lookup(sys, "rves"); !ok || !v.Applicable {
			t.Errorf("%s: no R-VES with --ves", sys)
		}
	}
}
