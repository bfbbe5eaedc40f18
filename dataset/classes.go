package dataset

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/greedytl/greedytl/internal/number"
)

// Classes are the labels of a file read by ReadClasses: any number of
// classes.
type Classes struct {
	// Names are the distinct labels in order: numerically increasing when
	// every label is a number (written in the shortest form that reads back
	// exactly: "3", "0.5"; a float32 .npy's values in float32's, so that
	// float32(0.1) is "0.1"), else sorted as strings.
	Names []string
	// Y holds the index in Names of each example's label, in file order.
	Y []int

	file   string     // the file, for messages
	vals   []string   // the labels as read
	header *string    // the first value, when it was read as a header
	src    *labelFile // the file's values and their places, a header included (nil when not read from a file)
	rule   HeaderRule // the rule the first value was read by (ReadFor reads it again under HeaderAuto)
}

// ErrorOf returns err as an *Error naming the file and where the first
// label of class k was read: its line (and its column, when one line holds
// every label) in a text file, its 0-based row in a .npy file. It is the
// message for a class that does not fit (not one of a model's classes).
func (c *Classes) ErrorOf(k int, err error) error {
	i := slices.Index(c.Y, k)
	if c.src == nil || i < 0 {
		return &Error{File: c.file, Err: err}
	}
	return c.src.errorAt(i+len(c.src.vals)-len(c.vals), err)
}

// InFileOrder returns the indices of Names in the order in which their
// first example comes in the file (Y), so that a check of each class
// reports the one on the earliest line first.
func (c *Classes) InFileOrder() []int {
	order := make([]int, 0, len(c.Names))
	seen := make([]bool, len(c.Names))
	for _, k := range c.Y {
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	return order
}

// Header returns the first value of the file when it was read as a header
// (dropped: not a label), for messages about the labels' count.
func (c *Classes) Header() (string, bool) {
	if c.header == nil {
		return "", false
	}
	return *c.header, true
}

// FromText reports whether the labels were read from a text file, whose
// first line may be a header (HeaderRule), rather than from a .npy array
// or given directly.
func (c *Classes) FromText() bool {
	return c.src != nil && !c.src.npy
}

// BlankLine returns the first blank line of the text file between two
// lines of labels (or between the header and the first label: AfterHeader),
// or else before the first or after the last, and where
// it is, or 0 when there is none: it holds no label, as a missing label
// does where pandas' to_csv writes NaN as nothing, so a file of labels
// with a blank line has fewer labels than it has lines.
func (c *Classes) BlankLine() (int, LinePlace) {
	return c.gapLine(func(g gapLines) int { return g.blank })
}

// CommentLine returns the first line of the text file between two lines
// of labels that is read as a comment (its first non-blank character is
// '#'), or else such a line before the first or after the last, and where
// it is, or 0 when there is none: it holds no label, as a class "#tag"
// written unquoted (np.savetxt(path, y, fmt="%s")) does not. A line
// before the first label that is '#', a blank and text ("# label") is
// np.savetxt's header= (savetxtHeader), not a label: not such a line.
// Every such line before the first label is exempted, a class written
// unquoted as "# a" too: the form alone cannot tell the two apart.
func (c *Classes) CommentLine() (int, LinePlace) {
	return c.gapLine(func(g gapLines) int { return g.comment })
}

// gapLine returns the line of the gap lines between the lines of
// labels, or else before them, or else after them, and that place: the
// lines between the first two lines come first, said to be after the
// header when the first line was read as one, else between labels.
func (c *Classes) gapLine(of func(gapLines) int) (int, LinePlace) {
	if c.src == nil {
		return 0, BetweenLabels
	}
	for _, p := range []LinePlace{AfterHeader, BetweenLabels, BeforeLabels, AfterLabels} {
		if line := of(c.src.gaps[p]); line > 0 {
			if p == AfterHeader && c.header == nil {
				p = BetweenLabels
			}
			return line, p
		}
	}
	return 0, BetweenLabels
}

// GapLines returns how many lines of the text file hold no label: blank
// lines and comment lines ('#' first), but np.savetxt's header above the
// labels ("# label", see CommentLine), and 0 for a .npy file. A label
// missing (a blank line) or read as a comment is one of them, so labels
// that are more than GapLines fewer than the rows are not explained by
// them.
func (c *Classes) GapLines() int {
	if c.src == nil {
		return 0
	}
	n := 0
	for _, g := range c.src.gaps {
		n += g.blanks + g.comments
	}
	return n
}

// HeaderRule says whether the first value of a text label file
// (ReadClassesHeader), or the first line of a text matrix file
// (ReadMatrixNames), is a header. It does not apply to .npy files, which
// have none.
type HeaderRule int

const (
	// HeaderAuto drops the first value when it can only be a header (see
	// ReadClasses, and DecodeCSV for a matrix).
	HeaderAuto HeaderRule = iota
	// HeaderYes always drops the first value.
	HeaderYes
	// HeaderNo never drops it: every value is a label.
	HeaderNo
)

// headerRuleNames are the names of the HeaderRule values, by value.
var headerRuleNames = [...]string{HeaderAuto: "auto", HeaderYes: "yes", HeaderNo: "no"}

// HeaderRuleNames returns the names ParseHeaderRule reads, in the order
// of their values ("auto", the default, first): the values a flag that
// sets a HeaderRule takes (its shell completion lists them).
func HeaderRuleNames() []string { return slices.Clone(headerRuleNames[:]) }

// ParseHeaderRule returns the HeaderRule named s, one of
// HeaderRuleNames.
func ParseHeaderRule(s string) (HeaderRule, error) {
	n := headerRuleNames[:]
	if h := slices.Index(n, s); h >= 0 {
		return HeaderRule(h), nil
	}
	return 0, fmt.Errorf("%q: want %s or %s", s, strings.Join(n[:len(n)-1], ", "), n[len(n)-1])
}

// ReadClasses reads the labels of path, of any number of classes, from the
// files ReadLabels accepts, with ReadClassesHeader's HeaderAuto rule.
func ReadClasses(path string) (*Classes, error) {
	return ReadClassesHeader(path, HeaderAuto)
}

// ReadClassesHeader reads the labels of path, of any number of classes,
// from the files ReadLabels accepts; h says whether a text file's first
// value is a header. HeaderAuto drops it as ReadLabels does — a
// non-numeric first value above numeric labels, or a first value
// occurring only there above labels of exactly two other values — except
// that in the second case each of the two values must occur at least
// twice: "owl, cat, dog" is three classes of one example (a one-shot task),
// not a header above two. It is a guess where a file could be read either
// way ("owl, cat, cat, dog, dog" reads as a header above two classes, and
// so does a test file of three classes whose one "owl" comes first):
// HeaderNo and HeaderYes say which, and where the classes the labels must
// be of are known (a model's), Classes.ReadFor reads the first value by
// them. It returns an error for a file without labels.
func ReadClassesHeader(path string, h HeaderRule) (*Classes, error) {
	lf, err := readLabelFile(path)
	if err != nil {
		return nil, err
	}
	return lf.classes(h, nil)
}

// ReadFor returns the labels of c read again knowing known, the classes
// they must be of (a model's, at predict), when c's first value was read
// by HeaderAuto from a text file; else c itself. A first value that is
// one of known's classes (known.Lookup) is a label, never a header, so
// that a file of labels, predict's output among them, whose first is a
// class found nowhere else above two classes of two labels or more
// ("fish, cat, cat, dog, dog") reads as the labels. One that is none of
// them is read as the file says (ReadClassesHeader): not taken for a
// header for that alone, since a misspelt first label is none of them
// either, and is better refused at its line, before predict scores a
// row, than found one label short after. It returns c itself when the
// first value is read as before, and the error of a label the first
// value's reading now checks.
func (c *Classes) ReadFor(known *Classes) (*Classes, error) {
	if c.src == nil || c.src.npy || c.rule != HeaderAuto {
		return c, nil
	}
	vals := autoHeader(c.src.vals, known)
	if dropped := len(vals) < len(c.src.vals); dropped == (c.header != nil) {
		return c, nil
	}
	return c.src.classesOf(vals, HeaderAuto)
}

// ReadForRows returns the labels of c read again knowing m, the number of
// examples they label (the rows of the inputs), when c's first value was
// read by HeaderAuto from a text file and c does not hold m labels; else
// c itself. The count tells what the values alone could not: with m
// values in all, the first is a label where HeaderAuto guessed a header
// from its one place ("owl" above two classes of two labels or more: a
// one-shot class listed first), not where it is a name above numbers
// ("y" above 1 and -1, which a missing label would make m values); with
// m + 1, it is a header when it could be one (FirstMayBeHeader: "species"
// above three classes). A file with lines that hold no label (GapLines:
// a blank line, a missing label?) stays as read: its count tells nothing
// of its first line. Otherwise too c stays as read, its count the
// caller's error, and so it does when the first value read as a label is
// refused. The labels of a model's classes are read by them instead
// (ReadFor), which know a first value that is a class for a label.
func (c *Classes) ReadForRows(m int) (*Classes, error) {
	if !c.RowsMayDecide() || len(c.Y) == m {
		return c, nil
	}
	all := c.src.vals
	switch {
	case len(all) == m && c.header != nil && len(dropNumericHeader(all)) == len(all):
		if n, err := c.src.classesOf(all, HeaderAuto); err == nil {
			return n, nil
		}
	case len(all) == m+1 && c.FirstMayBeHeader():
		return c.src.classesOf(all[1:], HeaderAuto)
	}
	return c, nil
}

// RowsMayDecide reports whether ReadForRows may read c's first line again
// for some count of rows: c was read from a text file by HeaderAuto, with
// no line that holds no label (GapLines). Where it reports false, the
// count of rows cannot change how the first line reads.
func (c *Classes) RowsMayDecide() bool {
	return c.src != nil && !c.src.npy && c.rule == HeaderAuto && c.GapLines() == 0
}

// FirstMayBeHeader reports whether c, read from a text file with its first
// value as a label, has a first label that could be a header instead, by
// its place alone: a class found nowhere else in the file ("species"
// above the classes it names), or "0", the name pandas' to_csv(path,
// index=False) writes above an unnamed Series (of labels 0 and 1 too,
// where "0" is a class). HeaderAuto does not take them for one (a first
// label may be found once, and "0" is one); a count of labels one more
// than the examples does (ReadForRows).
func (c *Classes) FirstMayBeHeader() bool {
	if !c.FromText() || c.header != nil || len(c.Y) < 2 {
		return false
	}
	return !slices.Contains(c.Y[1:], c.Y[0]) || c.Names[c.Y[0]] == "0"
}

// classes returns the classes of the label file lf, its first value read
// as a header as h says (see ReadClassesHeader), and HeaderAuto's by the
// classes known when they are given (see Classes.ReadFor; nil: not known).
func (lf *labelFile) classes(h HeaderRule, known *Classes) (*Classes, error) {
	vals := lf.vals
	switch {
	case lf.npy || h == HeaderNo:
	case h == HeaderYes:
		if len(vals) < 2 {
			return nil, errorf(lf.name, 0, "no labels below the header")
		}
		vals = vals[1:]
	default:
		vals = autoHeader(vals, known)
	}
	return lf.classesOf(vals, h)
}

// classesOf returns the classes of the label file lf whose labels are
// vals: all its values, or all but the first, its header, read so by the
// rule h.
func (lf *labelFile) classesOf(vals []string, h HeaderRule) (*Classes, error) {
	all := lf.vals
	if err := lf.checkLabels(len(all)-len(vals), true); err != nil {
		return nil, err
	}
	c := &Classes{file: lf.name, vals: vals, src: lf, rule: h}
	if len(vals) < len(all) {
		c.header = &all[0]
	}
	nums := make([]float64, len(vals)) // nil when a label is no number
	for i, v := range vals {
		x, err := number.Parse(v)
		if err != nil || math.IsNaN(x) {
			nums = nil
			break
		}
		nums[i] = x + 0 // −0 is the class of 0
	}
	c.index(nums)
	return c, nil
}

// index sets c.Names (nil before) and c.Y from c.vals: each distinct label a class,
// compared by value and named in the shortest form when nums holds every
// label's value (the labels are numbers), else as a trimmed string.
func (c *Classes) index(nums []float64) {
	keys := make([]string, len(c.vals))
	for i, v := range c.vals {
		keys[i] = strings.TrimSpace(v)
		if nums != nil {
			keys[i] = formatFloat(nums[i])
		}
	}
	index := map[string]int{}
	for i, k := range keys {
		if _, ok := index[k]; !ok {
			index[k] = i
			c.Names = append(c.Names, k)
		}
	}
	if nums != nil {
		slices.SortFunc(c.Names, func(a, b string) int {
			x, _ := number.Parse(a)
			y, _ := number.Parse(b)
			return cmp.Compare(x, y)
		})
	} else {
		slices.Sort(c.Names)
	}
	for k, n := range c.Names {
		index[n] = k
	}
	c.Y = make([]int, len(keys))
	for i, k := range keys {
		c.Y[i] = index[k]
	}
}

// As returns the labels of c read by the rule of the classes known (a
// model's, or the training labels'), so that known.Lookup finds each of
// them as training named it: when known's names are numbers, or c's are
// not, c itself (numbers compared by value); else c's labels as names,
// each distinct trimmed label a class of its own, as a file of labels not
// all numbers reads ("01" and "1" two classes, where c, all numbers,
// merged them into "1").
func (c *Classes) As(known *Classes) *Classes {
	if !c.ReadAsNames(known) {
		return c
	}
	n := &Classes{file: c.file, vals: c.vals, header: c.header, src: c.src}
	n.index(nil)
	return n
}

// ReadAsNames reports whether As(known) reads c's labels anew as names:
// known's classes are names (not all numbers) and c's labels all numbers,
// read from a file (its labels as read kept). A label of c that known
// lacks is then so because it is compared as written ("1.0" is not "1").
func (c *Classes) ReadAsNames(known *Classes) bool {
	if _, ok := known.values(); ok {
		return false
	}
	_, ok := c.values()
	return ok && c.src != nil
}

// autoHeader returns the values vals of a text label file without the
// first when HeaderAuto reads it as a header (see ReadClassesHeader and,
// for known, the classes the labels must be of, Classes.ReadFor; nil: not
// known), else vals.
func autoHeader(vals []string, known *Classes) []string {
	if known != nil && known.Lookup(vals[0]) >= 0 {
		return vals // a class: a label
	}
	vals = dropNumericHeader(vals)
	if v := dropBinaryHeader(vals); len(v) < len(vals) {
		count := map[string]int{}
		for _, x := range v {
			count[x]++
		}
		if min(count[v[0]], count[otherValue(v)]) >= 2 {
			vals = v
		}
	}
	return vals
}

// otherValue returns the first value of v that differs from v[0].
func otherValue(v []string) string {
	for _, x := range v {
		if x != v[0] {
			return x
		}
	}
	return v[0]
}

// Binary maps the labels to ±1 for a binary fit. With two classes it
// follows ReadLabels (positive names the +1 label; {−1, +1} and {0, 1} need
// none). With more, positive is required and names the class mapped to +1
// against all the others (−1). It returns the labels, the name of the
// positive class and the names of the negative ones.
func (c *Classes) Binary(positive string) (y []float64, pos string, neg []string, err error) {
	if len(c.Names) <= 2 {
		if y, err = binaryLabels(c.file, c.vals, positive); err != nil {
			return nil, "", nil, err
		}
	} else {
		k := c.Lookup(positive)
		if k < 0 {
			return nil, "", nil, errorf(c.file, 0, "positive label %q is not one of the %d labels", positive, len(c.Names))
		}
		y = make([]float64, len(c.Y))
		for i, ci := range c.Y {
			y[i] = -1
			if ci == k {
				y[i] = 1
			}
		}
	}
	for i, v := range y {
		if v > 0 {
			pos = c.Names[c.Y[i]]
			break
		}
	}
	for _, n := range c.Names {
		if n != pos {
			neg = append(neg, n)
		}
	}
	return y, pos, neg, nil
}

// Lookup returns the index of the class named name — compared numerically
// when the labels are numbers (as matchNumber compares them: a float32
// value's two spellings, "0.1" and "0.10000000149011612", name one class),
// else as a trimmed string — or −1. Labels are numbers when every class
// name is one (as ReadClasses writes them): among names, "01" and "1" are
// two classes, and "01" names the first.
func (c *Classes) Lookup(name string) int {
	name = strings.TrimSpace(name)
	if k := slices.Index(c.Names, name); k >= 0 {
		return k
	}
	x, err := number.Parse(name)
	if err != nil || !isFinite(x) {
		return -1
	}
	vals, ok := c.values()
	if !ok {
		return -1
	}
	return matchNumber(vals, x)
}

// matchNumber returns the index in vals of the label value x, or −1: the
// value equal to x, else the one that is the same float32 value as x under
// its other name. A float32 .npy label file names its values by float32's
// shortest form ("0.1"), as it did not before (float64's spelling of the
// same bits, "0.10000000149011612", which models fitted then record and
// scripts pass as --positive); either name reads as the other, and only
// as the other: float32Alias maps each float32 value to a value of its
// own, so distinct float32 values never match. It is the one rule by which
// a label name is matched against class names (Classes.Lookup, ReadLabels's
// positive label).
func matchNumber(vals []float64, x float64) int {
	x += 0 // −0 is the class of 0
	if k := slices.Index(vals, x); k >= 0 {
		return k
	}
	for k, v := range vals {
		if a, ok := float32Alias(v); ok && a == x {
			return k
		}
		if a, ok := float32Alias(x); ok && a == v {
			return k
		}
	}
	return -1
}

// float32Alias returns, for x a float32 value (float64(float32(x)) == x),
// the value of its float32 shortest spelling read as a float64: for the
// float32 nearest 0.1, whose float64 spelling is "0.10000000149011612",
// the float64 0.1. The alias reads back (as a float32) as x, so two float32
// values have two aliases, and it differs from x unless x's two spellings
// agree. ok is false when x is no float32 value.
func float32Alias(x float64) (a float64, ok bool) {
	if float64(float32(x)) != x || !isFinite(x) {
		return 0, false
	}
	a, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', -1, 32), 64)
	return a, err == nil
}

// values returns the class names' values, and whether every name is a
// finite number: the labels were numbers, compared by value.
func (c *Classes) values() ([]float64, bool) {
	vals := make([]float64, len(c.Names))
	for k, n := range c.Names {
		x, err := number.Parse(n)
		if err != nil || !isFinite(x) {
			return nil, false
		}
		vals[k] = x
	}
	return vals, true
}

// CheckLabel returns an error when label, a class label or name, cannot be
// one: when it is not valid UTF-8 (a model file records class names as JSON
// text, which would replace the invalid bytes, so that the file named
// another class, or two classes alike); when it holds a tab or a line break
// (which no label file holds, and which breaks predict's lines and columns:
// a model file edited so printed two lines for one row); or when it reads
// as a number but not as a finite one: NaN, ±Inf in any spelling
// number.Parse takes ("inf", "-Infinity", ...) and NaN with a sign
// ("-nan", as C's printf writes it), or a number beyond float64's range
// ("1e400"). Such a label is neither a number nor a usable name: read as a
// name, "NaN" would make a class beside the numbers (and a prediction that
// reads as NaN). The readers of label files refuse it, naming the line, and
// the readers of model files refuse a class name that is one. The readers
// of label files and of a dataset folder's classes.txt also refuse hidden
// characters (labelrunes.go); CheckLabel does not, since model files and
// sources indexes written before that rule may hold them (a U+200F of a
// Hebrew export, a soft hyphen from a web page) and are still read. Nor
// does it refuse a label with white space at either end (" cat"), which
// the readers of label files trim, quoted or not, and so never give, but
// the API could (a model written so is still read; FormatLabel writes
// such a name as it is, and no label file reads it back).
func CheckLabel(label string) error {
	_, err := checkLabel(label)
	return err
}

// checkLabel is CheckLabel that also reports, of a label it accepts,
// whether the label as written is a number (as isNumber says: a finite
// one, with nothing trimmed around it), so that a label file's labels are
// each parsed once.
func checkLabel(label string) (isNum bool, err error) {
	if !utf8.ValidString(label) {
		return false, fmt.Errorf("label %s is not valid UTF-8: a label is text, which the model file records as JSON", strconv.Quote(label))
	}
	if strings.ContainsAny(label, "\t\n\r") {
		return false, fmt.Errorf("label %s holds a tab or a line break: predict prints one class a line, and class names tab-separated", strconv.Quote(label))
	}
	t := strings.TrimSpace(label)
	x, err := number.Parse(t)
	var problem string
	switch {
	case nanText(t):
		problem = "reads as NaN" // "-nan" as C's printf writes it, which number.Parse does not take
	case errors.Is(err, strconv.ErrRange):
		problem = "is beyond the range of float64"
	case err == nil && !isFinite(x):
		problem = "reads as " + formatFloat(x)
	default:
		// A finite number; as written when nothing was trimmed (number.Parse
		// takes no blank).
		return err == nil && len(t) == len(label), nil
	}
	return false, fmt.Errorf("label %s %s, not a finite number: a label is a finite number or a name that does not read as a number", strconv.Quote(label), problem)
}
