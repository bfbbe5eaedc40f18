package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLabelsFirstLineByRows: fit reads the first line of a label file by
// the inputs' rows where --labels-header auto's guess from the values
// alone could go either way (dataset.Classes.ReadForRows): a one-shot
// class listed first ("owl" above two classes of two labels each) is a
// label when the file has one label a row with it, and a name found once
// above three classes ("species") or pandas' "0" above labels 0 and 1 is
// a header when the file has one line more than the rows; each time a
// note says which reading it took and the flag that takes the other.
// fit refused all three, one label short or over. A name above numbers
// is a header whatever the count (a blank line below it is a missing
// label: TestLabelsBlankLine), and the model's classes are the labels'.
func TestLabelsFirstLineByRows(t *testing.T) {
	dir := t.TempDir()
	x5 := writeNPY(t, dir, "X5.npy", mat.NewDense(5, 2, []float64{0, 1, 1, 0, 1, 1, 2, 0, 0, 2}))
	x4 := writeNPY(t, dir, "X4.npy", mat.NewDense(4, 1, []float64{0, 1, 2, 3}))
	x3 := writeNPY(t, dir, "X3.npy", mat.NewDense(3, 1, []float64{0, 1, 2}))
	for _, tc := range []struct {
		x, labels, classes, note string
	}{
		{x5, "owl\ncat\ncat\ndog\ndog\n", "cat,dog,owl", `its first line, "owl", was read as a label, not a header: the file has one label per row of the inputs (5 rows) with it; --labels-header yes reads it as a header`},
		{x3, "species\ncat\ndog\nfish\n", "cat,dog,fish", `its first line, "species", was read as a header, not a label: the file has one label per row of the inputs (3 rows) below it; --labels-header no reads it as a label`},
		{x4, "0\n0\n1\n0\n1\n", "0,1", `its first line, "0", was read as a header, not a label: the file has one label per row of the inputs (4 rows) below it; --labels-header no reads it as a label`},
		{x3, "y\n1\n-1\n1\n", "-1,1", ""}, // the values say: no note
	} {
		y := writeText(t, dir, "y.txt", tc.labels)
		model := filepath.Join(dir, "m.json")
		code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", tc.x, "--labels", y, "--out", model)
		note := "greedytl: note: " + y + ": " + tc.note + "\n"
		if code != 0 || strings.Contains(stderr, "note:") != (tc.note != "") || tc.note != "" && !strings.HasPrefix(stderr, note) {
			t.Errorf("%q: exit %d, stderr %q; want 0 and the note %q", tc.labels, code, stderr, tc.note)
			continue
		}
		code, out, stderr := cli(t, "", "inspect", "--json", model)
		var sum struct {
			Classes []string `json:"classes"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || strings.Join(sum.Classes, ",") != tc.classes {
			t.Errorf("%q: inspect exit %d (%s): classes %v, want %s", tc.labels, code, stderr, sum.Classes, tc.classes)
		}
	}
}
