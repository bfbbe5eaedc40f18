package dataset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/greedytl/greedytl/internal/bom"
	"golang.org/x/text/unicode/norm"
)

// This file owns which characters a class label or name may hold, and
// which two labels are one class written two ways (canonicalTwin).
//
// A label read from a label file, or a name of a dataset folder's
// classes.txt or groups.txt, may not hold (CheckLabel, which the readers
// of model files and the API apply, takes them: files written before this
// rule may hold them):
//   - a control character (Unicode's Cc: U+0000–U+001F, U+007F and the C1
//     controls U+0080–U+009F): predict printed it raw, so that an escape
//     ("\x1b[31mred") coloured the terminal and U+0085 broke a line;
//   - a bidirectional control (Bidi_Control: U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069), which reorders the text shown after
//     it, so that inspect showed a name that is not what the file says;
//   - any other format character (Cf) that shows as nothing: U+FEFF (a
//     byte order mark mid-file), U+200B, U+2060, U+00AD (a soft hyphen),
//     U+2061–U+2064, U+206A–U+206F, U+FFF9–U+FFFB, U+E0001: a label
//     holding one looks like another ("\ufeff-1" like "-1").
//
// Format characters that a script or an emoji needs are a label's
// (shownFormat): U+200C and U+200D (zero-width non-joiner and joiner:
// Persian and Indic spelling, emoji sequences such as 👩‍💻), U+180E
// (Mongolian spelling), the prepended concatenation marks (U+0600–U+0605,
// U+06DD, U+070F, U+0890, U+0891, U+08E2, U+110BD, U+110CD: visible signs
// of Arabic, Syriac and Kaithi numbers) and the format characters beyond
// the BMP but U+E0001: the tags U+E0020–U+E007F, which spell the flags of
// England, Scotland and Wales, and the format controls of Egyptian
// hieroglyphs, Duployan shorthand and musical notation.

// invisibleNames names the format characters that show as nothing and
// that a label most often holds by mistake; others are "a format
// character". U+FEFF's message is bom.Inside's.
var invisibleNames = map[rune]string{
	'\ufeff': "a byte order mark",
	'\u200b': "a zero-width space (text copied from a web page may hold one)",
	'\u2060': "a word joiner",
	'\u00ad': "a soft hyphen (text copied from a web page may hold one)",
}

// shownFormat reports whether r, a format character (Cf), is one a label
// may hold: one that a script or an emoji sequence needs (see above).
func shownFormat(r rune) bool {
	switch {
	case r == '\u200c', r == '\u200d', r == '\u180e':
		return true
	case unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return true
	default:
		return r > 0xffff && r != 0xe0001
	}
}

// hiddenKind says what r is when a label may not hold it, with whether it
// shows as nothing (a format character: the label looks like itself
// without it); it returns "" for a rune a label may hold.
func hiddenKind(r rune) (what string, invisible bool) {
	switch {
	case r == '\t':
		return "a tab, which predict prints between columns", false
	case r == '\x1b':
		return "an escape, which starts a command to the terminal that shows it", false
	case unicode.IsControl(r): // Cc: C0, DEL, C1
		return "a control character, which a terminal shows as nothing or takes as a command", false
	case unicode.Is(unicode.Bidi_Control, r):
		return "a bidirectional control, which reorders the text shown after it", false
	case !unicode.Is(unicode.Cf, r) || shownFormat(r):
		return "", false
	}
	if name, ok := invisibleNames[r]; ok {
		return name, true
	}
	return "a format character", true
}

// hiddenRune returns the first rune of v that a label may not hold
// (hiddenKind), or −1.
func hiddenRune(v string) rune {
	for k := 0; k < len(v); k++ {
		b := v[k]
		if b >= 0x20 && b < 0x7f {
			continue // printable ASCII: most labels, rune by rune without decoding
		}
		r, size := utf8.DecodeRuneInString(v[k:])
		if what, _ := hiddenKind(r); what != "" {
			return r
		}
		k += size - 1
	}
	return -1
}

// hiddenError returns the error of a label or name v (what: "label",
// "class name", ...) holding a rune it may not hold (hiddenKind), or nil.
// One that shows as nothing is said to make v look like v without it.
func hiddenError(what, v string) error {
	r := hiddenRune(v)
	if r < 0 {
		return nil
	}
	kind, invisible := hiddenKind(r)
	if !invisible {
		return fmt.Errorf("%s %s holds U+%04X, %s; remove it", what, strconv.Quote(v), r, kind)
	}
	looks := strconv.Quote(strings.Map(func(r rune) rune {
		if _, invisible := hiddenKind(r); invisible {
			return -1
		}
		return r
	}, v))
	if r == '\ufeff' {
		return fmt.Errorf("%s %s looks like %s: %s", what, strconv.Quote(v), looks, bom.Inside)
	}
	return fmt.Errorf("%s %s looks like %s: it holds U+%04X, %s, which shows as nothing; remove it", what, strconv.Quote(v), looks, r, kind)
}

// canonicalTwin returns the indices i < j of the first label of vals, in
// order, that is canonically equivalent to an earlier one, vals[i], but
// written with other code points ("café" as U+00E9 and as e then U+0301:
// equal in Unicode's NFC), or ok false. Such labels print alike and were
// two classes; they are refused, not normalised, since a model's class
// names are as the user wrote them.
func canonicalTwin(vals []string) (i, j int, ok bool) {
	if !slices.ContainsFunc(vals, notASCII) {
		return 0, 0, false // the usual case: no map, no normalising
	}
	first := make(map[string]int) // NFC form → index of its first label
	for j, v := range vals {
		key := v
		if notASCII(v) {
			key = norm.NFC.String(v)
		}
		if i, dup := first[key]; dup {
			if vals[i] != v {
				return i, j, true
			}
			continue // the same label again
		}
		first[key] = j
	}
	return 0, 0, false
}

// notASCII reports whether v holds a byte beyond ASCII: an ASCII string is
// its own NFC form.
func notASCII(v string) bool {
	for k := 0; k < len(v); k++ {
		if v[k] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// twinError returns the error of v (what: "label", "class name") that is
// canonically equivalent to earlier, written at where ("line 2"): both are
// quoted in ASCII, since as text they print alike.
func twinError(what, v, earlier, where string) error {
	return fmt.Errorf("%s %s is %s of %s written with other code points (the two are canonically equivalent: they print alike, and would be two classes): write them alike (Python: unicodedata.normalize(\"NFC\", s))", what, strconv.QuoteToASCII(v), strconv.QuoteToASCII(earlier), where)
}
