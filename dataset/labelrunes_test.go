package dataset

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestHiddenLabels: a label holding a control character (an escape that
// coloured the terminal predict printed to, DEL, a C1 control) or a
// bidirectional control (which made inspect show a name other than the
// file's), or a format character that shows as nothing, is refused at its
// line by every reader of label files, naming the character; the
// characters scripts and emoji need are a label's.
func TestHiddenLabels(t *testing.T) {
	for content, want := range map[string]string{
		"cat\ndog\n\x1b[31mred\n":       `3: label "\x1b[31mred" holds U+001B, an escape, which starts a command to the terminal that shows it; remove it`,
		"cat\ndog\nca\x7ft\n":           `3: label "ca\x7ft" holds U+007F, a control character, which a terminal shows as nothing or takes as a command; remove it`,
		"cat\ndog\nca\u0085t\n":         `3: label "ca\u0085t" holds U+0085, a control character, which a terminal shows as nothing or takes as a command; remove it`,
		"cat\ndog\nca\at\n":             `3: label "ca\at" holds U+0007, a control character, which a terminal shows as nothing or takes as a command; remove it`,
		"cat\n\u202egod\ndog\n":         `2: label "\u202egod" holds U+202E, a bidirectional control, which reorders the text shown after it; remove it`,
		"cat,\u2066dog\u2069,dog\n":     `1: column 2: label "\u2066dog\u2069" holds U+2066, a bidirectional control, which reorders the text shown after it; remove it`,
		"cat\ndog\u200e\ncat\n":         `2: label "dog\u200e" holds U+200E, a bidirectional control, which reorders the text shown after it; remove it`,
		"cat\ndog\n\u061c1\n":           `3: label "\u061c1" holds U+061C, a bidirectional control, which reorders the text shown after it; remove it`,
		"cat\ndog\nca\u00adt\n":         `3: label "ca\u00adt" looks like "cat": it holds U+00AD, a soft hyphen (text copied from a web page may hold one), which shows as nothing; remove it`,
		"cat\ndog\nca\u2063t\n":         `3: label "ca\u2063t" looks like "cat": it holds U+2063, a format character, which shows as nothing; remove it`,
		"cat\ndog\n\"ca\U000e0001t\"\n": `3: label "ca\U000e0001t" looks like "cat": it holds U+E0001, a format character, which shows as nothing; remove it`,
	} {
		checkLabelReaders(t, content, "cat", want)
	}
	for _, content := range []string{
		"\u2764\u200d\U0001f525\ncat\n",                                                 // ZWJ: an emoji sequence
		"\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645\ncat\n",                       // ZWNJ: Persian
		"\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f\ncat\n", // tags: England's flag
		"\u0600\u0661\u0662\ncat\n",                                                     // an Arabic number sign, visible
		"\u1822\u180e\u1820\ncat\n",                                                     // the Mongolian vowel separator
		"caf\u00e9\ncat\n",
	} {
		if c, err := ReadClasses(writeFile(t, "y.txt", []byte(content))); err != nil || len(c.Names) != 2 {
			t.Errorf("%q: %v, %v", content, c, err)
		}
	}
}

// TestCheckLabelHidden: CheckLabel, which the readers of model files apply
// to their class names, takes the hidden characters the readers of label
// files refuse (TestHiddenLabels): model files written before that rule
// may hold them (a U+200F of a Hebrew export), and are still read.
func TestCheckLabelHidden(t *testing.T) {
	for _, v := range []string{"\x1b[31mred", "dog\u202e", "\u200bcat", "Ge\u00adwicht", "\u05d0\u05d1\u200f", "cat", "caf\u00e9", "\u2764\u200d\U0001f525", "a b"} {
		if err := CheckLabel(v); err != nil {
			t.Errorf("CheckLabel(%q): %v", v, err)
		}
	}
}

// TestLoadFolderHiddenNames: classes.txt and groups.txt refuse a name
// holding a character a label may not hold, at its line.
func TestLoadFolderHiddenNames(t *testing.T) {
	for _, tt := range []struct {
		file, content, want string
	}{
		{"classes.txt", "cup\n\x1b[31mduck\ncar\n", `classes.txt:2: class name "\x1b[31mduck" holds U+001B, an escape, which starts a command to the terminal that shows it; remove it`},
		{"classes.txt", "cup\nduck\nc\u202era\n", `classes.txt:3: class name "c\u202era" holds U+202E, a bidirectional control, which reorders the text shown after it; remove it`},
		{"classes.txt", "cup\ndu\u0085ck\ncar\n", `classes.txt:2: class name "du\u0085ck" holds U+0085, a control character, which a terminal shows as nothing or takes as a command; remove it`},
		{"classes.txt", "cup\nduck\nc\tar\n", `classes.txt:3: class name "c\tar" holds U+0009, a tab, which predict prints between columns; remove it`},
		{"groups.txt", "kitchen\ntoy\n\u200btoy\n", `groups.txt:3: group name "\u200btoy" looks like "toy": it holds U+200B, a zero-width space (text copied from a web page may hold one), which shows as nothing; remove it`},
	} {
		files := folderFiles(t)
		files[tt.file] = []byte(tt.content)
		dir := writeFolder(t, files)
		f, err := LoadFolder(dir)
		checkError(t, f, err, dir+"/"+tt.want)
	}
}

// TestHiddenKindSet: the runes a label may not hold are exactly Cc, the
// bidirectional controls and the format characters (Cf) but those named in
// labelrunes.go as needed by a script or an emoji.
func TestHiddenKindSet(t *testing.T) {
	shown := func(r rune) bool {
		switch {
		case r == 0x200c, r == 0x200d, r == 0x180e:
		case r >= 0x0600 && r <= 0x0605, r == 0x06dd, r == 0x070f, r == 0x0890, r == 0x0891, r == 0x08e2, r == 0x110bd, r == 0x110cd:
		case r > 0xffff && r != 0xe0001:
		default:
			return false
		}
		return true
	}
	var refusedCf []string
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Bidi_Control, r) || unicode.Is(unicode.Cf, r) && !shown(r)
		if what, _ := hiddenKind(r); (what != "") != want {
			t.Errorf("%U: refused %v, want %v", r, what != "", want)
		}
		if want && unicode.Is(unicode.Cf, r) && !unicode.Is(unicode.Bidi_Control, r) {
			refusedCf = append(refusedCf, string(r))
		}
	}
	// The format characters refused as showing nothing, as the package
	// comment lists them.
	const listed = "\u00ad\u200b\u2060\u2061\u2062\u2063\u2064\u206a\u206b\u206c\u206d\u206e\u206f\ufeff\ufff9\ufffa\ufffb\U000e0001"
	if got := strings.Join(refusedCf, ""); got != listed {
		t.Errorf("refused format characters %+q, want %+q", got, listed)
	}
}

// TestCanonicalTwinLabels: two labels that are one text written with
// other code points ("café" precomposed, U+00E9, and as e then U+0301;
// the Kelvin sign U+212A and K) printed alike and were two classes; every
// reader of label files, and classes.txt, refuses the second at its place,
// naming the first's, and neither is normalised: labels written alike
// are read as written.
func TestCanonicalTwinLabels(t *testing.T) {
	const why = ` written with other code points (the two are canonically equivalent: they print alike, and would be two classes): write them alike (Python: unicodedata.normalize("NFC", s))`
	for content, want := range map[string]string{
		"caf\u00e9\ntea\ncaf\u00e9\ncafe\u0301\n":       `4: label "cafe\u0301" is "caf\u00e9" of line 1` + why,
		"tea\ncafe\u0301\ntea\ncaf\u00e9\n":             `4: label "caf\u00e9" is "cafe\u0301" of line 2` + why,
		"K,\u212a,K\n":                                  `1: column 2: label "\u212a" is "K" of column 1` + why,
		"y\n\u00c5ngstr\u00f6m\nA\u030angstro\u0308m\n": `3: label "A\u030angstro\u0308m" is "\u00c5ngstr\u00f6m" of line 2` + why,
	} {
		checkLabelReaders(t, content, "tea", want)
	}
	for _, content := range []string{"cafe\u0301\ntea\ncafe\u0301\n", "caf\u00e9\ncafe\n", "\u00c5\nA\n"} {
		c, err := ReadClasses(writeFile(t, "y.txt", []byte(content)))
		if err != nil || len(c.Names) != 2 || !slices.Contains(c.Names, content[:strings.IndexByte(content, '\n')]) {
			t.Errorf("%q: %v, %v", content, c, err)
		}
	}
	for _, tt := range []struct{ content, want string }{
		{"caf\u00e9\nduck\ncafe\u0301\n", `classes.txt:3: class name "cafe\u0301" is "caf\u00e9" of line 1` + why},
		{"\u212a\nduck\nK\n", `classes.txt:3: class name "K" is "\u212a" of line 1` + why},
	} {
		files := folderFiles(t)
		files["classes.txt"] = []byte(tt.content)
		dir := writeFolder(t, files)
		f, err := LoadFolder(dir)
		checkError(t, f, err, dir+"/"+tt.want)
	}
}

// checkLabelReaders checks that ReadClassesHeader (no header),
// ReadLabels (positive naming the positive class) and ReadLabelValues
// refuse the label file content with the error want, after the file's
// path and a colon.
func checkLabelReaders(t *testing.T, content, positive, want string) {
	t.Helper()
	path := writeFile(t, "y.txt", []byte(content))
	c, err := ReadClassesHeader(path, HeaderNo)
	checkError(t, c, err, path+":"+want)
	y, err := ReadLabels(path, positive)
	checkError(t, y, err, path+":"+want)
	v, err := ReadLabelValues(path)
	checkError(t, v, err, path+":"+want)
}
