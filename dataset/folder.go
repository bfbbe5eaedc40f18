package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// Folder is a multi-class dataset stored as a folder (docs/design.md §6):
//
//	features.npy  2-D float array, one row per example
//	labels.npy    1-D integer array, the class (0..C−1) of each row
//	classes.txt   line i names class i
//	groups.txt    optional: line i names class i's semantic group
type Folder struct {
	// Dir is the folder as given to LoadFolder.
	Dir string
	// X holds the features, one row per example; it is nil for a folder
	// opened with OpenFolder whose features are read on demand (Dims and
	// ReadRows serve both kinds of folder).
	X *mat.Dense
	// Labels holds each row's class, an index into Classes.
	Labels []int
	// Classes holds the class names, distinct and non-empty.
	Classes []string
	// Groups holds each class's group name, or is nil without groups.txt.
	Groups []string
	// Embedded names, for a folder built in memory from data the program
	// embeds (clinc150.Load: "the embedded CLINC150 data"), that data in
	// messages, which have no file of it to name; "" for a folder of files.
	Embedded string

	// rows reads the features on demand (OpenFolder), or is nil.
	rows *npyRows
}

// LoadFolder reads and validates the dataset folder dir: features must be
// finite, every row must have a label, every label must name a line of
// classes.txt, class names must be distinct and non-empty, and groups.txt,
// if present, must have one non-empty line per class. Trailing blank lines
// in the text files are ignored. They have no comments, and no quoting:
// every line is a name ("#", "#tag", "car #2"), but for a first line of
// '#', white space and text ("# classes", which np.savetxt's header=
// writes above the names: savetxtHeader), an error. A class
// without examples is allowed. The features are read into X as float64. A
// dir that names a file is refused as such ("dir: is a file, not a dataset
// folder …").
func LoadFolder(dir string) (*Folder, error) { return loadFolder(dir, false) }

// OpenFolder is LoadFolder without reading the features into memory: it
// checks and hashes them (FeaturesHash) in one sequential pass and leaves X
// nil; ReadRows then reads the rows a caller needs from features.npy, in the
// file's precision (float32 stays float32). Close the folder when done. A features file that
// cannot be read by rows — gzip-compressed, or a Fortran-order array — is
// read into X as LoadFolder reads it.
func OpenFolder(dir string) (*Folder, error) { return loadFolder(dir, true) }

// loadFolder is LoadFolder, or OpenFolder when lazy.
func loadFolder(dir string, lazy bool) (f *Folder, err error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		// It said "FILE/features.npy: not a directory".
		return nil, errorf(dir, 0, "is a file, not a dataset folder (features.npy, labels.npy, classes.txt)")
	}
	f = &Folder{Dir: dir}
	featPath := filepath.Join(dir, FeaturesFile)
	if lazy {
		f.rows, err = openNPYRows(featPath)
		if errors.Is(err, errNotRowReadable) {
			f.rows, err = nil, nil
			lazy = false
		}
		if err != nil {
			return nil, err
		}
		if rows := f.rows; rows != nil {
			defer func() {
				if err != nil {
					rows.file.Close()
				}
			}()
		}
	}
	if !lazy {
		if f.X, err = ReadNPYMatrix(featPath); err != nil {
			return nil, err
		}
	}
	labelPath := filepath.Join(dir, LabelsFile)
	if f.Labels, err = ReadNPYInts(labelPath); err != nil {
		return nil, hintText(err, folderHint)
	}
	classPath := filepath.Join(dir, ClassesFile)
	if f.Classes, err = readNames(classPath, "class"); err != nil {
		return nil, err
	}
	if err := checkDistinct(classPath, f.Classes); err != nil {
		return nil, err
	}
	if r, _ := f.Dims(); len(f.Labels) != r {
		return nil, errorf(dir, 0, "labels.npy has %d labels but features.npy has %d rows", len(f.Labels), r)
	}
	for i, l := range f.Labels {
		if l < 0 || l >= len(f.Classes) {
			oneBased := "" // R's factor codes and MATLAB's indices count from 1
			if l == len(f.Classes) && !slices.Contains(f.Labels, 0) {
				oneBased = fmt.Sprintf("; the labels count 1..%d, as R and MATLAB count: save them minus 1", len(f.Classes))
			}
			return nil, errorf(labelPath, 0, "row %d: label %d out of range: classes.txt names %d classes (0..%d)%s", i, l, len(f.Classes), len(f.Classes)-1, oneBased)
		}
	}
	groupPath := filepath.Join(dir, GroupsFile)
	f.Groups, err = readNames(groupPath, "group")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Groups = nil
	case err != nil:
		return nil, err
	case len(f.Groups) != len(f.Classes):
		return nil, errorf(groupPath, 0, "has %d groups but classes.txt has %d classes", len(f.Groups), len(f.Classes))
	}
	return f, nil
}

// readNames reads one non-empty name per line (blanks around a name
// trimmed, trailing blank lines ignored). A name holding a character a
// label may not hold (labelrunes.go: a control character, a bidirectional
// control, a format character that shows as nothing) is an error, and so
// is a first line that is np.savetxt's header (savetxtHeader: "#
// classes"); '#' elsewhere is a name's ("#", "#tag", "car #2" on any
// line, "# b" below the first), as the file has no comments and no
// quoting to keep a name that looks like one.
func readNames(path, what string) ([]string, error) {
	src, err := openPath(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	lr := newLineReader(src.br, path)
	var names []string
	blank := 0 // line of the first blank line since the last name
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		name := strings.TrimSpace(string(line))
		if name == "" {
			if blank == 0 {
				blank = lr.line
			}
			continue
		}
		if blank > 0 {
			return nil, errorf(path, blank, "empty %s name", what)
		}
		if err := nameError(what, name, len(names) == 0); err != nil {
			if !utf8.ValidString(name) {
				err = fmt.Errorf("%w: %s", err, saveAsUTF8)
			}
			return nil, &Error{File: path, Line: lr.line, Err: err}
		}
		names = append(names, name)
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if len(names) == 0 {
		return nil, errorf(path, 0, "no %s names", what)
	}
	return names, nil
}

// savetxtHeader reports whether name, a trimmed first line of
// classes.txt or groups.txt, is what np.savetxt(path, names, fmt="%s",
// header=h) writes above the names: '#', white space, then text ("#
// classes"). "#" alone, "#tag" and a later line alike are names.
func savetxtHeader(name string) bool {
	rest, ok := strings.CutPrefix(name, "#")
	r, _ := utf8.DecodeRuneInString(rest)
	return ok && unicode.IsSpace(r) && strings.TrimSpace(rest) != ""
}

// nameError returns why name, a trimmed line of ClassesFile or
// GroupsFile (what is "class" or "group"), first telling whether it is the
// file's first name, is no name: the one list of these rules, which
// readNames and WriteNames both apply.
func nameError(what, name string, first bool) error {
	if !utf8.ValidString(name) {
		// Read on, a name of Windows-1252 bytes ("caf\xe9") was
		// recorded in sources.json as JSON, which replaced the byte,
		// and experiment then found the folder's classes other than
		// its sources', naming one folder twice.
		return fmt.Errorf("%s name %s is not valid UTF-8", what, strconv.Quote(name))
	}
	if first && savetxtHeader(name) {
		// np.savetxt(path, names, fmt="%s", header="classes")
		// writes "# classes" above the names: read as a name, it
		// named class 0, and every class the name of the one before.
		named := "class i"
		if what == "group" {
			named = "class i's group"
		}
		return fmt.Errorf("%s name %s reads as a comment (np.savetxt's header= writes one), and the file has none: line i names %s; remove the line", what, strconv.Quote(name), named)
	}
	// An escape or a bidirectional control in a class name was printed
	// raw by predict and inspect (labelrunes.go).
	return hiddenError(what+" name", name)
}

// checkDistinct reports the first repeated name, with its line number
// (names are read one a line from path), or the first name canonically
// equivalent to an earlier one (distinctError).
func checkDistinct(path string, names []string) error {
	if i, err := distinctError(names, func(j int) string { return fmt.Sprintf("line %d", j+1) }); err != nil {
		return &Error{File: path, Line: i + 1, Err: err}
	}
	return nil
}

// distinctError returns the index of the first class name of names that
// repeats an earlier one, or is canonically equivalent to it (they print
// alike), and why, at naming where name j is ("line 3"); or nil. It is the
// one rule of distinct class names, which LoadFolder (checkDistinct) and
// WriteNames apply.
func distinctError(names []string, at func(j int) string) (int, error) {
	seen := make(map[string]int, len(names))
	for i, n := range names {
		if j, dup := seen[n]; dup {
			return i, fmt.Errorf("duplicate class name %q (also on %s)", n, at(j))
		}
		seen[n] = i
	}
	if i, j, ok := canonicalTwin(names); ok {
		return j, twinError("class name", names[j], names[i], at(i))
	}
	return 0, nil
}

// FeaturesName returns what a message calls the file of f's features:
// features.npy in Dir, or f.Embedded for data the program embeds.
func (f *Folder) FeaturesName() string {
	if f.Embedded != "" {
		return f.Embedded
	}
	return filepath.Join(f.Dir, FeaturesFile)
}

// ClassIndex returns the index of the class called name, or an error listing
// a few class names when there is none (and for a nil f).
func (f *Folder) ClassIndex(name string) (int, error) {
	if f == nil {
		return -1, errNoFolder
	}
	for k, c := range f.Classes {
		if c == name {
			return k, nil
		}
	}
	const show = 5
	list := strings.Join(f.Classes[:min(show, len(f.Classes))], ", ")
	if len(f.Classes) > show {
		list += fmt.Sprintf(", ... (%d classes)", len(f.Classes))
	}
	return -1, fmt.Errorf("dataset %s: no class named %q (classes: %s)", f.Dir, name, list)
}

// ClassCounts returns the number of rows of each class, by class index
// (none for a nil f).
func (f *Folder) ClassCounts() []int {
	if f == nil {
		return nil
	}
	counts := make([]int, len(f.Classes))
	for _, l := range f.Labels {
		counts[l]++
	}
	return counts
}

// classes returns f's class names, none for a nil f.
func (f *Folder) classes() []string {
	if f == nil {
		return nil
	}
	return f.Classes
}

// errNoFolder is the error of a Folder's method with an error result on a
// nil *Folder.
var errNoFolder = errors.New("dataset: no folder (nil *Folder)")

// Rows returns the indices, in increasing order, of the rows labelled class.
// It panics if class is not in [0, len(f.Classes)) (every class, for a nil
// f).
func (f *Folder) Rows(class int) []int {
	if n := len(f.classes()); class < 0 || class >= n {
		panic(fmt.Sprintf("dataset: class %d out of range [0, %d)", class, n))
	}
	var rows []int
	for i, l := range f.Labels {
		if l == class {
			rows = append(rows, i)
		}
	}
	return rows
}
