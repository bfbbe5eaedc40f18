package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/internal/filedigest"
	"github.com/greedytl/greedytl/internal/fileerr"
	"github.com/greedytl/greedytl/internal/filename"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/internal/plural"
)

// Options choose the documents Write produces. The figures (PNG and SVG) are
// written in any case.
type Options struct {
	Markdown bool // report.md, whose figures link to the PNG and SVG files
	HTML     bool // report.html, self-contained: inline CSS and PNG figures
	// Removed, when set, is called for each file of an earlier report in
	// the directory that Write removes (err nil: a file it no longer
	// writes) or could not remove (err says why; the file stays listed,
	// for the next Write to remove). A file that could not be removed is
	// not an error of Write's.
	Removed func(path string, err error)
}

// Write renders the report of res into the directory dir, creating it if
// needed: the summary tables, the figures (Fig. 1 accuracy by training-set
// size, Fig. 2 the noise study, Fig. 3 and Table 1 GreedyTL against
// GreedyTL-59, Figs. 4–7 the source-weight matrices — each where the run has
// the data) as PNG and SVG files, and report.md and report.html as opts
// says. Every file is written atomically, the documents after the figures
// they show. Write returns the paths of the figures and documents written
// (on an error, those written before it); nothing is written when drawing
// a figure fails, when res is nil, or when dir holds a report.md or
// report.html to be written that is not a greedytl report, a FileList that
// is not a report's, or any file of a name Write would write that dir's
// FileList does not list — in a directory without a list, any such file
// but those of a greedytl report before lists that greedytl can tell it
// wrote (legacyList: its whole report.html, the figures whose PNG is the
// one that page embeds, a report.md showing the same figures) (ErrNotAReport):
// a file Write did not write, a user's figure or document, is never
// replaced; an earlier report's is.
//
// Write lists what it wrote in dir's FileList, and removes the files of
// the earlier report's list that it does not write (its figures of a
// dataset or a noise study no longer reported, a document no longer asked
// for), so that every file of the report in dir is current — but only
// those whose content is still what that report wrote: a file of the
// user's, or one they changed since, is never removed (in a directory
// without a list, the earlier report's files are legacyList's, and only
// its figures are removed: its documents are replaced, never removed). dir is
// locked while Write works in it (internal/dirlock, through the lock file
// of its FileList, so that a report into a run's directory does not wait
// for the run: another Write into it fails, naming the holder), where its
// file system has locks.
func Write(dir string, res *Results, opts Options) (written []string, err error) {
	if res == nil {
		return nil, errors.New("report: no results to write (nil *Results)")
	}
	doc, figs, err := build(res)
	if err != nil {
		return nil, err
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	pngs := map[*figure][]byte{}
	for _, f := range figs {
		png, err := f.render("png")
		if err != nil {
			return nil, err
		}
		svg, err := f.render("svg")
		if err != nil {
			return nil, err
		}
		pngs[f] = png
		files = append(files, file{f.name + ".png", png}, file{f.name + ".svg", svg})
	}
	for i, b := range doc.elements {
		if p, ok := b.(picture); ok {
			p.png = pngs[p.fig]
			doc.elements[i] = p
		}
	}
	if opts.Markdown {
		var buf bytes.Buffer
		doc.writeMarkdown(&buf)
		files = append(files, file{"report.md", buf.Bytes()})
	}
	if opts.HTML {
		var buf bytes.Buffer
		doc.writeHTML(&buf)
		files = append(files, file{"report.html", buf.Bytes()})
	}
	for _, f := range files {
		if err := checkOwnDocument(filepath.Join(dir, f.name), doc.title); err != nil {
			return nil, err
		}
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.name
	}
	// Checked before the lock, so that a directory refused gets nothing,
	// not even the lock file (which stays), and again under it, where no
	// other Write changes it: a legacy report's page and figures are read
	// twice (legacyList), the price of both.
	if _, err := checkedList(dir, doc.title, names); err != nil {
		return nil, err
	}
	// A Write that fails leaves no directory it created (removeCreated),
	// deferred before the lock's release, which so runs first.
	created := atomicfile.Missing(dir)
	defer func() {
		if err != nil {
			removeCreated(dir, created, written)
		}
	}()
	if err := atomicfile.MkdirAll(dir); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	// Another Write into dir is refused; a file system without locks (a
	// Lustre mounted without flock) is written as before reports locked.
	lock, err := dirlock.TryAcquireFile(filepath.Join(dir, FileList))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer lock.Release()
	old, err := checkedList(dir, doc.title, names) // again, now that no other Write changes it
	if err == nil && old != nil && old.legacy {
		err = old.hashLegacy(dir)
	}
	if err != nil {
		return nil, err
	}
	list := &fileList{Format: fileListFormat, Version: fileListVersion}
	for _, f := range files {
		list.Files = append(list.Files, listedFile{Name: f.name, SHA256: filedigest.Bytes(f.data)})
	}
	// The earlier list and this one first, then the files, then the
	// earlier report's files that this one does not write are removed, and
	// the list is this one's: wherever Write stops, the list names every
	// file of a report in dir.
	if old != nil {
		union := *list
		union.Files = slices.Concat(old.Files, list.Files)
		if err := union.write(dir); err != nil {
			return nil, err
		}
	} else if err := list.write(dir); err != nil {
		return nil, err
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := atomicfile.Write(p, func(w io.Writer) error { _, err := w.Write(f.data); return err }); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	if old == nil {
		return written, nil
	}
	final := *list
	final.Files = slices.Concat(list.Files, old.removeStale(dir, list, opts.Removed))
	return written, final.write(dir)
}

// removeCreated undoes what a failed Write did in dir when it created
// dir, and the directories above it in created (atomicfile.Missing: none
// when dir existed, whose files are never touched): it removes the files
// written, the FileList and its lock file, then each directory created,
// deepest first, that is empty now (os.Remove: a file put there by anyone
// else stays, and so does its directory). Its own errors are not reported:
// the Write's error is.
func removeCreated(dir string, created, written []string) {
	if len(created) == 0 {
		return
	}
	list := filepath.Join(dir, FileList)
	for _, p := range slices.Concat(written, []string{list, filepath.Join(dir, dirlock.FileLockName(list))}) {
		os.Remove(p)
	}
	for _, d := range created {
		os.Remove(d)
	}
}

// FileList is the name of the file in a report's directory that lists the
// files Write wrote there, each with the SHA-256 digest of what it wrote,
// so that the next Write into the directory removes the files it no longer
// writes — those whose content is still the listed one (see Write).
const FileList = "report-files.json"

// The FileList's "format" and "version".
const (
	fileListFormat  = "greedytl-report-files"
	fileListVersion = 1
)

// fileList is the content of a FileList.
type fileList struct {
	Format  string       `json:"format"`
	Version int          `json:"version"`
	Files   []listedFile `json:"files"`

	legacy bool // made by legacyList, not read from a file
}

// listedFile is a file of a fileList: its name in the report's directory
// and the digest of its content as written. A name may be listed twice,
// with two digests, in the list of a Write that stopped before it
// finished.
type listedFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// check validates a list read from a file: its format and version, and
// names of files of the directory alone — no path outside it or into a
// subdirectory, not the list itself — so that removing a listed file can
// never reach another.
func (l *fileList) check() error {
	if l.Format != fileListFormat || l.Version != fileListVersion {
		return fmt.Errorf("format %q version %d, this greedytl reads %q version %d", l.Format, l.Version, fileListFormat, fileListVersion)
	}
	for i, f := range l.Files {
		if !filepath.IsLocal(f.Name) || f.Name != filepath.Base(f.Name) || strings.ContainsAny(f.Name, `/\`) || f.Name == "." || f.Name == FileList {
			return fmt.Errorf("files[%d].name %q is not the name of a report's file in its directory", i, f.Name)
		}
		if b, err := hex.DecodeString(f.SHA256); err != nil || len(b) != sha256.Size {
			return fmt.Errorf("files[%d].sha256 %q is not a SHA-256 digest in hex", i, f.SHA256)
		}
	}
	return nil
}

// readFileList returns the FileList of the directory dir, nil (and no
// error) when there is none; one that is not a report's list is an error
// matching ErrNotAReport.
func readFileList(dir string) (*fileList, error) {
	path := filepath.Join(dir, FileList)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	l := &fileList{}
	err = jsonfile.Decode(b, l, "report file list")
	if err == nil {
		err = l.check()
	}
	if err != nil {
		return nil, fmt.Errorf("report: %s exists and %w's file list (%v): give another directory, or remove it", path, ErrNotAReport, err)
	}
	return l, nil
}

// write writes the list into dir atomically.
func (l *fileList) write(dir string) error {
	if err := jsonfile.Write(filepath.Join(dir, FileList), l); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// removeStale removes from dir the files of l, an earlier report's list,
// that the list now does not name and whose content is still what l says
// (a regular file of that digest): a file changed since, or replaced by a
// link or a directory, is the user's now, and kept. It tells removed
// (when set) of each file removed, and of each it could not remove, which
// it returns, to stay listed.
func (l *fileList) removeStale(dir string, now *fileList, removed func(string, error)) (kept []listedFile) {
	tell := func(p string, err error) {
		if removed != nil {
			removed(p, err)
		}
	}
	for _, f := range l.Files {
		if slices.ContainsFunc(now.Files, func(n listedFile) bool { return n.Name == f.Name }) {
			continue
		}
		p := filepath.Join(dir, f.Name)
		same, err := hasDigest(p, f.SHA256)
		if err == nil && !same {
			continue
		}
		if err == nil {
			err = os.Remove(p)
		}
		switch {
		case err == nil:
			tell(p, nil)
		case !errors.Is(err, fs.ErrNotExist):
			tell(p, fmt.Errorf("a file of the earlier report that this one does not write, kept: %w", fileerr.Reason(err)))
			kept = append(kept, f)
		}
	}
	return kept
}

// hasDigest reports whether path is a regular file (not a link) whose
// SHA-256 digest, in hex, is digest; a missing file has none.
func hasDigest(path, digest string) (bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, nil
	}
	got, err := filedigest.SHA256(path)
	return err == nil && got == digest, err
}

// ErrNotAReport is matched (errors.Is) by Write's error for a directory
// holding a report.md or report.html that is not a greedytl report, or any
// file of a name Write would write that the directory's FileList does not
// list (none does, in a directory without one).
var ErrNotAReport = errors.New("is not a greedytl report")

// checkListed returns an error matching ErrNotAReport for the first of
// names, the files Write would write into dir, that exists in dir (as
// anything: a file, a link, a directory) and is not named by old, dir's
// FileList (nil: dir has none; or legacyList's) — a file Write did not
// write, and never replaces.
func checkListed(dir string, names []string, old *fileList) error {
	for _, name := range names {
		if old != nil && slices.ContainsFunc(old.Files, func(f listedFile) bool { return f.Name == name }) {
			continue
		}
		path := filepath.Join(dir, name)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		why := "which lists the files a report wrote there, does not name it"
		if old == nil || old.legacy {
			why = "which would list the files a report wrote there, does not exist, and no greedytl report.html there shows it as its own"
		}
		return fmt.Errorf("report: %s exists and %w's file (%s, %s), and is never replaced: move or remove it, or give another directory",
			path, ErrNotAReport, filepath.Join(dir, FileList), why)
	}
	return nil
}

// checkedList returns dir's earlier list (readListOrLegacy) once
// checkListed has found none of names, the files Write would write, to be
// a file Write did not write.
func checkedList(dir, title string, names []string) (*fileList, error) {
	old, err := readListOrLegacy(dir, title)
	if err == nil {
		err = checkListed(dir, names, old)
	}
	return old, err
}

// readListOrLegacy returns dir's FileList, or where it has none the
// legacyList of its report titled title (nil where it has neither).
func readListOrLegacy(dir, title string) (*fileList, error) {
	l, err := readFileList(dir)
	if l != nil || err != nil {
		return l, err
	}
	return legacyList(dir, title)
}

// legacyFigure matches a figure of a greedytl report.html (figure.html):
// its name, as the alt text, and its PNG in base64.
var legacyFigure = regexp.MustCompile(`<img alt="([^"]+)" src="data:image/png;base64,([^"]+)">`)

// legacyLink matches a link or image target of a greedytl report.md
// ("](NAME)": picture.markdown's PNG and SVG).
var legacyLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// legacyList returns, for a directory without a FileList that holds a
// report of a greedytl from before reports listed their files, the files
// of that report as far as greedytl can tell it wrote them, which Write
// may replace, and (the figures, not the documents: hashLegacy) remove
// when it does not write them again (as an earlier report's: only while
// their content is unchanged), and lists as
// its own; nil where dir holds no such report. A user's file is never
// among them, though it begin as greedytl's documents begin:
//   - report.html, where it is a greedytl page whole (legacyPage): every
//     greedytl before lists wrote one unless told --format md;
//   - each figure the page embeds whose PNG file holds the very PNG the
//     page embeds (Write embedded the bytes it wrote), and that figure's
//     SVG, written with it;
//   - report.md, where it begins as greedytl's and shows the page's
//     figures, no more and no fewer: the same report's document.
//
// A report of --format md alone, which nothing proves greedytl's, has
// none: Write refuses its directory, naming the first file it would
// replace. The files' digests are left empty (legacy set), for hashLegacy
// to fill in under Write's lock, the one pass that needs them.
func legacyList(dir, title string) (*fileList, error) {
	page, err := readRegular(filepath.Join(dir, "report.html"))
	if err != nil || page == nil || !legacyPage(page, title) {
		return nil, err
	}
	l := &fileList{Format: fileListFormat, Version: fileListVersion, legacy: true}
	l.Files = append(l.Files, listedFile{Name: "report.html"})
	var shown []string // the page's figures' files, whether or not dir holds them
	for _, m := range legacyFigure.FindAllSubmatch(page, -1) {
		name := html.UnescapeString(string(m[1]))
		shown = append(shown, name+".png", name+".svg")
		png, err := base64.StdEncoding.DecodeString(string(m[2]))
		if err != nil || !filepath.IsLocal(name) || filepath.Base(name) != name {
			continue
		}
		got, err := readRegular(filepath.Join(dir, name+".png"))
		if err != nil {
			return nil, err
		}
		if got == nil || !bytes.Equal(got, png) {
			continue // absent, or not the figure the page shows: the user's
		}
		l.Files = append(l.Files, listedFile{Name: name + ".png"})
		if fi, err := os.Lstat(filepath.Join(dir, name+".svg")); err == nil && fi.Mode().IsRegular() {
			l.Files = append(l.Files, listedFile{Name: name + ".svg"})
		}
	}
	md, err := readRegular(filepath.Join(dir, "report.md"))
	if err != nil {
		return nil, err
	}
	if md != nil && bytes.HasPrefix(md, ownHead("report.md", title)) {
		var links []string
		for _, m := range legacyLink.FindAllSubmatch(md, -1) {
			links = append(links, string(m[1]))
		}
		slices.Sort(links)
		slices.Sort(shown)
		if slices.Equal(slices.Compact(links), slices.Compact(shown)) {
			l.Files = append(l.Files, listedFile{Name: "report.md"})
		}
	}
	return l, nil
}

// legacyPage reports whether page is a whole report.html of a greedytl
// report titled title: it begins with the head, inline stylesheet and
// heading and ends as document.writeHTML writes them, and has written
// them since the first greedytl (TestLegacyPageFrame holds them to the
// writer's of the greedytls before lists).
func legacyPage(page []byte, title string) bool {
	var frame bytes.Buffer
	(&document{title: title}).writeHTML(&frame)
	const end = "</body>\n</html>\n"
	head, ok := bytes.CutSuffix(frame.Bytes(), []byte(end))
	return ok && len(page) >= len(head)+len(end) && bytes.HasPrefix(page, head) && bytes.HasSuffix(page, []byte(end))
}

// readRegular returns the content of path where it is a regular file (not
// a link), nil where it is absent or something else.
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return b, nil
}

// hashLegacy gives each figure of l, a legacyList, the digest of what it
// holds now, to be removed while unchanged; a file gone since is dropped,
// and so are the documents, which Write has checked it may replace (the
// check is done) but never removes: legacyList knows a document by its
// beginning and end, not byte for byte, and a report.md or report.html
// with the user's notes added is still greedytl's to legacyList.
func (l *fileList) hashLegacy(dir string) error {
	files := l.Files[:0]
	for _, f := range l.Files {
		if ownHead(f.Name, "") != nil {
			continue
		}
		digest, err := filedigest.SHA256(filepath.Join(dir, f.Name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		f.SHA256 = digest
		files = append(files, f)
	}
	l.Files = files
	return nil
}

// checkOwnDocument returns an error when path is a report document
// (report.md or report.html) that exists and does not begin as Write's of
// a document titled title begins — a file of the user's that Write would
// replace, as when --out names a directory of other documents. Figures and
// absent files pass (checkListed refuses any file Write did not write).
func checkOwnDocument(path, title string) error {
	head := ownHead(path, title)
	if head == nil {
		return nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	got := make([]byte, len(head))
	if n, _ := io.ReadFull(f, got); n == len(got) && bytes.Equal(got, head) {
		return nil
	}
	return fmt.Errorf("report: %s exists and %w: give another directory, or remove it", path, ErrNotAReport)
}

// ownHead returns how Write's document name (report.md or report.html,
// by its extension) of a report titled title begins, or nil for another
// file.
func ownHead(name, title string) []byte {
	var head bytes.Buffer
	switch filepath.Ext(name) {
	case ".md":
		(&document{title: title}).writeMarkdown(&head)
	case ".html":
		(&document{title: title}).writeHTML(&head)
		head.Truncate(strings.Index(head.String(), "</title>"))
	default:
		return nil
	}
	return head.Bytes()
}

// build composes the report's document and figures.
func build(res *Results) (*document, []*figure, error) {
	doc := &document{title: "greedytl experiment report"}
	if note := res.PartialNote(); note != "" {
		doc.add(paragraph{note})
	}
	rows := res.Rows()
	failed := 0
	for i := range res.Records {
		if res.Records[i].Error != "" {
			failed++
		}
	}
	intro := fmt.Sprintf("%s read from %s: %d succeeded, %d failed (failed cells are counted, never averaged).",
		plural.Count(len(res.Records), "cell", "cells"), plural.Count(len(res.Files), "results file", "results files"), len(res.Records)-failed, failed)
	if res.Duplicates > 0 {
		intro += fmt.Sprintf(" Ignored: %s of cells already read.", plural.Count(res.Duplicates, "duplicate record", "duplicate records"))
	}
	doc.add(paragraph{intro}, bullets{slices.Clone(res.Files)})
	if len(res.Warnings) > 0 {
		doc.add(paragraph{"Warnings:"}, bullets{res.Warnings})
	}
	byDataset := map[string][]Row{}
	for _, r := range rows {
		byDataset[r.Dataset] = append(byDataset[r.Dataset], r)
	}
	var figs []*figure
	slugs := map[string]bool{}
	for _, ds := range slices.Sorted(maps.Keys(byDataset)) {
		slug := uniqueSlug(ds, slugs)
		g := res.gridRows(byDataset[ds])
		var f []*figure
		var err error
		if isNWay(g.rows) {
			f, err = nwaySection(doc, res.recordsOf(ds), ds, slug, &nwayRows{g})
		} else {
			f, err = datasetSection(doc, res, ds, slug, &datasetRows{g})
		}
		if err != nil {
			return nil, nil, err
		}
		figs = append(figs, f...)
	}
	doc.add(heading{2, "All summary rows"}, paragraph{allRowsNote(rows)}, allRowsTable(rows))
	if slices.ContainsFunc(rows, Row.StoppedShort) {
		doc.add(paragraph{"Stopped short " + NotConvergedMark + ": of the n cells, those whose final fit's solver stopped before its stopping rule held (final), and those whose only runs that stopped chose a hyperparameter (selection)."})
	}
	if slices.ContainsFunc(rows, leftOut) {
		doc.add(paragraph{"Committees left out " + WideRangeMark + ": of the n cells, those whose fit left subsamples' committees out of its mean (a column's values spanning a huge range)."})
	}
	return doc, figs, nil
}

// recordsOf returns the records of the dataset named dataset, in order.
func (res *Results) recordsOf(dataset string) []experiment.Record {
	var recs []experiment.Record
	for _, r := range res.Records {
		if r.Dataset == dataset {
			recs = append(recs, r)
		}
	}
	return recs
}

// datasetTitle returns how the report names the dataset named dataset
// (which may be empty).
func datasetTitle(dataset string) string {
	if dataset == "" {
		return "(unnamed dataset)"
	}
	return dataset
}

// datasetSection adds the tables and figures of one dataset.
func datasetSection(doc *document, res *Results, dataset, slug string, d *datasetRows) ([]*figure, error) {
	recs := res.recordsOf(dataset)
	ci := res.Classes[dataset]
	negatives := commonNegatives(recs)
	name := datasetTitle(dataset)
	doc.add(heading{2, "Dataset " + name}, paragraph{datasetOverview(recs, ci, d, res.maxTestNegatives(dataset))})
	var figs []*figure
	noises := d.noises()
	if len(noises) == 0 {
		doc.add(paragraph{"Every cell of this dataset failed: nothing to summarise."})
		failedTable(doc, recs)
		return nil, nil
	}
	// A level whose every cell failed too: its table says so. A level of
	// the grid without a record has no table (no method has a row there),
	// but its place on Fig. 2's axis and a note saying the run has not
	// written it, as the N-way section does for a number of ways.
	recorded := d.recordedNoises()
	if note := unwrittenNote(d.runNoises(), recorded, func(n int) string {
		return plural.Count(n, "noise dimension", "noise dimensions")
	}); note != "" {
		doc.add(paragraph{note})
	}
	for _, n := range recorded {
		title := BalancedAccuracyTitle
		if n > 0 {
			title += ", " + plural.Count(n, "noise dimension", "noise dimensions")
		}
		doc.add(heading{3, title})
		doc.add(accuracyTable(d, n, negatives)...)
	}
	rowNotes(doc, d.rows)
	base := noises[0]
	f1, err := accuracyFigure("fig1-accuracy-"+slug, name, d, base, negatives)
	if err != nil {
		return nil, err
	}
	figs = append(figs, f1)
	doc.add(heading{3, "Accuracy by training-set size"}, picture{fig: f1})
	if len(noises) > 1 {
		f2, err := noiseFigure("fig2-noise-"+slug, name, d, negatives)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f2)
		doc.add(heading{3, "Noise study"}, picture{fig: f2})
	}
	ms := d.methods(base)
	for _, a := range approximations(ms) {
		f3, err := approxFigure("fig3-"+a.slug()+"-"+slug, name, a, d, res, base, negatives)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f3)
		doc.add(heading{3, a.title()}, picture{fig: f3})
		doc.add(timingTable(res, recs, d, dataset, a, base, negatives)...)
	}
	mf, err := weightSection(doc, recs, dataset, name, slug, ci, d, base, negatives)
	if err != nil {
		return nil, err
	}
	figs = append(figs, mf...)
	failedTable(doc, recs)
	return figs, nil
}

// datasetOverview describes the grid of one dataset: the sizes and noise
// levels of its records and of its runs' grids (gridRows.grid), and the
// caution of test sets too small for a meaningful accuracy
// (experiment.SmallTestSets, whose advice names maxTestNegatives, the
// runs' bound on test negatives, when it is above 0; 0 unbounded, -1
// unknown).
func datasetOverview(recs []experiment.Record, ci ClassInfo, d *datasetRows, maxTestNegatives int) string {
	targets, splits := map[int]bool{}, map[int]bool{}
	for _, r := range recs {
		targets[r.TargetIdx], splits[r.Split] = true, true
	}
	var ms []string
	for _, m := range d.methods(-1) {
		ms = append(ms, methodLabel(m))
	}
	var pos, noise []int // the tables' and figures' sizes and levels: the grids' too
	for _, r := range d.rows {
		pos, noise = append(pos, r.Positives), append(noise, r.Noise)
	}
	for n, ps := range d.grid {
		pos, noise = append(pos, ps...), append(noise, n)
	}
	s := fmt.Sprintf("%s, %s, %s; training positives %s; noise dimensions %s; methods: %s.",
		plural.Count(len(ci.Names), "class", "classes"), plural.Count(len(targets), "target", "targets"), plural.Count(len(splits), "split", "splits"),
		joinInts(pos), joinInts(noise), strings.Join(ms, ", "))
	if ci.Groups != nil {
		g := map[string]bool{}
		for _, x := range ci.Groups {
			g[x] = true
		}
		s += " Classes fall in " + plural.Count(len(g), "semantic group", "semantic groups") + "."
	}
	if note, _ := experiment.SmallTestSets(recs, maxTestNegatives); note != "" {
		s += " Caution: " + note + "."
	}
	return s
}

// joinInts lists the distinct values of xs in increasing order.
func joinInts(xs []int) string {
	slices.Sort(xs)
	var out []string
	for _, x := range slices.Compact(xs) {
		out = append(out, strconv.Itoa(x))
	}
	return strings.Join(out, ", ")
}

// commonNegatives returns the most frequent number of negative training
// examples (0 when unknown).
func commonNegatives(recs []experiment.Record) int {
	count := map[int]int{}
	for _, r := range recs {
		count[r.Negatives]++
	}
	best, n := 0, 0
	for _, v := range sortedInts(count) {
		if count[v] > n {
			best, n = v, count[v]
		}
	}
	return best
}

// sizeLabel names a training-set size: "2+10" as in the paper.
func sizeLabel(positives, negatives int) string {
	if negatives == 0 {
		return fmt.Sprintf("%d pos.", positives)
	}
	return fmt.Sprintf("%d+%d", positives, negatives)
}

// Accuracy renders the row's accuracy as the report's tables give it:
// "mean ± stderr" in %, "mean (1 split)" for one split (no standard error:
// HasStdErr; "mean (1 episode)" for an N-way row, whose splits are
// episodes), "—" for a row of no cells, marked
// (NotConvergedMark) when some of its cells come from fits whose solvers
// stopped short, and (WideRangeMark) when some come from fits that left
// committees out of their mean.
func (r Row) Accuracy() string {
	var s string
	switch {
	case r.N == 0:
		return "—"
	case r.HasStdErr():
		s = fmt.Sprintf("%.1f ± %.2f", 100*r.Mean, 100*r.StdErr)
	case r.Ways > 0:
		s = fmt.Sprintf("%.1f %s", 100*r.Mean, singleMark("episode"))
	default:
		s = fmt.Sprintf("%.1f %s", 100*r.Mean, singleMark("split"))
	}
	if r.StoppedShort() {
		s += " " + NotConvergedMark
	}
	if r.WideRange > 0 {
		s += " " + WideRangeMark
	}
	return s
}

// rowNotes adds to doc, after a table of rows, the footnotes of its marked
// entries (Row.Accuracy): each such row's ConvergenceNote, then each such
// row's WideRangeNote. It adds nothing when no row is marked.
func rowNotes(doc *document, rows []Row) {
	for _, n := range []struct {
		note func(Row) string
		head string
	}{
		{Row.ConvergenceNote, NotConvergedMark + " Solvers that stopped short — entries averaged over cells some of whose fits' solver runs stopped before their stopping rule held (at their iteration cap, or unable to progress):"},
		{Row.WideRangeNote, WideRangeMark + " Committees left out — entries averaged over cells some of whose greedytl-auto fits averaged fewer committees than the others:"},
	} {
		var notes []string
		for _, r := range rows {
			if s := n.note(r); s != "" {
				notes = append(notes, s+".")
			}
		}
		if len(notes) > 0 {
			doc.add(paragraph{n.head}, bullets{notes})
		}
	}
}

// accuracyTable is a method × training-set size table at one noise level,
// with the best of each column in bold (bestEntries); a size whose every
// cell failed has its column of "—", and a size of the run's grid of which
// no cell has a record (a partial run) its column of blanks, as Fig. 1 has
// its tick without points (datasetRows.runPositives).
func accuracyTable(d *datasetRows, noise, negatives int) []element {
	ps := d.runPositives(noise)
	ms := d.methods(noise)
	for _, r := range d.rows { // methods whose every cell failed, too
		if r.Noise == noise && !slices.Contains(ms, r.Method) {
			ms = append(ms, r.Method)
		}
	}
	slices.SortFunc(ms, compareMethods)
	t := table{header: []string{"method"}, right: []bool{false}}
	for _, p := range ps {
		t.header = append(t.header, sizeLabel(p, negatives))
		t.right = append(t.right, true)
	}
	bold, passed := boldColumns(ms, len(ps), func(m string, i int) Row {
		r, _ := d.get(d.key(m, ps[i], noise))
		return r
	})
	// nmin and nmax: the fewest and most cells an entry with a value
	// averages; failedEntries: the entries of "—", whose every cell failed.
	nmin, nmax, failedEntries, oneSplit := math.MaxInt, 0, 0, false
	for j, m := range ms {
		cells := []string{methodLabel(m)}
		for _, p := range ps {
			r, ok := d.get(d.key(m, p, noise))
			if !ok {
				cells = append(cells, "")
				continue
			}
			cells = append(cells, r.Accuracy())
			if r.N > 0 {
				nmin, nmax = min(nmin, r.N), max(nmax, r.N)
			} else {
				failedEntries++
			}
			oneSplit = oneSplit || (r.N > 0 && !r.HasStdErr())
		}
		t.rows = append(t.rows, cells)
		t.bold = append(t.bold, append([]bool{false}, bold[j]...))
	}
	note := "Mean over targets and splits ± standard error over splits; bold: the best method of each column (the oracle Best source excluded)."
	switch {
	case nmax == 0:
		note += " Every cell of this table failed (see the failed cells)."
	case nmin == nmax:
		note += " Each entry averages " + plural.Count(nmin, "cell", "cells") + "."
	default:
		note += fmt.Sprintf(" Entries average %d to %d cells (see the failed cells and All summary rows).", nmin, nmax)
	}
	note += entryNotes(nmax > 0 && failedEntries > 0, "cell", oneSplit, "split", passed)
	// The sizes of the grid without a record.
	if s := unwrittenNote(ps, d.recordedPositives(noise), func(p int) string { return sizeLabel(p, negatives) }); s != "" {
		note += " " + s
	}
	return []element{t, paragraph{note}}
}

// unwrittenNote is the report's note on the values of the runs' grids
// (training-set sizes, noise levels, shots, ways) of which no cell has a
// record: those of values (the ones a table or a section shows) that
// recorded (those with a record) lacks, each labelled by label, in the
// order of values; a partial run has not written them. It is "" when
// there is none. A table's note appends it after a blank, the sections
// add it as a paragraph of its own.
func unwrittenNote(values, recorded []int, label func(int) string) string {
	var missing []string
	for _, v := range values {
		if !slices.Contains(recorded, v) {
			missing = append(missing, label(v))
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("No cell of %s has a record: the run's grid holds it, but the run has not written it (a partial run).", strings.Join(missing, ", "))
}

// entryNotes is what a table's note says of its entries marked as
// Row.Accuracy marks them: "—" where failed (every unit of an entry failed:
// "cell", "episode"), singleMark(one) where single (an entry of one split
// or episode, without a standard error), and, where passed, that such an
// entry was left out of its column's best (bestEntries).
func entryNotes(failed bool, unit string, single bool, one string, passed bool) string {
	var s string
	if failed {
		s += fmt.Sprintf(" An entry of — averages none: its every %s failed (see the failed %ss).", unit, unit)
	}
	if single {
		s += fmt.Sprintf(" Entries marked %s come from a single %s: there is no standard error to show", singleMark(one), one)
		if passed {
			s += fmt.Sprintf(", and they are not bold where their column has entries of more %ss", one)
		}
		s += "."
	}
	return s
}

// boldColumns applies bestEntries to each of the n columns of a method ×
// size table of methods ms, at(m, i) giving method m's entry in column i
// (the zero Row where it has none): bold[j][i] tells whether ms[j]'s entry
// in column i is bold, passed whether an entry of one split or episode was
// left out of its column's best.
func boldColumns(ms []string, n int, at func(m string, i int) Row) (bold [][]bool, passed bool) {
	bold = make([][]bool, len(ms))
	for j := range ms {
		bold[j] = make([]bool, n)
	}
	for i := range n {
		col := make([]Row, len(ms))
		for j, m := range ms {
			col[j] = at(m, i)
		}
		best, left := bestEntries(col)
		passed = passed || left
		for j := range ms {
			bold[j][i] = best[j]
		}
	}
	return bold, passed
}

// bestEntries returns which entries of a column of an accuracy table are
// bold — the one rule of the binary and the N-way tables — and whether an
// entry of a single split or episode was left out: the entries with a
// value (N > 0) whose mean is the greatest of the column's, the oracle
// Best source excluded (it picks its source by test accuracy), and, in a
// column with an entry of more splits, the entries of one split too (no
// standard error, Row.HasStdErr): one draw is not shown as the best of
// averages. A column of single splits alone compares them. A missing
// entry is the zero Row.
func bestEntries(col []Row) (bold []bool, passed bool) {
	averaged := slices.ContainsFunc(col, func(r Row) bool { return r.HasStdErr() && !isOracle(r.Method) })
	compete := func(r Row) bool { return r.N > 0 && !isOracle(r.Method) && (r.HasStdErr() || !averaged) }
	best := math.Inf(-1)
	for _, r := range col {
		if compete(r) {
			best = math.Max(best, r.Mean)
		}
	}
	bold = make([]bool, len(col))
	for i, r := range col {
		bold[i] = compete(r) && r.Mean == best
		passed = passed || (r.N > 0 && !isOracle(r.Method) && !compete(r))
	}
	return bold, passed
}

// singleMark is the mark of a table's entry that comes from a single
// split or episode (one: "split", "episode"), which has no standard error
// (Row.HasStdErr): "(1 split)", "(1 episode)". Row.Accuracy writes it
// after the mean, and entryNotes explains it.
func singleMark(one string) string { return "(1 " + one + ")" }

// timingTable is the paper's Table 1: the fit time of a method (GreedyTL)
// and its approximation (GreedyTL-59) by training-set size, mean ± standard
// deviation over the successful cells: the time alone for one cell, "—"
// for none (and no speed-up against it). A size the pair's grids hold
// without a record of either (a partial run) has a column of blanks and
// the accuracy table's note (unwrittenNote), as Fig. 3 its tick.
func timingTable(res *Results, recs []experiment.Record, d *datasetRows, dataset string, a approximation, noise, negatives int) []element {
	pair := []string{a.exact, a.approx}
	var ps, unwritten []int
	for _, r := range recs { // a size whose every fit failed too: a column of "—"
		if r.Noise == noise && slices.Contains(pair, r.Method) {
			ps = append(ps, r.Positives)
		}
	}
	for _, p := range d.grid[noise] { // d.inGrid is set with d.grid
		if !slices.Contains(ps, p) && slices.ContainsFunc(pair, func(m string) bool {
			return d.inGrid(d.key(m, p, noise))
		}) {
			unwritten = append(unwritten, p)
		}
	}
	ps = sortedUnion(ps, unwritten)
	times := map[string][][]float64{} // by method and size: the successful fits' times
	hi := 0.0
	for _, m := range pair {
		for _, p := range ps {
			ts := fitTimes(recs, rowKey{dataset: dataset, method: m, positives: p, noise: noise})
			times[m] = append(times[m], ts)
			hi = math.Max(hi, mean(ts))
		}
	}
	unit, scale := "s", 1.0
	if hi < 0.1 {
		unit, scale = "ms", 1000
	}
	t := table{header: []string{"method"}, right: []bool{false}}
	cand := candidateRange(recs, pair, noise)
	if cand == "" {
		if n := res.candidates(dataset, noise); n > 0 {
			cand = strconv.Itoa(n)
		}
	}
	if cand != "" {
		t.header = append(t.header, "candidates (features + sources)")
		t.right = append(t.right, true)
	}
	for _, p := range ps {
		t.header = append(t.header, sizeLabel(p, negatives))
		t.right = append(t.right, true)
	}
	for _, m := range pair {
		cells := []string{methodLabel(m)}
		if cand != "" {
			cells = append(cells, cand)
		}
		for i, ts := range times[m] {
			// No fit succeeded: no time (mean gives 0); one: no spread.
			switch {
			case slices.Contains(unwritten, ps[i]):
				cells = append(cells, "")
			case len(ts) == 0:
				cells = append(cells, "—")
			case len(ts) == 1:
				cells = append(cells, fmt.Sprintf("%.3f", scale*ts[0]))
			default:
				cells = append(cells, fmt.Sprintf("%.3f ± %.3f", scale*mean(ts), scale*stdDev(ts)))
			}
		}
		t.rows = append(t.rows, cells)
	}
	speed := []string{"speed-up"}
	if cand != "" {
		speed = append(speed, "")
	}
	for i := range ps {
		exact, approx := times[a.exact][i], times[a.approx][i]
		switch {
		case slices.Contains(unwritten, ps[i]):
			speed = append(speed, "")
		case len(exact) > 0 && len(approx) > 0 && mean(approx) > 0:
			speed = append(speed, fmt.Sprintf("×%.1f", mean(exact)/mean(approx)))
		default:
			speed = append(speed, "—")
		}
	}
	t.rows = append(t.rows, speed)
	els := []element{
		paragraph{fmt.Sprintf("Table 1. Training time in %s for transferring to a single target class: mean ± standard deviation over targets and splits (cf. the paper's Table 1).", unit)},
		t,
	}
	if note := unwrittenNote(unwritten, nil, func(p int) string { return sizeLabel(p, negatives) }); note != "" {
		els = append(els, paragraph{note})
	}
	return els
}

// candidateRange describes the number of candidate columns the records of
// the methods ms (the greedy methods) give at a noise level: one number, a
// range, or "" when they do not say.
func candidateRange(recs []experiment.Record, ms []string, noise int) string {
	lo, hi := math.MaxInt, 0
	for i := range recs {
		r := &recs[i]
		if r.Noise == noise && slices.Contains(ms, r.Method) && r.Candidates > 0 {
			lo, hi = min(lo, r.Candidates), max(hi, r.Candidates)
		}
	}
	switch {
	case hi == 0:
		return ""
	case lo == hi:
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// weightSection adds the semantic transferability matrices (Figs. 4, 5, 7)
// of the methods that record source weights, at 2 and 10 positives (or the
// smallest and largest size run).
func weightSection(doc *document, recs []experiment.Record, dataset, name, slug string, ci ClassInfo, d *datasetRows, noise, negatives int) ([]*figure, error) {
	ps := d.positives(noise)
	var show []int
	switch {
	case slices.Contains(ps, 2) && slices.Contains(ps, 10):
		show = []int{2, 10}
	case len(ps) == 1:
		show = ps
	default:
		show = []int{ps[0], ps[len(ps)-1]}
	}
	type entry struct {
		method string
		ws     []*weights
		ps     []int
	}
	var entries []entry
	targets, sources := map[int]bool{}, map[int]bool{}
	for _, m := range weightMethods() {
		e := entry{method: m}
		for _, p := range show {
			if w := meanAbsWeights(recs, rowKey{dataset: dataset, method: m, positives: p, noise: noise}); w != nil {
				e.ws = append(e.ws, w)
				e.ps = append(e.ps, p)
				maps.Copy(targets, w.targets)
				maps.Copy(sources, w.sources)
			}
		}
		if len(e.ws) > 0 {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return nil, nil
	}
	maps.Copy(sources, targets)
	ts, ss := sortedInts(targets), sortedInts(sources)
	for _, c := range ss {
		if c >= len(ci.Names) {
			return nil, fmt.Errorf("report: dataset %q: class index %d but %d class names", dataset, c, len(ci.Names))
		}
	}
	var l layout
	if ci.Groups != nil {
		l = groupLayout(ts, ss, ci.Groups)
	} else {
		ref := map[[2]int]float64{}
		for _, w := range entries[0].ws { // GreedyTL's when present
			for k, v := range w.val {
				ref[k] += v
			}
		}
		l = clusterLayout(ts, ss, ref)
	}
	doc.add(heading{3, "Source weights"})
	var figs []*figure
	for _, e := range entries {
		f, err := matrixFigure(fmt.Sprintf("fig-weights-%s-%s", slug, filename.Slug(e.method, "dataset", 0)), name, e.method, ci, l, e.ws, e.ps, negatives)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
		doc.add(picture{fig: f})
	}
	return figs, nil
}

// failedKey is a group of failed records: a method and two numbers.
type failedKey struct {
	method string
	a, b   int
}

// failedSection adds to doc a table of the failed records of recs (unit
// names them: "cells", "episodes"), grouped by method and the two numbers
// nums gives (the columns cols), with each group's count and first error:
// groups in the order cmp gives, or of first appearance when cmp is nil.
// It adds nothing when no record failed.
func failedSection(doc *document, recs []experiment.Record, unit string, cols [2]string, nums func(experiment.Record) (int, int), cmp func(x, y failedKey) int) {
	var keys []failedKey
	count, first := map[failedKey]int{}, map[failedKey]string{}
	for _, r := range recs {
		if r.Error == "" {
			continue
		}
		k := failedKey{method: r.Method}
		k.a, k.b = nums(r)
		if count[k] == 0 {
			keys = append(keys, k)
			first[k] = r.Error
		}
		count[k]++
	}
	if len(keys) == 0 {
		return
	}
	if cmp != nil {
		slices.SortFunc(keys, cmp)
	}
	t := table{header: []string{"method", cols[0], cols[1], "failed " + unit, "first error"}, right: []bool{false, true, true, true, false}}
	for _, k := range keys {
		t.rows = append(t.rows, []string{methodLabel(k.method), strconv.Itoa(k.a), strconv.Itoa(k.b), strconv.Itoa(count[k]), first[k]})
	}
	doc.add(heading{3, "Failed " + unit}, paragraph{"These " + unit + " are left out of every mean above."}, t)
}

// failedTable lists the failed cells by method, size and noise.
func failedTable(doc *document, recs []experiment.Record) {
	failedSection(doc, recs, "cells", [2]string{"positives", "noise"},
		func(r experiment.Record) (int, int) { return r.Positives, r.Noise },
		func(x, y failedKey) int {
			return compareRowKeys(rowKey{method: x.method, positives: x.a, noise: x.b}, rowKey{method: y.method, positives: y.a, noise: y.b})
		})
}

// allRowsNote says what the columns of allRowsTable(rows) hold: the
// binary protocols' balanced accuracy over targets and splits, N-way rows'
// accuracy over episodes, or both.
func allRowsNote(rows []Row) string {
	var means []string
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Ways == 0 }) {
		means = append(means, "Balanced accuracy in %: mean over targets and splits ± standard error over splits (the standard deviation of the per-split means over √splits)")
	}
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Ways > 0 }) {
		means = append(means, "N-way rows (a number of ways): accuracy in %: mean over episodes (splits) ± standard error over episodes")
	}
	return strings.Join(means, "; ") + "; n successful cells; fit time in seconds, mean over successful cells."
}

// allRowsTable lists every summary row.
func allRowsTable(rows []Row) table {
	t := table{
		header: []string{"dataset", "method", "positives", "noise", "mean", "stderr", "splits", "n", "errors", "fit s"},
		right:  []bool{false, false, true, true, true, true, true, true, true, true},
	}
	ways := slices.ContainsFunc(rows, func(r Row) bool { return r.Ways > 0 })
	if ways { // N-way rows: their ways, and their positives are shots
		t.header = slices.Insert(t.header, 2, "ways")
		t.header[3] = "positives (shots)"
		t.right = slices.Insert(t.right, 2, true)
	}
	stopped := slices.ContainsFunc(rows, Row.StoppedShort)
	if stopped { // the cells with solver runs that stopped short
		t.header = append(t.header, "stopped short "+NotConvergedMark)
		t.right = append(t.right, false)
	}
	wide := slices.ContainsFunc(rows, leftOut)
	if wide { // the cells whose fits left committees out
		t.header = append(t.header, "committees left out "+WideRangeMark)
		t.right = append(t.right, true)
	}
	for _, r := range rows {
		m, se, fit := "—", "—", "—" // a row of no successful cell averages nothing
		if r.N > 0 {
			m = fmt.Sprintf("%.2f", 100*r.Mean)
			if r.HasStdErr() {
				se = fmt.Sprintf("%.2f", 100*r.StdErr)
			}
			fit = strconv.FormatFloat(r.FitSecondsMean, 'g', 4, 64)
		}
		cells := []string{r.Dataset, r.Method, strconv.Itoa(r.Positives), strconv.Itoa(r.Noise), m, se,
			strconv.Itoa(r.Splits), strconv.Itoa(r.N), strconv.Itoa(r.Errors), fit}
		if ways {
			cells = slices.Insert(cells, 2, strconv.Itoa(r.Ways))
		}
		if stopped {
			cells = append(cells, stoppedShort(r))
		}
		if wide {
			n := ""
			if r.WideRange > 0 {
				n = strconv.Itoa(r.WideRange)
			}
			cells = append(cells, n)
		}
		t.rows = append(t.rows, cells)
	}
	return t
}

// leftOut reports whether some of the row's averaged cells come from fits
// that left committees out of their mean (Row.WideRange).
func leftOut(r Row) bool { return r.WideRange > 0 }

// stoppedShort renders a row's counts of cells with solver runs that
// stopped short: "3 final, 1 selection", "" for none.
func stoppedShort(r Row) string {
	var parts []string
	if r.NotConverged > 0 {
		parts = append(parts, fmt.Sprintf("%d final", r.NotConverged))
	}
	if r.SelectionNotConverged > 0 {
		parts = append(parts, fmt.Sprintf("%d selection", r.SelectionNotConverged))
	}
	return strings.Join(parts, ", ")
}

// uniqueSlug returns a slug of s not in used, and marks it used.
func uniqueSlug(s string, used map[string]bool) string {
	base := filename.Slug(s, "dataset", 0)
	slug := base
	for i := 2; used[slug]; i++ {
		slug = fmt.Sprintf("%s-%d", base, i)
	}
	used[slug] = true
	return slug
}
