package dataset

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReadClassesHeader: HeaderNo reads every value as a label and
// HeaderYes always drops the first, where HeaderAuto guesses; .npy files
// have no header whatever h says.
func TestReadClassesHeader(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text  string
		h     HeaderRule
		names []string
		y     []int
	}{
		// Auto reads a single first value above two classes as a header.
		{"owl\ncat\ncat\ndog\ndog\n", HeaderAuto, []string{"cat", "dog"}, []int{0, 0, 1, 1}},
		{"owl\ncat\ncat\ndog\ndog\n", HeaderNo, []string{"cat", "dog", "owl"}, []int{2, 0, 0, 1, 1}},
		{"label\n3\n1\n2\n", HeaderNo, []string{"1", "2", "3", "label"}, []int{3, 2, 0, 1}},
		{"label\n3\n1\n2\n", HeaderYes, []string{"1", "2", "3"}, []int{2, 0, 1}},
		// Yes drops a first value that Auto keeps as a label.
		{"y\ncat\ndog\ny\n", HeaderYes, []string{"cat", "dog", "y"}, []int{0, 1, 2}},
		{"y\ncat\ndog\ny\n", HeaderAuto, []string{"cat", "dog", "y"}, []int{2, 0, 1, 2}},
		{"7\n1\n2\n", HeaderYes, []string{"1", "2"}, []int{0, 1}},
	} {
		p := filepath.Join(dir, "y.txt")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadClassesHeader(p, tc.h)
		if err != nil {
			t.Fatalf("%q, %v: %v", tc.text, tc.h, err)
		}
		if !slices.Equal(c.Names, tc.names) || !slices.Equal(c.Y, tc.y) {
			t.Errorf("%q, %v: names %v, y %v; want %v, %v", tc.text, tc.h, c.Names, c.Y, tc.names, tc.y)
		}
		// Header reports the first value exactly when it was dropped.
		first := tc.text[:bytes.IndexByte([]byte(tc.text), '\n')]
		if h, ok := c.Header(); ok != (len(c.Y) < strings.Count(tc.text, "\n")) || (ok && h != first) {
			t.Errorf("%q, %v: Header() = %q, %v", tc.text, tc.h, h, ok)
		}
	}
	p := filepath.Join(dir, "one.txt")
	if err := os.WriteFile(p, []byte("label\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadClassesHeader(p, HeaderYes); err == nil || err.Error() != p+": no labels below the header" {
		t.Errorf("a header alone: %v, want %q", err, p+": no labels below the header")
	}
	np := filepath.Join(dir, "y.npy")
	var buf bytes.Buffer
	if err := WriteNPYInts(&buf, []int{3, 1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(np, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadClassesHeader(np, HeaderYes)
	if err != nil || !slices.Equal(c.Y, []int{2, 0, 1}) {
		t.Errorf(".npy with HeaderYes: %v, %v; want every value read", c, err)
	}
	if h, ok := c.Header(); ok {
		t.Errorf(".npy: Header() = %q, true; want none", h)
	}
	for s, want := range map[string]HeaderRule{"auto": HeaderAuto, "yes": HeaderYes, "no": HeaderNo} {
		if h, err := ParseHeaderRule(s); err != nil || h != want {
			t.Errorf("ParseHeaderRule(%q) = %v, %v", s, h, err)
		}
	}
	if _, err := ParseHeaderRule("true"); err == nil {
		t.Error("ParseHeaderRule(\"true\"): no error")
	}
}

// TestReadClasses reads labels of several classes: numbers in numeric
// order (in their shortest form), names sorted, a header above numbers
// dropped; Binary maps one class against the rest, or two classes as
// ReadLabels does.
func TestReadClasses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text  string
		names []string
		y     []int
	}{
		{"10\n2\n2.0\n-1\n", []string{"-1", "2", "10"}, []int{2, 1, 1, 0}},
		{"owl\ncat\ndog\ncat\n", []string{"cat", "dog", "owl"}, []int{2, 0, 1, 0}},
		{"owl\ncat\ndog\n", []string{"cat", "dog", "owl"}, []int{2, 0, 1}},
		{"label\ncat\ndog\ncat\ndog\n", []string{"cat", "dog"}, []int{0, 1, 0, 1}},
		{"label\n3\n1\n2\n", []string{"1", "2", "3"}, []int{2, 0, 1}},
		{"a,b,c,a\n", []string{"a", "b", "c"}, []int{0, 1, 2, 0}},
		// Classic Mac OS line ends (Excel's "CSV (Macintosh)"), and mixed.
		{"owl\rcat\rdog\rcat\r", []string{"cat", "dog", "owl"}, []int{2, 0, 1, 0}},
		{"owl\r\ncat\rdog\ncat", []string{"cat", "dog", "owl"}, []int{2, 0, 1, 0}},
	} {
		p := filepath.Join(dir, "y.txt")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadClasses(p)
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if !slices.Equal(c.Names, tc.names) || !slices.Equal(c.Y, tc.y) {
			t.Errorf("%q: names %v, y %v; want %v, %v", tc.text, c.Names, c.Y, tc.names, tc.y)
		}
	}
	p := filepath.Join(dir, "y.txt")
	if err := os.WriteFile(p, []byte("1\n2\n3\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadClasses(p)
	if err != nil {
		t.Fatal(err)
	}
	y, pos, neg, err := c.Binary("2.0")
	if err != nil || !slices.Equal(y, []float64{-1, 1, -1, 1}) || pos != "2" || !slices.Equal(neg, []string{"1", "3"}) {
		t.Errorf("Binary(2.0) = %v, %q, %v, %v", y, pos, neg, err)
	}
	if _, _, _, err := c.Binary(""); err == nil {
		t.Error("Binary without a positive label over three classes: no error")
	}
	if _, _, _, err := c.Binary("7"); err == nil {
		t.Error("Binary with an unknown positive label: no error")
	}
	if err := os.WriteFile(p, []byte("0\n1\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ = ReadClasses(p)
	if y, pos, neg, err := c.Binary(""); err != nil || !slices.Equal(y, []float64{-1, 1, 1}) || pos != "1" || !slices.Equal(neg, []string{"0"}) {
		t.Errorf("Binary of {0, 1} = %v, %q, %v, %v", y, pos, neg, err)
	}
}

// TestClassesLookup: numeric labels are looked up by value; among names
// (labels not all numbers) a name is itself, so "01" is not "1" (--positive
// 01 fitted the class "1" of a file of 01, 1 and cat).
func TestClassesLookup(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text  string
		names []string
		look  map[string]int
	}{
		{"2\n1\n10\n2\n", []string{"1", "2", "10"}, map[string]int{"1": 0, "1.0": 0, "+1": 0, "01": 0, " 2 ": 1, "1e1": 2, "3": -1, "NaN": -1, "inf": -1, "x": -1}},
		{"01\n1\ncat\n01\n", []string{"01", "1", "cat"}, map[string]int{"01": 0, "1": 1, " 1": 1, "1.0": -1, "+1": -1, "cat": 2, "Cat": -1}},
	} {
		p := filepath.Join(dir, "y.txt")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadClasses(p)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.Names, tc.names) {
			t.Fatalf("%q: names %q, want %q", tc.text, c.Names, tc.names)
		}
		for name, want := range tc.look {
			if got := c.Lookup(name); got != want {
				t.Errorf("%q: Lookup(%q) = %d, want %d", tc.text, name, got, want)
			}
		}
		// Binary(positive) against the rest picks the class Lookup names.
		for name, k := range tc.look {
			if k < 0 {
				continue
			}
			if _, pos, _, err := c.Binary(name); err != nil || pos != tc.names[k] {
				t.Errorf("%q: Binary(%q) positive %q (%v), want %q", tc.text, name, pos, err, tc.names[k])
			}
		}
	}
}

// TestDecodeClassesHeader: the content of a label file, read from a
// reader, gives what ReadClassesHeader gives for the file — text with and
// without a header, .npy (told apart by its magic bytes alone), either
// gzip-compressed —, and its errors name the reader as told.
// TestClassesErrorOf: the error about a class names the file and where the
// class's first label was read, counting the header and skipped lines.
func TestClassesErrorOf(t *testing.T) {
	dir := t.TempDir()
	problem := errors.New("not known")
	for _, tc := range []struct {
		name    string
		content []byte
		class   string
		want    string // with %s for the path
	}{
		{"one a line", []byte("cat\ndog\ncat\n\n# a comment\nbird\ndog\nbird\n"), "bird", "%s:6: not known"},
		{"header", []byte("label\n1\n2\n2\n7\n1\n"), "7", "%s:5: not known"},
		{"one line", []byte("# labels\ncat,dog,bird,cat,dog\n"), "bird", "%s:2: column 3: not known"},
		{"npy", npyFile(1, dict("<i8", false, "(4,)"), encode(le, []int64{1, -1, 3, 3})), "3", "%s: row 2: not known"},
	} {
		p := filepath.Join(dir, "y")
		if err := os.WriteFile(p, tc.content, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadClasses(p)
		if err != nil {
			t.Fatal(err)
		}
		k := c.Lookup(tc.class)
		got := c.ErrorOf(k, problem)
		var e *Error
		if want := strings.ReplaceAll(tc.want, "%s", p); got.Error() != want || !errors.As(got, &e) || !errors.Is(got, problem) {
			t.Errorf("%s: %v, want %q wrapping the problem", tc.name, got, want)
		}
	}
}

func TestDecodeClassesHeader(t *testing.T) {
	dir := t.TempDir()
	var npy bytes.Buffer
	if err := WriteNPYInts(&npy, []int{3, 1, 2, 1}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		content []byte
		h       HeaderRule
	}{
		{"y.txt", []byte("owl\ncat\ncat\ndog\ndog\n"), HeaderAuto},
		{"y.txt", []byte("owl\ncat\ncat\ndog\ndog\n"), HeaderNo},
		{"y.csv", []byte("label\n3\n1\n2\n"), HeaderYes},
		{"y.csv", []byte("a,b,c,a\n"), HeaderAuto},
		{"y.npy", npy.Bytes(), HeaderYes},
		{"y.txt.gz", gzipped([]byte("1\n-1\n-1\n1\n")), HeaderAuto},
		{"y.npy.gz", gzipped(npy.Bytes()), HeaderAuto},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.content, 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := ReadClassesHeader(p, tc.h)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := DecodeClassesHeader(bytes.NewReader(tc.content), "<stdin>", tc.h)
		if err != nil {
			t.Fatalf("%s from a reader: %v", tc.name, err)
		}
		wh, wok := want.Header()
		gh, gok := got.Header()
		if !slices.Equal(got.Names, want.Names) || !slices.Equal(got.Y, want.Y) || gh != wh || gok != wok {
			t.Errorf("%s from a reader: names %v, y %v, header %q %v; the file gives %v, %v, %q %v", tc.name, got.Names, got.Y, gh, gok, want.Names, want.Y, wh, wok)
		}
	}
	for _, tc := range []struct{ content, want string }{
		{"", "<stdin>: no labels"},
		{"label\n", "<stdin>: no labels below the header"},
		{"1\nNaN\n", "<stdin>:2: "},
	} {
		h := HeaderAuto
		if tc.content == "label\n" {
			h = HeaderYes
		}
		if _, err := DecodeClassesHeader(strings.NewReader(tc.content), "<stdin>", h); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one starting %q", tc.content, err, tc.want)
		}
	}
}

// TestFloat32LabelNames: the classes of a float32 .npy label file are
// named by float32's shortest form ("0.1", not float64's
// "0.10000000149011612" of the same bits), which the user's --positive
// 0.1 matches; a float64 file keeps float64's; and distinct float32 values,
// neighbours included, never share a name, each name reading back as its
// value.
func TestFloat32LabelNames(t *testing.T) {
	f4 := writeFile(t, "y4.npy", npyFile(1, dict("<f4", false, "(4,)"), encode(le, float32(0.1), float32(0.2), float32(0.1), float32(0.2))))
	c, err := ReadClasses(f4)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0.1", "0.2"}; !slices.Equal(c.Names, want) {
		t.Errorf("float32 classes %q, want %q", c.Names, want)
	}
	if y, pos, _, err := c.Binary("0.1"); err != nil || pos != "0.1" || !slices.Equal(y, []float64{1, -1, 1, -1}) {
		t.Errorf("Binary(0.1) = %v, %q, %v", y, pos, err)
	}
	if y, err := ReadLabels(f4, "0.1"); err != nil || !slices.Equal(y, []float64{1, -1, 1, -1}) {
		t.Errorf("ReadLabels(--positive 0.1) = %v, %v", y, err)
	}
	f8 := writeFile(t, "y8.npy", npyFile(1, dict("<f8", false, "(2,)"), encode(le, float64(float32(0.1)), 0.2)))
	if c, err := ReadClasses(f8); err != nil || !slices.Equal(c.Names, []string{"0.10000000149011612", "0.2"}) {
		t.Errorf("float64 classes %q, %v", c.Names, err)
	}

	rnd := rand.New(rand.NewPCG(4, 4))
	var vals []float32
	for len(vals) < 2000 {
		v := math.Float32frombits(rnd.Uint32())
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			continue
		}
		vals = append(vals, v, math.Nextafter32(v, float32(math.Inf(1))), math.Nextafter32(v, float32(math.Inf(-1))))
	}
	vals = append(vals, 0.1, 16777216, 16777217, math.MaxFloat32, math.SmallestNonzeroFloat32, 1e-45, 3.4028235e38)
	var b bytes.Buffer
	if err := WriteNPYHeader(&b, "<f4", []int{len(vals)}); err != nil {
		t.Fatal(err)
	}
	for _, v := range vals {
		b.Write(encode(le, v))
	}
	got, err := ReadLabelValues(writeFile(t, "many.npy", b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	name := map[float32]string{}
	value := map[string]float32{}
	for i, s := range got {
		v := vals[i] + 0 // −0 and 0 are one class
		x, err := strconv.ParseFloat(s, 32)
		if err != nil || float32(x) != v {
			t.Fatalf("%v is named %q, which reads as float32 %v, %v", vals[i], s, float32(x), err)
		}
		if w, ok := value[s]; ok && w != v {
			t.Fatalf("%v and %v are both named %q", w, v, s)
		}
		name[v], value[s] = s, v
	}
	c, err = ReadClasses(writeFile(t, "many.npy", b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Names) != len(name) {
		t.Errorf("%d classes of %d distinct float32 values", len(c.Names), len(name))
	}
}

// TestFloat32LabelOldNames: a float32 value's float64 spelling
// ("0.10000000149011612", its class name before float32 .npy files were
// named by float32's shortest form, which models fitted then record and
// scripts pass as --positive) names the same class as its float32 name,
// either way round — Lookup, Binary and ReadLabels's positive label — and
// a name matches a class exactly when both are one float32 value: for
// random float32 values and their neighbours, in every pair of spellings.
func TestFloat32LabelOldNames(t *testing.T) {
	old1, old2 := strconv.FormatFloat(float64(float32(0.1)), 'g', -1, 64), strconv.FormatFloat(float64(float32(0.2)), 'g', -1, 64)
	f4 := writeFile(t, "y4.npy", npyFile(1, dict("<f4", false, "(4,)"), encode(le, float32(0.1), float32(0.2), float32(0.1), float32(0.2))))
	c, err := ReadClasses(f4)
	if err != nil {
		t.Fatal(err)
	}
	if k1, k2 := c.Lookup(old1), c.Lookup(old2); k1 != 0 || k2 != 1 {
		t.Errorf("Lookup(%s), Lookup(%s) = %d, %d; want 0, 1", old1, old2, k1, k2)
	}
	if y, pos, _, err := c.Binary(old1); err != nil || pos != "0.1" || !slices.Equal(y, []float64{1, -1, 1, -1}) {
		t.Errorf("Binary(%s) = %v, %q, %v", old1, y, pos, err)
	}
	if y, err := ReadLabels(f4, old2); err != nil || !slices.Equal(y, []float64{-1, 1, -1, 1}) {
		t.Errorf("ReadLabels(--positive %s) = %v, %v", old2, y, err)
	}
	recorded := &Classes{Names: []string{old1, old2}} // a model's names, written before
	if k1, k2 := recorded.Lookup("0.1"), recorded.Lookup("0.2"); k1 != 0 || k2 != 1 {
		t.Errorf("recorded old names: Lookup(0.1), Lookup(0.2) = %d, %d; want 0, 1", k1, k2)
	}
	// A float64 file holding both values keeps them two classes, each
	// found by its own name.
	both := &Classes{Names: []string{"0.1", old1}}
	if k1, k2 := both.Lookup("0.1"), both.Lookup(old1); k1 != 0 || k2 != 1 {
		t.Errorf("classes 0.1 and %s: Lookup = %d, %d; want 0, 1", old1, k1, k2)
	}

	rnd := rand.New(rand.NewPCG(5, 5))
	var vals []float32
	for len(vals) < 3000 {
		v := math.Float32frombits(rnd.Uint32())
		if rnd.IntN(2) == 0 { // labels people use: short decimals
			v = float32(float64(rnd.IntN(2000)-1000) / 100)
		}
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			continue
		}
		vals = append(vals, v, math.Nextafter32(v, float32(math.Inf(1))), math.Nextafter32(v, float32(math.Inf(-1))))
	}
	spell := func(v float32) []string {
		return []string{strconv.FormatFloat(float64(v), 'g', -1, 32), strconv.FormatFloat(float64(v), 'g', -1, 64)}
	}
	for i := 0; i+1 < len(vals); i++ {
		a, b := vals[i], vals[i+1]
		if i%3 == 2 {
			b = vals[i-2] // the lower neighbour against the value
		}
		for _, b := range []float32{b, a} { // a neighbour, and a itself
			for _, sa := range spell(a) {
				for _, sb := range spell(b) {
					got := (&Classes{Names: []string{sa}}).Lookup(sb) == 0
					if want := a+0 == b+0; got != want {
						t.Fatalf("class %q, name %q (float32 %v and %v): matched %v, want %v", sa, sb, a, b, got, want)
					}
				}
			}
		}
	}
}

// TestClassesAs: labels all numbers are read anew as names (ReadAsNames)
// only against classes that are names, and only when read from a file;
// against numeric classes, or built without the labels as read, As
// returns them as they are.
func TestClassesAs(t *testing.T) {
	dir := t.TempDir()
	read := func(name, text string) *Classes {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadClasses(p)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := read("y.txt", "01\n1\n2\n")
	if !slices.Equal(c.Names, []string{"1", "2"}) {
		t.Fatalf("names %q, want 1, 2 (01 and 1 one number)", c.Names)
	}
	numeric := &Classes{Names: []string{"1", "2"}}
	names := &Classes{Names: []string{"1", "2", "cat"}}
	if c.ReadAsNames(numeric) || c.As(numeric) != c {
		t.Errorf("against numeric classes: ReadAsNames %v, As a new Classes; want c itself", c.ReadAsNames(numeric))
	}
	if !c.ReadAsNames(names) {
		t.Error("against classes that are names: ReadAsNames false, want true")
	}
	if n := c.As(names); !slices.Equal(n.Names, []string{"01", "1", "2"}) || !slices.Equal(n.Y, []int{0, 1, 2}) {
		t.Errorf("against classes that are names: %q %v, want 01, 1, 2 as written", n.Names, n.Y)
	}
	// Built by a caller, without the labels as read: nothing to read anew.
	built := &Classes{Names: []string{"1", "2"}, Y: []int{0, 1, 0}}
	if built.ReadAsNames(names) || built.As(names) != built {
		t.Error("classes without their labels as read were read anew")
	}
	// Built from names alone (no labels, as a model's classes): the same.
	alone := &Classes{Names: []string{"1", "2"}}
	if alone.ReadAsNames(names) || alone.As(names) != alone {
		t.Error("classes built from names alone were read anew")
	}
	// Labels not all numbers are names already.
	d := read("z.txt", "1\ndog\n")
	if d.ReadAsNames(names) || d.As(names) != d {
		t.Error("labels that are names were read anew")
	}
}

// TestClassesReadFor: a first line read by HeaderAuto is read again by the
// classes the labels must be of (a model's): one of them is a label (a
// test file, or predict's output, whose one "fish" comes first above two
// classes of two or more labels was read as a header above them, and
// --labels refused it: 4 labels for 5 rows); otherwise the file decides,
// as before (a name that is none of them is not a header for that alone:
// a misspelt label is refused at its line), and HeaderYes, HeaderNo and
// .npy files are not read again.
func TestClassesReadFor(t *testing.T) {
	model := &Classes{Names: []string{"bird", "cat", "dog", "fish"}}
	numeric := &Classes{Names: []string{"1", "2", "3"}}
	for _, tc := range []struct {
		text   string
		h      HeaderRule
		known  *Classes
		labels []string // in file order, as As(known) names them
		header string   // "-": none
	}{
		{"fish\ncat\ncat\ndog\ndog\n", HeaderAuto, model, []string{"fish", "cat", "cat", "dog", "dog"}, "-"},
		{"fish\ncat\ncat\ncat\ncat\ndog\ndog\ndog\ndog\n", HeaderAuto, model, []string{"fish", "cat", "cat", "cat", "cat", "dog", "dog", "dog", "dog"}, "-"},
		{"\"fish\"\n\"cat\"\n\"cat\"\n\"dog\"\n\"dog\"\n", HeaderAuto, model, []string{"fish", "cat", "cat", "dog", "dog"}, "-"},
		// No class: the file decides, a header above two classes and
		// above numbers, a label (a misspelt one?) above three.
		{"species\ncat\ncat\ndog\ndog\n", HeaderAuto, model, []string{"cat", "cat", "dog", "dog"}, "species"},
		{"\"\"\ncat\ncat\ndog\ndog\n", HeaderAuto, model, []string{"cat", "cat", "dog", "dog"}, ""},
		{"label\n1\n2\n3\n", HeaderAuto, numeric, []string{"1", "2", "3"}, "label"},
		{"fsh\ncat\ndog\nfish\n", HeaderAuto, model, []string{"fsh", "cat", "dog", "fish"}, "-"},
		// Numbers compared by value: "2.0" is the class 2, a label.
		{"2.0\n1\n1\n3\n3\n", HeaderAuto, numeric, []string{"2", "1", "1", "3", "3"}, "-"},
		// A number that is no class stays a label, as auto reads one.
		{"0\n1\n2\n", HeaderAuto, numeric, []string{"0", "1", "2"}, "-"},
		// Among labels that are not all classes the file decides, as
		// before: the unknown labels are the caller's error to report.
		{"owl\ncat\ncow\ndog\n", HeaderAuto, model, []string{"owl", "cat", "cow", "dog"}, "-"},
		{"owl\ncat\ncat\ncow\ncow\n", HeaderAuto, model, []string{"cat", "cat", "cow", "cow"}, "owl"},
		// The rule given is kept.
		{"fish\ncat\ncat\ndog\ndog\n", HeaderYes, model, []string{"cat", "cat", "dog", "dog"}, "fish"},
		{"species\ncat\ndog\nfish\n", HeaderNo, model, []string{"species", "cat", "dog", "fish"}, "-"},
	} {
		c, err := DecodeClassesHeader(strings.NewReader(tc.text), "y.txt", tc.h)
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		r, err := c.ReadFor(tc.known)
		if err != nil {
			t.Fatalf("%q: ReadFor: %v", tc.text, err)
		}
		as := r.As(tc.known)
		got := make([]string, len(as.Y))
		for i, k := range as.Y {
			got[i] = as.Names[k]
		}
		h, ok := r.Header()
		if !ok {
			h = "-"
		}
		if !slices.Equal(got, tc.labels) || h != tc.header {
			t.Errorf("%q, %v: labels %q, header %q; want %q, %q", tc.text, tc.h, got, h, tc.labels, tc.header)
		}
		if (len(r.Y) == len(c.Y)) != (r == c) {
			t.Errorf("%q: ReadFor returned a new Classes (%v) though the first value reads as before, or c itself though it does not", tc.text, r != c)
		}
	}
	// A .npy file has no header: c itself.
	var buf bytes.Buffer
	if err := WriteNPYInts(&buf, []int{3, 1, 1, 2, 2}); err != nil {
		t.Fatal(err)
	}
	c, err := DecodeClassesHeader(&buf, "y.npy", HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := c.ReadFor(numeric); r != c || err != nil {
		t.Errorf(".npy: ReadFor = %v, %v; want c itself", r, err)
	}
}
