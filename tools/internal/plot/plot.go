// Package plot draws simple line charts as PNG images with the standard
// library only: axes with ticks and labels (a built-in 3×5 bitmap font),
// linear or logarithmic scales, one line with markers per series and a
// legend. It exists for the charts of BENCHMARKS.md (tools/cmd/cmbench).
package plot

import (
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
)

// A Series is one line.
type Series struct {
	Name   string
	Points []Point
	Color  color.RGBA
}

// A Point is one (x, y) sample.
type Point struct{ X, Y float64 }

// A Chart is a line chart.
type Chart struct {
	Title, XLabel, YLabel string
	// LogX and LogY draw that axis in powers of ten; every value on it
	// must then be positive.
	LogX, LogY    bool
	Width, Height int
	Series        []Series
}

// Palette has distinct colours for the series.
var Palette = []color.RGBA{{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0x94, 0x67, 0xbd, 0xff}}

var (
	black = color.RGBA{0, 0, 0, 0xff}
	grey  = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	white = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

const (
	marginLeft, marginRight = 80, 24
	marginTop, marginBottom = 56, 56
)

// axis maps data values to pixels along one direction.
type axis struct {
	lo, hi float64 // in data units, or log10 of them
	log    bool
	p0, p1 int // pixels of lo and hi
}

func (a axis) px(v float64) int {
	if a.log {
		v = math.Log10(v)
	}
	f := (v - a.lo) / (a.hi - a.lo)
	return a.p0 + int(math.Round(f*float64(a.p1-a.p0)))
}

// ticks returns the tick values, in data units.
func (a axis) ticks() []float64 {
	var out []float64
	if a.log {
		for e := math.Floor(a.lo); e <= a.hi+1e-9; e++ {
			if e >= a.lo-1e-9 {
				out = append(out, math.Pow(10, e))
			}
		}
		return out
	}
	step := niceStep((a.hi - a.lo) / 5)
	for v := math.Ceil(a.lo/step) * step; v <= a.hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// span returns the axis range for values vs: powers of ten around them on a
// log axis, zero to a rounded maximum on a linear one.
func span(vs []float64, log bool) (lo, hi float64, err error) {
	if len(vs) == 0 {
		return 0, 1, nil
	}
	mn, mx := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, errors.New("plot: NaN or infinite value")
		}
		if log && v <= 0 {
			return 0, 0, errors.New("plot: non-positive value on a log axis")
		}
		mn, mx = math.Min(mn, v), math.Max(mx, v)
	}
	if log {
		lo, hi = math.Floor(math.Log10(mn)), math.Ceil(math.Log10(mx))
		if hi == lo {
			hi++
		}
		return lo, hi, nil
	}
	lo = math.Min(0, mn)
	step := niceStep((mx - lo) / 5)
	hi = math.Ceil(mx/step) * step
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi, nil
}

// Label formats a tick value: 10000 as "10000", 0.5 as "0.5".
func Label(v float64) string {
	if math.Abs(v) >= 1e6 || (v != 0 && math.Abs(v) < 1e-3) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

// Image draws the chart.
func (c *Chart) Image() (*image.RGBA, error) {
	w, h := c.Width, c.Height
	if w < marginLeft+marginRight+50 || h < marginTop+marginBottom+50 {
		return nil, errors.New("plot: chart too small")
	}
	var xs, ys []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			xs, ys = append(xs, p.X), append(ys, p.Y)
		}
	}
	xlo, xhi, err := span(xs, c.LogX)
	if err != nil {
		return nil, err
	}
	ylo, yhi, err := span(ys, c.LogY)
	if err != nil {
		return nil, err
	}
	if !c.LogX && len(xs) > 0 {
		xlo = math.Min(xlo, minOf(xs))
	}
	X := axis{lo: xlo, hi: xhi, log: c.LogX, p0: marginLeft, p1: w - marginRight}
	Y := axis{lo: ylo, hi: yhi, log: c.LogY, p0: h - marginBottom, p1: marginTop}

	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Rect, white)
	// Grid, ticks and tick labels.
	for _, v := range X.ticks() {
		x := X.px(v)
		vline(img, x, Y.p1, Y.p0, grey)
		vline(img, x, Y.p0, Y.p0+5, black)
		l := Label(v)
		drawText(img, x-textWidth(l)/2, Y.p0+9, l, black)
	}
	for _, v := range Y.ticks() {
		y := Y.px(v)
		hline(img, X.p0, X.p1, y, grey)
		hline(img, X.p0-5, X.p0, y, black)
		l := Label(v)
		drawText(img, X.p0-9-textWidth(l), y-lineHeight/2, l, black)
	}
	// Axes.
	hline(img, X.p0, X.p1, Y.p0, black)
	vline(img, X.p0, Y.p1, Y.p0, black)
	// Title and axis labels.
	drawText(img, (w-textWidth(c.Title))/2, 12, c.Title, black)
	drawText(img, X.p0+(X.p1-X.p0-textWidth(c.XLabel))/2, h-lineHeight-10, c.XLabel, black)
	drawText(img, 8, marginTop-lineHeight-12, c.YLabel, black)
	// Series.
	for _, s := range c.Series {
		for i, p := range s.Points {
			x, y := X.px(p.X), Y.px(p.Y)
			fill(img, image.Rect(x-3, y-3, x+4, y+4), s.Color)
			if i > 0 {
				q := s.Points[i-1]
				line(img, X.px(q.X), Y.px(q.Y), x, y, s.Color)
			}
		}
	}
	// Legend, top left inside the plot area.
	lx, ly := X.p0+12, Y.p1+8
	for _, s := range c.Series {
		fill(img, image.Rect(lx, ly+1, lx+16, ly+lineHeight-1), s.Color)
		drawText(img, lx+22, ly, s.Name, black)
		ly += lineHeight + 6
	}
	return img, nil
}

// PNG draws the chart and encodes it.
func (c *Chart) PNG(w io.Writer) error {
	img, err := c.Image()
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}

func minOf(vs []float64) float64 {
	m := math.Inf(1)
	for _, v := range vs {
		m = math.Min(m, v)
	}
	return m
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) {
	for x := min(x0, x1); x <= max(x0, x1); x++ {
		set(img, x, y, c)
	}
}

func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	for y := min(y0, y1); y <= max(y0, y1); y++ {
		set(img, x, y, c)
	}
}

// line draws a two-pixel-wide segment (Bresenham).
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		fill(img, image.Rect(x0, y0, x0+2, y0+2), c)
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			x0 += sx
		} else {
			e += dx
			y0 += sy
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
