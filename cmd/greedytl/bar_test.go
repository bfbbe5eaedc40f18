package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/schollz/progressbar/v3"
)

// TestBarIsASCIIOutsideUTF8: the progress bars drew "█" whatever the
// locale, which a terminal of the C or POSIX locale, or of another
// character set, shows as garbage; there they are drawn in ASCII, and in
// blocks under a UTF-8 locale or none.
func TestBarIsASCIIOutsideUTF8(t *testing.T) {
	for _, tc := range []struct {
		lcAll, lcCtype, lang string
		ascii                bool
	}{
		{"C", "", "", true},
		{"POSIX", "", "", true},
		{"", "", "de_DE.ISO-8859-1", true},
		{"C", "", "en_US.UTF-8", true}, // LC_ALL decides
		{"", "C", "en_US.UTF-8", true}, // then LC_CTYPE
		{"", "", "en_US.UTF-8", false},
		{"", "", "C.utf8", false},
		{"", "UTF-8", "C", false}, // macOS's LC_CTYPE
		{"", "", "", false},       // no locale named: nothing says otherwise
	} {
		t.Setenv("LC_ALL", tc.lcAll)
		t.Setenv("LC_CTYPE", tc.lcCtype)
		t.Setenv("LANG", tc.lang)
		var buf bytes.Buffer
		var bar *progressbar.ProgressBar
		barProgress(&streams{err: &buf}, &bar, "cells")(3, 6)
		out := buf.String()
		blocks, dashes := strings.Contains(out, "█"), strings.Contains(out, "===")
		if blocks == tc.ascii || dashes != tc.ascii {
			t.Errorf("LC_ALL=%q LC_CTYPE=%q LANG=%q: bar %q, want it drawn in ASCII: %v", tc.lcAll, tc.lcCtype, tc.lang, out, tc.ascii)
		}
	}
}
