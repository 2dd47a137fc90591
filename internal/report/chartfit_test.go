package report

import (
	"html"
	"html/template"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	svgSizeRE = regexp.MustCompile(`<svg [^>]*width="(\d+)" height="(\d+)" viewBox="0 0 (\d+) (\d+)"`)
	svgTextRE = regexp.MustCompile(`<text x="([\d.]+)"([^>]*)>(?:<title>[^<]*</title>)?([^<]*)</text>`)
)

// TestChartsFitAPhone: every kind of chart, with labels longer than a real run's, is at
// most fitWidth wide (so at a 500px screen it shows unscaled, with no sideways scroll),
// has a viewBox, and every label starts and ends inside it (textWidth over-estimates a
// label's width).
func TestChartsFitAPhone(t *testing.T) {
	long := "gpt-4-turbo_cot_SQLite_with_a_long_name"
	keys := []Segment{{Label: "correct", Color: colCorrect}, {Label: "incorrect", Color: colIncorrect}, {Label: "error", Color: colError}}
	seven := []string{long, "DAIL", "C3", "DIN", "RESDSQL", "RASAT+PICARD", "SuperSQL"}
	m7 := make([][]float64, 7)
	for i := range m7 {
		m7[i] = []float64{1, 0.8323, 0.5, 0.25, 0.1, 0.9, 0.777}
	}
	for _, tc := range []struct {
		name string
		svg  template.HTML
	}{
		{"stacked bars", StackedBars("verdicts", []BarRow{{Label: long + " · challenging", Note: "n=1534",
			Segments: []Segment{{Label: "correct", Value: 0.6, Color: colCorrect}, {Label: "error", Value: 0.4, Color: colError}}}}, keys)},
		{"grouped bars", GroupedBars("ex etm esm", []string{long}, []string{"EX", "ETM", long}, [][]float64{{1, 0.5, 0.999}}, 1, pctText)},
		{"line chart", LineChart("pass@k", "k", []float64{1, 5, 10}, []Line{{Label: long, Points: [][2]float64{{1, 0.5}, {10, 1}}}})},
		{"scatter", Scatter("cost", "tokens", []Point{{Label: long, X: 1234567, Y: 0.83}, {Label: "C3", X: 10, Y: 1}}, []int{1, 0})},
		{"heatmap of 3", Heatmap("overlap", seven[:3], [][]float64{{1, 0.5, 0.25}, {0.5, 1, 0.1}, {0.25, 0.1, 1}})},
		{"heatmap of 7", Heatmap("overlap", seven, m7)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := string(tc.svg)
			size := svgSizeRE.FindStringSubmatch(svg)
			if size == nil {
				t.Fatalf("no width, height and viewBox 0 0 W H:\n%.300s", svg)
			}
			width, _ := strconv.Atoi(size[1])
			if size[1] != size[3] || size[2] != size[4] {
				t.Errorf("width/height %sx%s differ from the viewBox's %sx%s", size[1], size[2], size[3], size[4])
			}
			if width > fitWidth {
				t.Errorf("%dpx wide, more than the %dpx that fit a 500px screen", width, fitWidth)
			}
			texts := svgTextRE.FindAllStringSubmatch(svg, -1)
			if len(texts) == 0 {
				t.Fatal("no labels found")
			}
			for _, m := range texts {
				x, _ := strconv.ParseFloat(m[1], 64)
				w := float64(textWidth(html.UnescapeString(m[3])))
				start := x
				switch {
				case strings.Contains(m[2], `text-anchor="end"`):
					start = x - w
				case strings.Contains(m[2], `text-anchor="middle"`):
					start = x - w/2
				}
				if start < 0 || start+w > float64(width) {
					t.Errorf("label %q spans %.0f..%.0f, outside the chart's 0..%d", m[3], start, start+w, width)
				}
			}
		})
	}
}
