package source

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
)

// TestDataDigest checks DataDigest against a digest computed independently
// (Python's hashlib over the little-endian shape, float64 bits, labels and
// NUL-terminated class names), and that it changes with every part of the
// content but not with the folder's path.
func TestDataDigest(t *testing.T) {
	base := func() *dataset.Folder {
		return &dataset.Folder{
			Dir:     "/some/where",
			X:       mat.NewDense(3, 2, []float64{1, math.Copysign(0, -1), 2.5, 3, 0.5, -1}),
			Labels:  []int{0, 1, 1},
			Classes: []string{"a", "b"},
		}
	}
	const want = "373b0c4c343aeff4bc9a732b62f92f96316d9381bb011b76df1b040480fd231d"
	if got, err := DataDigest(base()); got != want || err != nil {
		t.Fatalf("DataDigest = %s, %v, want %s", got, err, want)
	}
	// The same data as a float32 folder read on demand.
	lazy := openFloat32Folder(t, base())
	if got, err := DataDigest(lazy); got != want || err != nil {
		t.Fatalf("DataDigest of the folder opened with OpenFolder = %s, %v, want %s", got, err, want)
	}
	for _, tc := range []struct {
		name   string
		change func(f *dataset.Folder)
		same   bool
	}{
		{"path", func(f *dataset.Folder) { f.Dir = "elsewhere" }, true},
		{"groups", func(f *dataset.Folder) { f.Groups = []string{"g", "h"} }, true},
		{"sign of zero", func(f *dataset.Folder) { f.X.Set(0, 1, 0) }, false},
		{"value", func(f *dataset.Folder) { f.X.Set(2, 1, math.Nextafter(-1, 0)) }, false},
		// The same values and labels hashed as a 2×3 matrix.
		{"shape", func(f *dataset.Folder) { f.X = mat.NewDense(2, 3, slices.Clone(f.X.RawMatrix().Data)) }, false},
		{"label", func(f *dataset.Folder) { f.Labels[2] = 0 }, false},
		{"class name", func(f *dataset.Folder) { f.Classes[1] = "c" }, false},
		{"class name boundary", func(f *dataset.Folder) { f.Classes = []string{"ab", ""} }, false},
	} {
		f := base()
		tc.change(f)
		if got, _ := DataDigest(f); (got == want) != tc.same {
			t.Errorf("%s: digest %s, unchanged %v; want unchanged %v", tc.name, got, got == want, tc.same)
		}
	}
}

// TestIndexIdentity: the identity is a function of the sources' classes
// and model digests in order, and of nothing else: the same sources
// anywhere share it; another order, class or model file, or a boundary
// moved between a class and a digest, changes it. Its definition is
// checked against a digest computed independently (Python's hashlib over
// the lines "<class> <sha256>\n"), which run.json files record.
func TestIndexIdentity(t *testing.T) {
	base := func() *Index {
		return &Index{Dataset: "d", DataSHA256: "x", Seed: 1, Sources: []Entry{
			{Info: Info{Name: "a", Class: 0}, File: "models/a.model", SHA256: "11"},
			{Info: Info{Name: "b", Class: 1}, File: "models/b.model", SHA256: "22"},
		}}
	}
	want := base().Identity()
	// hashlib.sha256(b"0 11\n1 22\n").hexdigest()
	if py := "38ef180c7367ffd590935f8e13c96f32a81f14a48f6416d0fe978ef8c39a1715"; want != py {
		t.Errorf("identity %s, want %s", want, py)
	}
	for _, tc := range []struct {
		what string
		edit func(ix *Index)
		same bool
	}{
		{"another folder, data path, file name, name and CV record", func(ix *Index) {
			ix.Dataset, ix.Sources[0].File, ix.Sources[0].CVScore, ix.Sources[0].Name = "elsewhere", "m/a", 0.5, "c"
		}, true},
		{"another order", func(ix *Index) { ix.Sources[0], ix.Sources[1] = ix.Sources[1], ix.Sources[0] }, false},
		{"another model file", func(ix *Index) { ix.Sources[1].SHA256 = "23" }, false},
		{"another class", func(ix *Index) { ix.Sources[0].Class = 2 }, false},
		{"a source fewer", func(ix *Index) { ix.Sources = ix.Sources[:1] }, false},
		{"a digest's start moved into its class", func(ix *Index) { ix.Sources[1].Class, ix.Sources[1].SHA256 = 12, "2" }, false},
	} {
		ix := base()
		tc.edit(ix)
		if got := ix.Identity(); (got == want) != tc.same {
			t.Errorf("%s: identity %s, base %s: want same = %v", tc.what, got, want, tc.same)
		}
	}
}

// TestCapWarning: the warning counts the sources that stopped at the
// iteration cap and those that stopped short of it numerically stuck
// (Entry.Stuck) apart — it called both "stopped at the iteration cap" —
// and is "" when every source converged.
func TestCapWarning(t *testing.T) {
	const index = "/s/sources.json"
	entry := func(converged, stuck bool) Entry { return Entry{Info: Info{Converged: converged, Stuck: stuck}} }
	ok, capped, stuck := entry(true, false), entry(false, false), entry(false, true)
	for _, tc := range []struct {
		sources []Entry
		want    string
	}{
		{[]Entry{ok, ok}, ""},
		{[]Entry{ok, capped, capped}, "2 of 3 sources stopped at the L2R_LR solver's iteration cap (see the converged field of " + index + ")"},
		{[]Entry{stuck, ok, ok}, "1 of 3 sources stopped numerically stuck, short of the L2R_LR solver's iteration cap: no further progress was possible (see the converged and stuck fields of " + index + ")"},
		{[]Entry{capped, stuck, stuck, ok}, "1 of 4 sources stopped at the L2R_LR solver's iteration cap, and 2 numerically stuck short of it (see the converged and stuck fields of " + index + ")"},
	} {
		ix := &Index{Solver: "L2R_LR", Sources: tc.sources}
		if got := ix.capWarning(index); got != tc.want {
			t.Errorf("sources %+v: %q, want %q", tc.sources, got, tc.want)
		}
	}
}
