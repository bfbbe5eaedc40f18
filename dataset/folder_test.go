package dataset

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/shareddata"
	"gonum.org/v1/gonum/mat"
)

// folderFiles returns the files of a valid 5-example, 3-class folder.
func folderFiles(t *testing.T) map[string][]byte {
	var x, y bytes.Buffer
	if err := WriteNPY(&x, mat.NewDense(5, 2, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})); err != nil {
		t.Fatal(err)
	}
	if err := WriteNPYInts(&y, []int{2, 0, 2, 1, 0}); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"features.npy": x.Bytes(),
		"labels.npy":   y.Bytes(),
		"classes.txt":  []byte("cup\nduck\ncar\n"),
		"groups.txt":   []byte("kitchen\ntoy\ntoy\n"),
	}
}

func writeFolder(t *testing.T, files map[string][]byte) string {
	dir := t.TempDir()
	for name, b := range files {
		if b == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadFolder(t *testing.T) {
	dir := writeFolder(t, folderFiles(t))
	f, err := LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Dir != dir || !mat.Equal(f.X, mat.NewDense(5, 2, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})) ||
		!slices.Equal(f.Labels, []int{2, 0, 2, 1, 0}) || !slices.Equal(f.Classes, []string{"cup", "duck", "car"}) ||
		!slices.Equal(f.Groups, []string{"kitchen", "toy", "toy"}) {
		t.Fatalf("got %+v", f)
	}
	for class, want := range [][]int{{1, 4}, {3}, {0, 2}} {
		if got := f.Rows(class); !slices.Equal(got, want) {
			t.Errorf("Rows(%d) = %v, want %v", class, got, want)
		}
		if n := f.ClassCounts()[class]; n != len(want) {
			t.Errorf("ClassCounts()[%d] = %d, want %d", class, n, len(want))
		}
	}
	if k, err := f.ClassIndex("car"); k != 2 || err != nil {
		t.Errorf("ClassIndex(car) = %d, %v", k, err)
	}
	if _, err := f.ClassIndex("bus"); err == nil || err.Error() != "dataset "+dir+": no class named \"bus\" (classes: cup, duck, car)" {
		t.Errorf("ClassIndex(bus): %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Rows(3) did not panic")
		}
	}()
	f.Rows(3)
}

func TestLoadFolderVariants(t *testing.T) {
	tests := []struct {
		name   string
		change map[string][]byte
		groups []string
	}{
		{"no groups", map[string][]byte{"groups.txt": nil}, nil},
		{"CRLF, blanks and trailing empty lines", map[string][]byte{"classes.txt": []byte(" cup\r\nduck \r\ncar\r\n\r\n\n")}, []string{"kitchen", "toy", "toy"}},
		{"no final newline", map[string][]byte{"groups.txt": []byte("kitchen\ntoy\ntoy")}, []string{"kitchen", "toy", "toy"}},
		{"class without examples", map[string][]byte{"classes.txt": []byte("cup\nduck\ncar\nbus\n"), "groups.txt": nil}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := folderFiles(t)
			for k, v := range tt.change {
				files[k] = v
			}
			f, err := LoadFolder(writeFolder(t, files))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.Classes[:3], []string{"cup", "duck", "car"}) || !slices.Equal(f.Groups, tt.groups) {
				t.Errorf("classes %q groups %q", f.Classes, f.Groups)
			}
		})
	}
}

// TestLoadFolderHashNames: classes.txt and groups.txt have no comments
// and no quoting, so a name holding '#' is a name ("#" alone, "#tag",
// "car #2", and "# b" below line 1); only a first line that np.savetxt's
// header= writes ('#', white space, text) is refused (TestLoadFolderErrors).
// A class or group named "#" could not be loaded before.
func TestLoadFolderHashNames(t *testing.T) {
	for _, tt := range []struct{ file, text string }{
		{"classes.txt", "#tag\nC#\ncar #2\n"},
		{"classes.txt", "!\n#\n$\n"},          // the reviewer's: "#" is a class
		{"classes.txt", "#\ncup\nduck\n"},     // "#" alone on line 1
		{"classes.txt", "cup\nduck\n#\n"},     // and on the last
		{"classes.txt", "cup\n# b\nduck\n"},   // '#', blank, text below line 1
		{"classes.txt", "#  \ncup\nduck\n"},   // '#' and blanks: "#", trimmed
		{"groups.txt", "#\n#\ntoy\n"},         // a group named "#"
		{"groups.txt", "kitchen\n# c\ntoy\n"}, // a group below line 1
	} {
		files := folderFiles(t)
		files[tt.file] = []byte(tt.text)
		f, err := LoadFolder(writeFolder(t, files))
		names := strings.Split(strings.TrimSuffix(tt.text, "\n"), "\n")
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
		}
		got := []string(nil)
		if f != nil {
			got = f.Classes
			if tt.file == "groups.txt" {
				got = f.Groups
			}
		}
		if err != nil || !slices.Equal(got, names) {
			t.Errorf("%s %q: %q, %v", tt.file, tt.text, got, err)
		}
	}
}

func TestLoadFolderErrors(t *testing.T) {
	nan := npyFile(1, dict("<f4", false, "(5, 2)"), encode(le, []float32{0, 1, 2, 3, 4, 5, 6, float32(nan()), 8, 9}))
	tests := []struct {
		name   string
		change map[string][]byte
		want   string // "%d" stands for the folder
	}{
		{"no features", map[string][]byte{"features.npy": nil}, "%d/features.npy: no such file or directory"},
		{"no labels", map[string][]byte{"labels.npy": nil}, "%d/labels.npy: no such file or directory"},
		{"no classes", map[string][]byte{"classes.txt": nil}, "%d/classes.txt: no such file or directory"},
		{"NaN feature", map[string][]byte{"features.npy": nan}, "%d/features.npy: row 3 column 1 is NaN"},
		{"too few labels", map[string][]byte{"labels.npy": npyFile(1, dict("<i4", false, "(4,)"), encode(le, []int32{0, 1, 2, 0}))},
			"%d: labels.npy has 4 labels but features.npy has 5 rows"},
		{"label out of range", map[string][]byte{"labels.npy": npyFile(1, dict("<i4", false, "(5,)"), encode(le, []int32{0, 1, 2, 3, 0}))},
			"%d/labels.npy: row 3: label 3 out of range: classes.txt names 3 classes (0..2)"},
		{"labels from 1", map[string][]byte{"labels.npy": npyFile(1, dict("<i4", false, "(5,)"), encode(le, []int32{3, 1, 2, 1, 2}))},
			"%d/labels.npy: row 0: label 3 out of range: classes.txt names 3 classes (0..2); the labels count 1..3, as R and MATLAB count: save them minus 1"},
		{"negative label", map[string][]byte{"labels.npy": npyFile(1, dict("<i4", false, "(5,)"), encode(le, []int32{0, 1, -1, 2, 0}))},
			"%d/labels.npy: row 2: label -1 out of range: classes.txt names 3 classes (0..2)"},
		{"fractional label", map[string][]byte{"labels.npy": npyFile(1, dict("<f8", false, "(5,)"), encode(le, []float64{0, 1, 2, 0.5, 0}))},
			"%d/labels.npy: row 3: 0.5 is not an integer"},
		{"empty classes", map[string][]byte{"classes.txt": []byte("\n\n")}, "%d/classes.txt: no class names"},
		{"blank class line", map[string][]byte{"classes.txt": []byte("cup\n\nduck\ncar\n")}, "%d/classes.txt:2: empty class name"},
		{"leading blank line", map[string][]byte{"classes.txt": []byte("\ncup\nduck\ncar\n")}, "%d/classes.txt:1: empty class name"},
		// np.savetxt(path, names, fmt="%s", header="classes") writes a
		// comment line above the names, which named class 0, and every
		// class took the name of the one before.
		{"savetxt's header", map[string][]byte{"classes.txt": []byte("# classes\ncup\nduck\ncar\n")}, "%d/classes.txt:1: class name \"# classes\" reads as a comment (np.savetxt's header= writes one), and the file has none: line i names class i; remove the line"},
		{"group comment", map[string][]byte{"groups.txt": []byte("#\tgroups\nkitchen\ntoy\ntoy\n")}, "%d/groups.txt:1: group name \"#\\tgroups\" reads as a comment (np.savetxt's header= writes one), and the file has none: line i names class i's group; remove the line"},
		{"duplicate class", map[string][]byte{"classes.txt": []byte("cup\nduck\ncup\n")}, "%d/classes.txt:3: duplicate class name \"cup\" (also on line 1)"},
		{"too few groups", map[string][]byte{"groups.txt": []byte("kitchen\ntoy\n")}, "%d/groups.txt: has 2 groups but classes.txt has 3 classes"},
		{"blank group", map[string][]byte{"groups.txt": []byte("kitchen\n  \ntoy\n")}, "%d/groups.txt:2: empty group name"},
		// Windows-1252, as a Windows tool writes "café".
		{"class not UTF-8", map[string][]byte{"classes.txt": []byte("cup\ncaf\xe9\ncar\n")}, "%d/classes.txt:2: class name \"caf\\xe9\" is not valid UTF-8: save the file as UTF-8 (Excel's \"CSV (Comma delimited)\" writes Windows-1252: save as \"CSV UTF-8\")"},
		{"group not UTF-8", map[string][]byte{"groups.txt": []byte("k\xfcche\ntoy\ntoy\n")}, "%d/groups.txt:1: group name \"k\\xfcche\" is not valid UTF-8: save the file as UTF-8 (Excel's \"CSV (Comma delimited)\" writes Windows-1252: save as \"CSV UTF-8\")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := folderFiles(t)
			for k, v := range tt.change {
				files[k] = v
			}
			dir := writeFolder(t, files)
			f, err := LoadFolder(dir)
			checkError(t, f, err, strings.ReplaceAll(tt.want, "%d", dir))
			if strings.HasSuffix(tt.want, "no such file or directory") && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("missing file: errors.Is(err, fs.ErrNotExist) is false")
			}
		})
	}
}

// TestFolderIsAFile: a file given for the folder (its features.npy, say)
// is refused as such, naming it, by LoadFolder and OpenFolder, for every
// caller (the CLI's experiment and train-sources checked it themselves;
// the library said "FILE/features.npy: not a directory").
func TestFolderIsAFile(t *testing.T) {
	file := filepath.Join(writeFolder(t, folderFiles(t)), "features.npy")
	want := file + ": is a file, not a dataset folder (features.npy, labels.npy, classes.txt)"
	for name, load := range map[string]func(string) (*Folder, error){"LoadFolder": LoadFolder, "OpenFolder": OpenFolder} {
		t.Run(name, func(t *testing.T) {
			f, err := load(file)
			checkError(t, f, err, want)
		})
	}
}

func TestLoadFolderSharedData(t *testing.T) {
	dir := filepath.Dir(shareddata.Path(t, "coil100/hog/features.npy"))
	f, err := LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := f.X.Dims(); r != 7200 || c != 800 {
		t.Fatalf("X is %d×%d, want 7200×800", r, c)
	}
	if len(f.Classes) != 100 || f.Classes[0] != "obj1" || f.Classes[99] != "obj100" || f.Groups != nil {
		t.Fatalf("%d classes (%q ... %q), groups %v", len(f.Classes), f.Classes[0], f.Classes[len(f.Classes)-1], f.Groups)
	}
	for k := range f.Classes {
		if n := len(f.Rows(k)); n != 72 {
			t.Errorf("class %d has %d rows, want 72", k, n)
		}
	}
	// numpy: X.astype(float64).sum(), summed in another order.
	if got, want := mat.Sum(f.X), 575731.0507481447; (got-want)/want > 1e-12 || (want-got)/want > 1e-12 {
		t.Errorf("features sum to %v, want %v", got, want)
	}
}
