package report

import (
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"strings"
)

// document is the report's content, rendered alike as Markdown and HTML.
type document struct {
	title    string
	elements []element
}

// element is one element of the document: a heading, paragraph, list,
// table or picture.
type element interface {
	markdown(w io.Writer)
	html(w io.Writer)
}

type heading struct {
	level int
	text  string
}

type paragraph struct{ text string }

type bullets struct{ items []string }

// table is a table of text cells; bold marks cells to emphasise, right the
// columns to align right (numbers).
type table struct {
	header []string
	rows   [][]string
	bold   [][]bool
	right  []bool
}

type picture struct {
	fig *figure
	png []byte
}

func (d *document) add(b ...element) { d.elements = append(d.elements, b...) }

// writeMarkdown renders the document as Markdown; figures link to their
// PNG and SVG files beside it.
func (d *document) writeMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# %s\n", escapeMD(d.title))
	for _, b := range d.elements {
		fmt.Fprintln(w)
		b.markdown(w)
	}
}

func (h heading) markdown(w io.Writer) {
	fmt.Fprintf(w, "%s %s\n", strings.Repeat("#", h.level), escapeMD(h.text))
}

func (p paragraph) markdown(w io.Writer) { fmt.Fprintln(w, escapeMD(p.text)) }

func (b bullets) markdown(w io.Writer) {
	for _, it := range b.items {
		fmt.Fprintf(w, "- %s\n", escapeMD(it))
	}
}

func (t table) markdown(w io.Writer) {
	row := func(cells []string, bold []bool) {
		fmt.Fprint(w, "|")
		for i, c := range cells {
			c = escapeMD(c)
			if i < len(bold) && bold[i] {
				c = "**" + c + "**"
			}
			fmt.Fprintf(w, " %s |", c)
		}
		fmt.Fprintln(w)
	}
	row(t.header, nil)
	fmt.Fprint(w, "|")
	for i := range t.header {
		if i < len(t.right) && t.right[i] {
			fmt.Fprint(w, " ---: |")
		} else {
			fmt.Fprint(w, " --- |")
		}
	}
	fmt.Fprintln(w)
	for i, r := range t.rows {
		var b []bool
		if i < len(t.bold) {
			b = t.bold[i]
		}
		row(r, b)
	}
}

func (im picture) markdown(w io.Writer) {
	f := im.fig
	fmt.Fprintf(w, "![%s](%s.png)\n\n", escapeMD(f.name), f.name)
	fmt.Fprintf(w, "%s ([SVG](%s.svg))\n", escapeMD(f.caption), f.name)
}

// escapeMD escapes the characters that Markdown would read as markup: &
// too, which would begin an entity ("R&amp;D" shown as "R&D"), and ~, which
// GitHub's Markdown reads as strikethrough.
func escapeMD(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|#&~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// style is the HTML report's only stylesheet, inline.
const style = `body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1,h2,h3{color:#111}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.92em}
th,td{border:1px solid #ccc;padding:.3em .6em}th{background:#f2f2f2}td.r,th.r{text-align:right}
tr:nth-child(even) td{background:#fafafa}
figure{margin:1.5em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:.92em;color:#444;margin-top:.4em}`

// writeHTML renders the document as one self-contained HTML page: inline
// CSS, figures as inline base64 PNG, no external reference.
func (d *document) writeHTML(w io.Writer) {
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n",
		html.EscapeString(d.title), style)
	fmt.Fprintf(w, "<h1>%s</h1>\n", html.EscapeString(d.title))
	for _, b := range d.elements {
		b.html(w)
	}
	fmt.Fprint(w, "</body>\n</html>\n")
}

func (h heading) html(w io.Writer) {
	fmt.Fprintf(w, "<h%d>%s</h%d>\n", h.level, html.EscapeString(h.text), h.level)
}

func (p paragraph) html(w io.Writer) { fmt.Fprintf(w, "<p>%s</p>\n", html.EscapeString(p.text)) }

func (b bullets) html(w io.Writer) {
	fmt.Fprintln(w, "<ul>")
	for _, it := range b.items {
		fmt.Fprintf(w, "<li>%s</li>\n", html.EscapeString(it))
	}
	fmt.Fprintln(w, "</ul>")
}

func (t table) html(w io.Writer) {
	fmt.Fprintln(w, "<table>")
	cell := func(tag, text string, i int, bold bool) {
		class := ""
		if i < len(t.right) && t.right[i] {
			class = ` class="r"`
		}
		text = html.EscapeString(text)
		if bold {
			text = "<b>" + text + "</b>"
		}
		fmt.Fprintf(w, "<%s%s>%s</%s>", tag, class, text, tag)
	}
	fmt.Fprint(w, "<tr>")
	for i, h := range t.header {
		cell("th", h, i, false)
	}
	fmt.Fprintln(w, "</tr>")
	for ri, r := range t.rows {
		fmt.Fprint(w, "<tr>")
		for i, c := range r {
			cell("td", c, i, ri < len(t.bold) && i < len(t.bold[ri]) && t.bold[ri][i])
		}
		fmt.Fprintln(w, "</tr>")
	}
	fmt.Fprintln(w, "</table>")
}

func (im picture) html(w io.Writer) {
	fmt.Fprintf(w, "<figure>\n<img alt=\"%s\" src=\"data:image/png;base64,%s\">\n<figcaption>%s</figcaption>\n</figure>\n",
		html.EscapeString(im.fig.name), base64.StdEncoding.EncodeToString(im.png), html.EscapeString(im.fig.caption))
}
