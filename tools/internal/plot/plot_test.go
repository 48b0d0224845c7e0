package plot

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func chart() *Chart {
	return &Chart{Title: "latency vs catalog", XLabel: "tools", YLabel: "ms", LogX: true, LogY: true, Width: 400, Height: 300,
		Series: []Series{
			{Name: "a", Color: Palette[0], Points: []Point{{10, 1}, {100, 1.2}, {1000, 2}, {10000, 8}}},
			{Name: "b", Color: Palette[1], Points: []Point{{10, 80}, {100, 90}, {1000, 120}, {10000, 400}}},
		}}
}

func TestPNGDecodesAtSize(t *testing.T) {
	for _, c := range []*Chart{chart(), {Title: "linear", Width: 320, Height: 200, Series: []Series{{Name: "m", Color: Palette[2], Points: []Point{{1, 0.5}, {64, 30}}}}}} {
		var b bytes.Buffer
		if err := c.PNG(&b); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%s: does not decode: %v", c.Title, err)
		}
		if diff := cmp.Diff(image.Pt(c.Width, c.Height), img.Bounds().Size()); diff != "" {
			t.Errorf("%s: size mismatch (-want +got):\n%s", c.Title, diff)
		}
	}
}

func TestSeriesAreDrawnWhereTheyBelong(t *testing.T) {
	c := chart()
	img, err := c.Image()
	if err != nil {
		t.Fatal(err)
	}
	// The x axis spans 10^1..10^4 and the y axis 10^0..10^3 over the plot area.
	X := axis{lo: 1, hi: 4, log: true, p0: marginLeft, p1: c.Width - marginRight}
	Y := axis{lo: 0, hi: 3, log: true, p0: c.Height - marginBottom, p1: marginTop}
	for _, s := range c.Series {
		for _, p := range s.Points {
			x, y := X.px(p.X), Y.px(p.Y)
			if got := img.RGBAAt(x, y); got != s.Color {
				t.Errorf("series %s point %v at pixel (%d,%d) is %v, want %v", s.Name, p, x, y, got, s.Color)
			}
		}
	}
	// Text is drawn: the title row holds black pixels.
	if !hasColor(img, image.Rect(0, 10, c.Width, 12+lineHeight), color.RGBA{0, 0, 0, 0xff}) {
		t.Error("no title pixels")
	}
}

func hasColor(img *image.RGBA, r image.Rectangle, c color.RGBA) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				return true
			}
		}
	}
	return false
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		c    Chart
	}{
		{"too small", Chart{Width: 50, Height: 50}},
		{"zero on a log axis", Chart{Width: 400, Height: 300, LogY: true, Series: []Series{{Points: []Point{{1, 0}}}}}},
	}
	for _, tc := range tests {
		if _, err := tc.c.Image(); err == nil {
			t.Errorf("%s: Image() succeeded, want an error", tc.name)
		}
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		name string
		a    axis
		want []float64
	}{
		{"log", axis{lo: 1, hi: 4, log: true}, []float64{10, 100, 1000, 10000}},
		{"linear", axis{lo: 0, hi: 40}, []float64{0, 10, 20, 30, 40}},
		{"linear small", axis{lo: 0, hi: 1}, []float64{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, tc.a.ticks()); diff != "" {
			t.Errorf("%s ticks mismatch (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestLabel(t *testing.T) {
	for v, want := range map[float64]string{10000: "10000", 0.5: "0.5", 0: "0", 2.5e6: "2.5e+06", 0.6000000000000001: "0.6"} {
		if got := Label(v); got != want {
			t.Errorf("Label(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestEveryGlyphIsFifteenPixels(t *testing.T) {
	for r, g := range glyphs {
		if len(g) != glyphW*glyphH {
			t.Errorf("glyph %q has %d pixels, want %d", r, len(g), glyphW*glyphH)
		}
	}
}
