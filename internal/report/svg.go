package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
)

// The project's own small SVG charts: a few shapes drawn server-side, so the report needs
// no script and no network to show them and prints as it looks. Every label is escaped
// here (the output is trusted by html/template as template.HTML). To add a chart shape,
// write a function returning template.HTML from plain data and keep all text going
// through esc.

func esc(s string) string { return html.EscapeString(s) }

// Palette: colour-blind-safe, prints in grey distinctly.
var palette = []string{"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"}

// verdict colours used everywhere in the report.
const (
	colCorrect   = "#2e8540"
	colIncorrect = "#e0a800"
	colError     = "#c0392b"
)

// Segment is one part of a stacked bar.
type Segment struct {
	Label string
	Value float64 // fraction of the bar, 0..1
	Color string
	Text  string // the value as the tables print it; empty: a percentage at one decimal
}

// BarRow is one horizontal bar (stacked when it has several segments).
type BarRow struct {
	Label    string
	Segments []Segment
	Note     string // printed after the bar (e.g. "n=49")
}

type svgBuf struct{ strings.Builder }

func (b *svgBuf) f(format string, a ...any) { fmt.Fprintf(&b.Builder, format, a...) }

// close ends the SVG element; the chart is done.
func (b *svgBuf) close() template.HTML {
	b.f(`</svg>`)
	return template.HTML(b.String())
}

// fitWidth is the widest a chart is drawn: at a 500px screen the chart's box has about
// 466px, so a chart this wide shows there unscaled, its 12px text at 12px, and nothing
// scrolls sideways or is cut (the browser test's 500px layout checks it). Below that it
// scales down (svg.chart max-width: 100%), to 11px text at 456px.
const fitWidth = 460

func svgOpen(b *svgBuf, w, h int, title string) {
	b.f(`<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s" font-family="sans-serif" font-size="12">`, w, h, w, h, esc(title))
	b.f(`<title>%s</title>`, esc(title))
}

// textWidth over-estimates the width of a 12px sans-serif label, so that a legend or a
// label never runs past the chart's edge whatever font the reader has.
func textWidth(s string) int { return 8 * len([]rune(s)) }

// legendItemWidth is one legend entry: its box, its label and the gap to the next.
func legendItemWidth(it Segment) int { return 16 + textWidth(it.Label) + 12 }

// fitLegend shortens the labels too long for a line of their own between x and right
// (legend keeps the whole label in the entry's tooltip).
func fitLegend(x, right int, items []Segment) []Segment {
	room := (right - x - 16 - 12) / 8
	out := make([]Segment, len(items))
	for i, it := range items {
		out[i] = it
		if room > 1 && len([]rune(it.Label)) > room {
			out[i].Label = shorten(it.Label, room)
		}
	}
	return out
}

// legendLines is how many lines a legend needs between x and right.
func legendLines(x, right int, items []Segment) int {
	items = fitLegend(x, right, items)
	lines, cx := 1, x
	for _, it := range items {
		if w := legendItemWidth(it); cx+w > right && cx > x {
			lines, cx = lines+1, x
		}
		cx += legendItemWidth(it)
	}
	return lines
}

// legendLineH is the height of one legend line.
const legendLineH = 18

// rowLabel draws a right-aligned row label ending at x, shortened to fit the label
// column (the full text in its tooltip).
func rowLabel(b *svgBuf, x, y int, label string) {
	b.f(`<text x="%d" y="%d" text-anchor="end"><title>%s</title>%s</text>`, x, y, esc(label), esc(shorten(label, (x-4)/8)))
}

// legend draws coloured boxes with labels from x, the first line's baseline at y,
// starting a new line rather than passing right (see legendLines).
func legend(b *svgBuf, x, y, right int, items []Segment) {
	cx := x
	for i, it := range fitLegend(x, right, items) {
		if w := legendItemWidth(it); cx+w > right && cx > x {
			cx, y = x, y+legendLineH
		}
		b.f(`<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`, cx, y-10, it.Color)
		if full := items[i].Label; full != it.Label {
			b.f(`<text x="%d" y="%d"><title>%s</title>%s</text>`, cx+16, y, esc(full), esc(it.Label))
		} else {
			b.f(`<text x="%d" y="%d">%s</text>`, cx+16, y, esc(it.Label))
		}
		cx += legendItemWidth(it)
	}
}

// barsOpen starts a bar chart, labelW wide for row labels and barW for bars: the SVG
// element and the legend of keys above the bars. The bars start head pixels down under a
// one-line legend, a line lower for each further line it wraps to, and take bodyH; it
// returns where they start.
func barsOpen(b *svgBuf, title string, labelW, barW, head, bodyH int, keys []Segment) (top int) {
	width := labelW + barW + 60
	top = head + legendLineH*(legendLines(labelW, width, keys)-1)
	svgOpen(b, width, top+bodyH, title)
	legend(b, labelW, 16, width, keys)
	return top
}

// StackedBars draws horizontal bars of fractions (0..1) stacked left to right, with a legend.
// A row's note (n=1534) goes in the 60px right of the bars.
func StackedBars(title string, rows []BarRow, keys []Segment) template.HTML {
	const labelW, barW, rowH = 150, 240, 22 // 450 wide with the notes' 60
	var b svgBuf
	top := barsOpen(&b, title, labelW, barW, 30, 10+rowH*len(rows), keys)
	for i, r := range rows {
		y := top + i*rowH
		rowLabel(&b, labelW-6, y+14, r.Label)
		x := float64(labelW)
		for _, s := range r.Segments {
			w := s.Value * barW
			if w > 0 {
				tip, inner := fmt.Sprintf("%.1f%%", 100*s.Value), fmt.Sprintf("%.0f", 100*s.Value)
				if s.Text != "" {
					tip, inner = s.Text, s.Text
				}
				b.f(`<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s</title></rect>`,
					x, y+2, w, rowH-6, s.Color, esc(r.Label+" "+s.Label), esc(tip))
				if w > float64(7*len(inner)+6) {
					b.f(`<text x="%.1f" y="%d" fill="#fff" text-anchor="middle">%s</text>`, x+w/2, y+14, esc(inner))
				}
			}
			x += w
		}
		if r.Note != "" {
			b.f(`<text x="%d" y="%d" fill="#555"><title>%s</title>%s</text>`, labelW+barW+6, y+14, esc(r.Note), esc(shorten(r.Note, 54/8)))
		}
	}
	return b.close()
}

// GroupedBars draws, per row, one thin horizontal bar per series. Values are scaled to max
// (1 for rates); format prints each value.
func GroupedBars(title string, rows []string, series []string, values [][]float64, max float64, format func(float64) string) template.HTML {
	const labelW, barW, barH = 150, 240, 12 // 450 wide with the values' 60
	groupH := barH*len(series) + 8
	var keys []Segment
	for i, s := range series {
		keys = append(keys, Segment{Label: s, Color: palette[i%len(palette)]})
	}
	var b svgBuf
	top := barsOpen(&b, title, labelW, barW, 28, 6+groupH*len(rows), keys)
	if max <= 0 {
		max = 1
	}
	for i, r := range rows {
		y0 := top + i*groupH
		rowLabel(&b, labelW-6, y0+groupH/2+3, r)
		for j := range series {
			v := values[i][j]
			if math.IsNaN(v) {
				continue
			}
			w := v / max * barW
			y := y0 + j*barH
			b.f(`<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s, %s: %s</title></rect>`,
				labelW, y, w, barH-2, palette[j%len(palette)], esc(r), esc(series[j]), esc(format(v)))
			b.f(`<text x="%.1f" y="%d" font-size="11">%s</text>`, float64(labelW)+w+4, y+barH-3, esc(format(v)))
		}
	}
	return b.close()
}

// Line is one series of a line chart.
type Line struct {
	Label  string
	Color  string       // default: by position
	Points [][2]float64 // (x, y)
}

// plotW and keyW are a line chart's or scatter plot's plot area and its key to the
// right: with the y axis's 44px, 454 wide.
const plotW, keyW = 270, 140

// LineChart draws series over numeric x (labelled at xs) with y in [0, 1] as percentages.
func LineChart(title, xLabel string, xs []float64, lines []Line) template.HTML {
	const left, top, w, h = 44, 30, plotW, 200
	xmin, xmax := xs[0], xs[len(xs)-1]
	if xmax == xmin {
		xmax = xmin + 1
	}
	px := func(x float64) float64 { return left + (x-xmin)/(xmax-xmin)*w }
	py := func(y float64) float64 { return top + (1-y)*h }
	var b svgBuf
	plotOpen(&b, title, xLabel, left, top, w, h, xs, px, trimFloat)
	for i, l := range lines {
		c := l.Color
		if c == "" {
			c = palette[i%len(palette)]
		}
		var pts []string
		for _, p := range l.Points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(p[0]), py(p[1])))
		}
		b.f(`<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`, c, strings.Join(pts, " "))
		for _, p := range l.Points {
			b.f(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s: %s = %s</title></circle>`, px(p[0]), py(p[1]), c, esc(l.Label), esc(trimFloat(p[0])), esc(pctText(p[1])))
		}
		plotKey(&b, left+w+14, top+i*18, c, l.Label)
	}
	return b.close()
}

// plotOpen starts a line chart or a scatter plot of w by h at (left, top): the SVG
// element, the axes, the x ticks xs (at px, labelled by tick) and the x axis's label.
func plotOpen(b *svgBuf, title, xLabel string, left, top, w, h int, xs []float64, px func(float64) float64, tick func(float64) string) {
	svgOpen(b, left+w+keyW, top+h+44, title)
	axes(b, left, top, w, h)
	for _, x := range xs {
		b.f(`<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, px(x), top+h+16, esc(tick(x)))
	}
	b.f(`<text x="%d" y="%d" text-anchor="middle">%s</text>`, left+w/2, top+h+36, esc(xLabel))
}

// plotKey is one entry of a plot's key (to its right): a box of the series' colour and its
// label, shortened to end inside the chart (the whole label in its tooltip).
func plotKey(b *svgBuf, x, y int, color, label string) {
	room := (keyW - 14 - 16) / 8 // textWidth's 8px a character
	b.f(`<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d"><title>%s</title>%s</text>`, x, y, color, x+16, y+10, esc(label), esc(shorten(label, room)))
}

// axes draws a y axis from 0 to 100% with grid lines and the x axis line.
func axes(b *svgBuf, left, top, w, h int) {
	for i := 0; i <= 4; i++ {
		y := top + h - i*h/4
		b.f(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ddd"/>`, left, y, left+w, y)
		b.f(`<text x="%d" y="%d" text-anchor="end">%d%%</text>`, left-4, y+4, i*25)
	}
	b.f(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, left, top+h, left+w, top+h)
	b.f(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, left, top, left, top+h)
}

// Heatmap draws a square matrix of values in [0, 1] with row and column labels.
func Heatmap(title string, labels []string, m [][]float64) template.HTML {
	const labelW = 150
	n := len(labels)
	// Cells narrow so that up to 7 systems fit fitWidth; never under 40px (a value's text).
	cell := 56
	if n > 0 {
		cell = max(40, min(56, (fitWidth-labelW-10)/n))
	}
	var b svgBuf
	svgOpen(&b, labelW+cell*n+10, 40+cell*n+10, title)
	for j, l := range labels {
		b.f(`<text x="%d" y="%d" text-anchor="middle" font-size="11"><title>%s</title>%s</text>`, labelW+j*cell+cell/2, 30, esc(l), esc(shorten(l, (cell+6)/7)))
	}
	for i, l := range labels {
		y := 36 + i*cell
		rowLabel(&b, labelW-6, y+cell/2+4, l)
		for j := range labels {
			v := m[i][j]
			x := labelW + j*cell
			if math.IsNaN(v) {
				b.f(`<rect x="%d" y="%d" width="%d" height="%d" fill="#eee" stroke="#fff"/><text x="%d" y="%d" text-anchor="middle">n/a</text>`, x, y, cell, cell, x+cell/2, y+cell/2+4)
				continue
			}
			// White to dark red.
			r, g, bl := 255, int(255-200*v), int(255-200*v)
			txt := "#000"
			if v > 0.6 {
				txt = "#fff"
			}
			b.f(`<rect x="%d" y="%d" width="%d" height="%d" fill="rgb(%d,%d,%d)" stroke="#fff"><title>%s / %s: %s</title></rect>`, x, y, cell, cell, r, g, bl, esc(labels[i]), esc(labels[j]), esc(pctText(v)))
			b.f(`<text x="%d" y="%d" text-anchor="middle" fill="%s">%s</text>`, x+cell/2, y+cell/2+4, txt, esc(pctText(v)))
		}
	}
	return b.close()
}

// Point is one labelled point of a scatter plot.
type Point struct {
	Label string
	X, Y  float64
	Color string // default: by position
	XText string // X as the tables print it; empty: compact
}

func (p Point) xText() string {
	if p.XText != "" {
		return p.XText
	}
	return compact(p.X)
}

// Scatter draws points with y in [0, 1] against x (from 0), and joins the frontier points
// (indexes into pts, in x order) with a line.
func Scatter(title, xLabel string, pts []Point, frontier []int) template.HTML {
	const left, top, w, h = 44, 20, plotW, 200
	xmax := 0.0
	for _, p := range pts {
		xmax = math.Max(xmax, p.X)
	}
	if xmax == 0 {
		xmax = 1
	}
	xmax *= 1.1
	px := func(x float64) float64 { return left + x/xmax*w }
	py := func(y float64) float64 { return top + (1-y)*h }
	ticks := make([]float64, 5)
	for i := range ticks {
		ticks[i] = xmax * float64(i) / 4
	}
	var b svgBuf
	plotOpen(&b, title, xLabel, left, top, w, h, ticks, px, compact)
	if len(frontier) > 1 {
		var s []string
		for _, i := range frontier {
			s = append(s, fmt.Sprintf("%.1f,%.1f", px(pts[i].X), py(pts[i].Y)))
		}
		b.f(`<polyline fill="none" stroke="#333" stroke-dasharray="4 3" points="%s"/>`, strings.Join(s, " "))
	}
	onFrontier := map[int]bool{}
	for _, i := range frontier {
		onFrontier[i] = true
	}
	for i, p := range pts {
		c := p.Color
		if c == "" {
			c = palette[i%len(palette)]
		}
		stroke := ""
		if onFrontier[i] {
			stroke = ` stroke="#000" stroke-width="2"`
		}
		b.f(`<circle cx="%.1f" cy="%.1f" r="5" fill="%s"%s><title>%s: %s, %s</title></circle>`, px(p.X), py(p.Y), c, stroke, esc(p.Label), esc(p.xText()), esc(pctText(p.Y)))
		mark := ""
		if onFrontier[i] {
			mark = " *"
		}
		plotKey(&b, left+w+14, top+i*18, c, p.Label+mark)
	}
	return b.close()
}

func trimFloat(x float64) string { return strings.TrimSuffix(fmt.Sprintf("%g", x), ".0") }

// compact prints 12345 as 12.3k, 0.0123 as 0.0123.
func compact(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	case x >= 1 || x == 0:
		return fmt.Sprintf("%.0f", x)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
