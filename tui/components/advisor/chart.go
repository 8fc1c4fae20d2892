package advisor

import (
	"fmt"
	"math"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/linechart"

	"github.com/afinspect/inspect/tui/session"
	"github.com/afinspect/inspect/tui/theme"
)

// The advisor's chart: every policy tried as a point, ≈tokens (x)
// against the recorded answers' values out of view (y), the frontier
// joined, the recorded policy and the cursor's marked. Each kind of
// point has its own glyph (chartLegend), so the chart reads without
// colour.
const (
	glyphTried    = '·'
	glyphFrontier = '○'
	glyphRecorded = '◆'
	glyphCursor   = '◉'
	glyphBoth     = '◈' // the cursor on the recorded policy
	glyphOnScreen = '●' // the table's row of the policy the knobs put on screen
)

// chartLegend says what the glyphs and the axes are.
const (
	chartLegend      = "chart: ↑ answer values out of view, → ≈tokens · · a policy tried ○ the frontier ◆ recorded ◉ the cursor ◈ both"
	chartLegendShort = "↑ answers out of view → ≈tokens · tried ○ frontier ◆ recorded ◉ cursor ◈ both"
)

// chartCache keeps the last chart drawn: a frame redraws it only when
// the cursor, the size or the advice changed.
type chartCache struct {
	advice *session.Advice
	sel    int
	w, h   int
	text   string
}

// chart is the advice's chart at w×h, the row sel under the cursor.
func (a *Pane) chartView(sel, w, h int) string {
	c := &a.chart
	if c.advice != a.advice || c.sel != sel || c.w != w || c.h != h {
		*c = chartCache{advice: a.advice, sel: sel, w: w, h: h, text: drawChart(a.st, a.advice, sel, w, h)}
	}
	return c.text
}

// drawChart draws the advice at w×h (labels and axes included).
func drawChart(st *theme.Styles, ad *session.Advice, sel, w, h int) string {
	minX, maxX := math.Inf(1), math.Inf(-1)
	maxY := 1.0
	for _, r := range ad.Rows {
		minX, maxX = min(minX, float64(r.Tokens)), max(maxX, float64(r.Tokens))
		maxY = max(maxY, float64(r.OutOfView.Answers))
	}
	if maxX <= minX {
		maxX = minX + 1
	}
	graphH := h - 2 // the x axis and its labels take two lines
	yLabel := yLabels(maxY, graphH)
	// the x labels are drawn from the column, not the value ntcharts
	// offers: its points sit one column right of its labels' values
	var graphW int
	xLabel := func(i int, _ float64) string {
		if graphW < 2 {
			return ""
		}
		// under the corner, the first column's value
		return compactTokens(minX + float64(max(0, i-1))*(maxX-minX)/float64(graphW-1))
	}
	lc := linechart.New(w, h, minX, maxX, 0, maxY,
		linechart.WithXYSteps(max(8, w/4), 1),
		linechart.WithStyles(st.Border, st.Label, st.Value),
		linechart.WithXLabelFormatter(xLabel),
		linechart.WithYLabelFormatter(func(i int, _ float64) string { return yLabel[i] }))
	graphW = lc.GraphWidth()
	lc.DrawXYAxisAndLabel()
	at := func(i int) canvas.Float64Point {
		r := ad.Rows[i]
		return canvas.Float64Point{X: float64(r.Tokens), Y: float64(r.OutOfView.Answers)}
	}
	for k := 1; k < len(ad.Frontier); k++ {
		lc.DrawBrailleLineWithStyle(at(ad.Frontier[k-1]), at(ad.Frontier[k]), st.Label)
	}
	for i, r := range ad.Rows {
		if !r.Frontier {
			lc.DrawRuneWithStyle(at(i), glyphTried, st.Dim)
		}
	}
	for _, i := range ad.Frontier {
		lc.DrawRuneWithStyle(at(i), glyphFrontier, st.Value)
	}
	switch {
	case sel == ad.RecordedRow:
		lc.DrawRuneWithStyle(at(sel), glyphBoth, st.Hit)
	case sel >= 0:
		lc.DrawRuneWithStyle(at(ad.RecordedRow), glyphRecorded, st.Anchor)
		lc.DrawRuneWithStyle(at(sel), glyphCursor, st.Hit)
	default:
		lc.DrawRuneWithStyle(at(ad.RecordedRow), glyphRecorded, st.Anchor)
	}
	return lc.View()
}

// yLabels are the labels of the graph's rows, from the x axis (row 0) up:
// a row holds the points of the values that round to it, and is
// labelled with the first whole number that does, every few rows.
func yLabels(maxY float64, graphH int) map[int]string {
	out := map[int]string{}
	if graphH < 2 {
		return out
	}
	step := max(1, int(math.Ceil(maxY*2/float64(graphH-1)))) // a label every other row at most
	for y := 0; y <= int(maxY); y += step {
		row := 1 + int(math.Round(float64(y)*float64(graphH-1)/maxY))
		if _, ok := out[row]; !ok {
			out[row] = fmt.Sprint(y)
		}
	}
	return out
}

// compactTokens is a count of tokens in a few characters: 950, 13.6k,
// 136k, 1.4M.
func compactTokens(v float64) string {
	switch {
	case v >= 1e7:
		return fmt.Sprintf("%.0fM", v/1e6)
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e5:
		return fmt.Sprintf("%.0fk", v/1e3)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}
