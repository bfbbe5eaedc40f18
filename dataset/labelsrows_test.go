package dataset

import "testing"

// TestReadForRows: the count of examples says how HeaderAuto's guess at a
// label file's first line reads: with one value a row, the first is a
// label where auto took it for a header by its one place (a one-shot
// class listed first); with one value more, a header where it could be
// one (found once, or pandas' "0"). Where the values alone decide (a name
// above numbers), where lines hold no label (a missing label may make the
// count), where the first value could be no header, under yes and no, for
// a .npy file, and where the first value read as a label is refused, the
// labels stay as read. Before ReadForRows the first two were read as auto
// guessed and refused by their count.
func TestReadForRows(t *testing.T) {
	for _, tc := range []struct {
		what, content string
		m             int
		h             HeaderRule
		header        string // the first value read as a header; "-": none
		labels        int
	}{
		{"one-shot class first, one line a row", "owl\ncat\ncat\ndog\ndog\n", 5, HeaderAuto, "-", 5},
		{"one-shot class first, a header by the count", "owl\ncat\ncat\ndog\ndog\n", 4, HeaderAuto, "owl", 4},
		{"one-shot class first, neither count", "owl\ncat\ncat\ndog\ndog\n", 7, HeaderAuto, "owl", 4},
		{"a name above three classes, one line more", "species\ncat\ndog\nfish\n", 3, HeaderAuto, "species", 3},
		{"a name above three classes, one line a row", "species\ncat\ndog\nfish\n", 4, HeaderAuto, "-", 4},
		{"pandas' 0 above 0 and 1, one line more", "0\n0\n1\n0\n1\n", 4, HeaderAuto, "0", 4},
		{"pandas' 0 above 0 and 1, one line a row", "0\n0\n1\n0\n1\n", 5, HeaderAuto, "-", 5},
		{"a class found again first, one line more", "cat\ncat\ndog\ndog\nowl\nowl\n", 5, HeaderAuto, "-", 6},
		{"a name above numbers, one line a row", "y\n1\n-1\n1\n", 4, HeaderAuto, "y", 3},
		{"a blank line", "owl\ncat\ncat\n\ndog\ndog\n", 5, HeaderAuto, "owl", 4},
		{"a comment line", "species\ncat\n# x\ndog\nfish\n", 3, HeaderAuto, "-", 4},
		{"np.savetxt's header is no gap", "# label\nowl\ncat\ncat\ndog\ndog\n", 5, HeaderAuto, "-", 5},
		{"yes", "owl\ncat\ncat\ndog\ndog\n", 5, HeaderYes, "owl", 4},
		{"no", "species\ncat\ndog\nfish\n", 3, HeaderNo, "-", 4},
		{"a blank first line is no label", "\u00a0\ncat\ncat\ndog\ndog\n", 5, HeaderAuto, "\u00a0", 4},
	} {
		path := writeFile(t, "y.txt", []byte(tc.content))
		c, err := ReadClassesHeader(path, tc.h)
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		r, err := c.ReadForRows(tc.m)
		if err != nil {
			t.Errorf("%s: %v", tc.what, err)
			continue
		}
		h, ok := r.Header()
		if !ok {
			h = "-"
		}
		if h != tc.header || len(r.Y) != tc.labels {
			t.Errorf("%s (%d rows): header %q and %d labels; want %q and %d", tc.what, tc.m, h, len(r.Y), tc.header, tc.labels)
		}
		if (r == c) != (tc.labels == len(c.Y)) {
			t.Errorf("%s: read again %v, with %d labels before", tc.what, r != c, len(c.Y))
		}
		// Read again, the labels are checked and indexed as any file's.
		if len(r.Names) == 0 || !r.FromText() {
			t.Errorf("%s: classes %v", tc.what, r.Names)
		}
	}
	// A .npy array has no header line.
	npy := npyFile(1, dict("<i8", false, "(4,)"), encode(le, []int64{1, -1, 1, -1}))
	c, err := ReadClassesHeader(writeFile(t, "y.npy", npy), HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := c.ReadForRows(3); r != c || err != nil {
		t.Errorf(".npy: read again (%v)", err)
	}
}
