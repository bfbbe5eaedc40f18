package report

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// dpi is the resolution of the PNG files.
const dpi = 150

// figure is one image of the report, drawn once per output format.
type figure struct {
	name    string // file name without extension: name.png, name.svg
	caption string
	width   vg.Length
	height  vg.Length
	draw    func(c draw.Canvas)
}

// render draws the figure as "png" or "svg". A panic inside the plotting
// library is returned as an error naming the figure.
func (f *figure) render(format string) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("report: drawing %s.%s: %v", f.name, format, r)
		}
	}()
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.width, f.height), vgimg.UseDPI(dpi))}
	case "svg":
		c = vgsvg.New(f.width, f.height)
	default:
		panic("report: unknown image format " + format)
	}
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: encoding %s.%s: %w", f.name, format, err)
	}
	if format == "svg" {
		// The SVG names the font it was measured with; Arial and Helvetica
		// share Liberation Sans's metrics where it is not installed.
		return bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"),
			[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")), nil
	}
	return buf.Bytes(), nil
}

// legendTop is the space drawPanels leaves above a legend.
var legendTop = vg.Points(30)

// legendRoom is the width a figure leaves its legend beside its panels.
var legendRoom = 2.4 * vg.Inch

// legendFit returns a figure's width and height, or greater ones, so that
// drawPanels, given a canvas that begins above below the figure's top,
// shows every entry of legend and leaves its panels their width: a legend
// taller than the figure was cut off at its bottom (the methods drawn last
// missing from it), and one wider than legendRoom took the panels' width,
// all of it for a method named in 150 characters (a figure with neither
// data nor legend).
func legendFit(width, height vg.Length, legend *plot.Legend, above vg.Length) (vg.Length, vg.Length) {
	size := legend.Rectangle(draw.Canvas{}).Size()
	return width + max(0, size.X+vg.Points(16)-legendRoom), max(height, above+legendTop+size.Y+vg.Points(8))
}

// drawPanels draws plots side by side, with their data areas aligned, and a
// legend to their right (outside the data), when legend has entries.
func drawPanels(c draw.Canvas, plots []*plot.Plot, legend *plot.Legend) {
	if legend != nil {
		w := legend.Rectangle(c).Size().X + vg.Points(16)
		lc := draw.Crop(c, c.Size().X-w+vg.Points(8), 0, 0, -legendTop)
		legend.Draw(lc)
		c = draw.Crop(c, 0, -w, 0, 0)
	}
	cs := plot.Align([][]*plot.Plot{plots}, panelTiles(len(plots)), c)
	for i, p := range plots {
		p.Draw(cs[0][i])
	}
}

// panelTiles lays out n panels in a row.
func panelTiles(n int) draw.Tiles {
	return draw.Tiles{Rows: 1, Cols: n, PadX: vg.Points(18), PadTop: vg.Points(6), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(6)}
}
