package synth

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
)

func write(t *testing.T, cfg Config) (string, *dataset.Folder) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	if err := Write(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	f, err := dataset.LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, f
}

func TestWriteLayout(t *testing.T) {
	cfg := Config{Classes: 12, PerClass: 7, Dims: 9, Groups: 4, Seed: 3}
	var calls [][2]int
	cfg.Progress = func(done, total int) { calls = append(calls, [2]int{done, total}) }
	dir, f := write(t, cfg)
	if r, c := f.X.Dims(); r != 84 || c != 9 {
		t.Fatalf("features %d × %d, want 84 × 9", r, c)
	}
	if f.Classes[0] != "class00" || f.Classes[11] != "class11" || f.Groups[0] != "group0" || f.Groups[11] != "group3" {
		t.Errorf("names %v %v", f.Classes, f.Groups)
	}
	for k := range 12 {
		if want := cfg.GroupName(k * 4 / 12); f.Groups[k] != want {
			t.Errorf("class %d in %s, want %s", k, f.Groups[k], want)
		}
		if rows := f.Rows(k); len(rows) != 7 || rows[0] != 7*k {
			t.Errorf("class %d rows %v, want 7 from %d", k, rows, 7*k)
		}
	}
	if len(calls) != 13 || calls[0] != [2]int{0, 12} || calls[12] != [2]int{12, 12} {
		t.Errorf("progress calls %v", calls)
	}
	b, err := os.ReadFile(filepath.Join(dir, "features.npy"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := dataset.DecodeNPY(bytes.NewReader(b), "features.npy")
	if err != nil || a.Descr != "<f4" {
		t.Fatalf("features.npy: %v, dtype %v: want float32", err, a)
	}
	if hdr := int64(len(b)) - cfg.FeatureBytes(); hdr <= 0 || hdr%64 != 0 {
		t.Errorf("features.npy has %d bytes, want the %d data bytes after a header of a multiple of 64 bytes", len(b), cfg.FeatureBytes())
	}
}

// TestWriteIsDeterministic: the same config gives the same bytes, another
// seed other features.
func TestWriteIsDeterministic(t *testing.T) {
	cfg := Config{Classes: 5, PerClass: 3, Dims: 4, Groups: 2, Seed: 8}
	a, _ := write(t, cfg)
	b, _ := write(t, cfg)
	cfg.Seed = 9
	c, _ := write(t, cfg)
	for _, name := range Files {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		z, _ := os.ReadFile(filepath.Join(c, name))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs of the same config", name)
		}
		if name == "features.npy" && bytes.Equal(x, z) {
			t.Errorf("%s is the same for seeds 8 and 9", name)
		}
	}
}

// TestGroupStructure checks the model on many examples: the noise has unit
// variance around the class means, and the class means lie about
// ClassSpread·√2 apart within a group and GroupSpread·√2 (plus the class
// spread) across groups, whatever the dimension.
func TestGroupStructure(t *testing.T) {
	for _, d := range []int{64, 512} {
		cfg := Config{Classes: 8, PerClass: 200, Dims: d, Groups: 2, Seed: 1}
		_, f := write(t, cfg)
		means := make([][]float64, cfg.Classes)
		var ss float64
		for k := range cfg.Classes {
			means[k] = make([]float64, d)
			rows := f.Rows(k)
			for _, i := range rows {
				for j, v := range f.X.RawRowView(i) {
					means[k][j] += v / float64(len(rows))
				}
			}
			for _, i := range rows {
				for j, v := range f.X.RawRowView(i) {
					ss += (v - means[k][j]) * (v - means[k][j])
				}
			}
		}
		if v := ss / float64(cfg.Rows()-cfg.Classes) / float64(d); math.Abs(v-1) > 0.02 {
			t.Errorf("d=%d: noise variance %.3f, want 1", d, v)
		}
		dist := func(a, b int) float64 {
			var s float64
			for j := range d {
				s += (means[a][j] - means[b][j]) * (means[a][j] - means[b][j])
			}
			// The sample means carry noise of variance 1/PerClass a
			// dimension each: remove its expected contribution.
			return math.Sqrt(s - 2*float64(d)/float64(cfg.PerClass))
		}
		var within, across []float64
		for a := range cfg.Classes {
			for b := range a {
				if cfg.GroupOf(a) == cfg.GroupOf(b) {
					within = append(within, dist(a, b))
				} else {
					across = append(across, dist(a, b))
				}
			}
		}
		wantWithin := ClassSpread * math.Sqrt2
		wantAcross := math.Sqrt(2*GroupSpread*GroupSpread + 2*ClassSpread*ClassSpread)
		if m := mean(within); math.Abs(m-wantWithin) > 0.35*wantWithin {
			t.Errorf("d=%d: classes of a group %.2f apart, want about %.2f", d, m, wantWithin)
		}
		if m := mean(across); math.Abs(m-wantAcross) > 0.35*wantAcross {
			t.Errorf("d=%d: classes of different groups %.2f apart, want about %.2f", d, m, wantAcross)
		}
		if slicesMax(within) >= slicesMin(across) {
			t.Errorf("d=%d: some classes of a group (%.2f) are farther apart than classes of different groups (%.2f)", d, slicesMax(within), slicesMin(across))
		}
	}
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func slicesMin(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

func TestWriteRefuses(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"one class", Config{Classes: 1, PerClass: 3, Dims: 2, Groups: 1}},
		{"no examples", Config{Classes: 3, PerClass: 0, Dims: 2, Groups: 1}},
		{"no dims", Config{Classes: 3, PerClass: 3, Dims: 0, Groups: 1}},
		{"no groups", Config{Classes: 3, PerClass: 3, Dims: 2, Groups: 0}},
		{"more groups than classes", Config{Classes: 3, PerClass: 3, Dims: 2, Groups: 4}},
		{"too large", Config{Classes: 1 << 20, PerClass: 1 << 10, Dims: min(1<<40, math.MaxInt), Groups: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			if err := Write(context.Background(), dir, tt.cfg); err == nil {
				t.Fatal("no error")
			}
			if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s was created", dir)
			}
		})
	}
	t.Run("existing folder", func(t *testing.T) {
		cfg := Config{Classes: 3, PerClass: 3, Dims: 2, Groups: 1, Seed: 1}
		dir, _ := write(t, cfg)
		before, _ := os.ReadFile(filepath.Join(dir, "features.npy"))
		cfg.Seed = 2
		if err := Write(context.Background(), dir, cfg); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("error %v, want fs.ErrExist", err)
		}
		after, _ := os.ReadFile(filepath.Join(dir, "features.npy"))
		if !bytes.Equal(before, after) {
			t.Error("features.npy was overwritten")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		dir := filepath.Join(t.TempDir(), "data")
		cfg := Config{Classes: 3, PerClass: 3, Dims: 2, Groups: 1, Seed: 1}
		if err := Write(ctx, dir, cfg); !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		for _, name := range Files {
			if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a cancelled Write left %s", name)
			}
		}
		// The same command run again completes (it refused: labels.npy
		// already exists).
		if err := Write(context.Background(), dir, cfg); err != nil {
			t.Fatalf("rerun after a cancelled Write: %v", err)
		}
	})
}

// TestWriteMeanNotCached: a class mean larger than MeanCacheBytes is drawn
// again for every row, giving the same files byte for byte, and then the
// memory Write allocates does not grow with Dims (issue 18: --dims 5e7 took
// 797 MB where the help promised a few megabytes).
func TestWriteMeanNotCached(t *testing.T) {
	cfg := Config{Classes: 3, PerClass: 4, Dims: 1000, Groups: 2, Seed: 5}
	cached, _ := write(t, cfg)
	defer func(b int) { MeanCacheBytes = b }(MeanCacheBytes)
	MeanCacheBytes = 8 * 999
	drawn, _ := write(t, cfg)
	for _, name := range Files {
		a, _ := os.ReadFile(filepath.Join(cached, name))
		b, _ := os.ReadFile(filepath.Join(drawn, name))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs when the mean is drawn again for every row", name)
		}
	}
	// 2²¹ dimensions (a mean of 16 MB, a row of 8 MB) in well under 1 MB.
	MeanCacheBytes = 1 << 20
	cfg = Config{Classes: 2, PerClass: 2, Dims: 1 << 21, Groups: 1, Seed: 5}
	dir := filepath.Join(t.TempDir(), "big")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := Write(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("Write of %d dimensions allocated %d bytes, want under 1 MB", cfg.Dims, alloc)
	}
}

// TestWriteChecksSpace is issue 18's case: 2 × 1 examples of 2⁴⁰
// dimensions (8.8 TB) crashed the Go runtime (out of memory) and left
// classes.txt, groups.txt, labels.npy and a temporary file. Now it is an
// error matching ErrNoSpace before anything is written, and the folder is
// not created.
func TestWriteChecksSpace(t *testing.T) {
	if _, ok := freeBytes(t.TempDir()); !ok {
		t.Skip("this system does not tell the free disk space")
	}
	if math.MaxInt < 1<<40 {
		t.Skip("a data set of 2⁴⁰ dims needs a 64-bit int")
	}
	dir := filepath.Join(t.TempDir(), "s")
	cfg := Config{Classes: 2, PerClass: 1, Dims: min(1<<40, math.MaxInt), Groups: 1}
	err := Write(context.Background(), dir, cfg)
	if !errors.Is(err, ErrNoSpace) || !strings.Contains(err.Error(), "the data set needs 8.8 TB") {
		t.Fatalf("error %v, want ErrNoSpace saying 8.8 TB", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was created", dir)
	}
	// Into an existing directory: it is left as it was.
	existing := t.TempDir()
	if err := os.WriteFile(filepath.Join(existing, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), existing, cfg); !errors.Is(err, ErrNoSpace) {
		t.Fatalf("error %v, want ErrNoSpace", err)
	}
	if entries, _ := os.ReadDir(existing); len(entries) != 1 {
		t.Errorf("the directory holds %v, want notes.txt only", entries)
	}
}

// TestWriteIsAllOrNothing: files appear together. A Write stopped while it
// writes the features (the context is cancelled from the progress
// callback, after the first class) leaves no file and no temporary
// directory in the folder, which it keeps since it existed; the folder is
// usable again at once.
func TestWriteIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Classes: 4, PerClass: 3, Dims: 1 << 15, Groups: 2, Seed: 1}
	cfg.Progress = func(done, _ int) {
		if done == 1 {
			cancel()
		}
	}
	if err := Write(ctx, dir, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a stopped Write left %v", entries)
	}
	cfg.Progress = nil
	if err := Write(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "classes.txt features.npy groups.txt labels.npy" {
		t.Errorf("folder holds %v", names)
	}
}

// TestWriteDoesNotReplaceAnotherWritesFiles: a Write checks that the
// folder holds no data set before it starts, but another Write into it may
// finish meanwhile; the move at the end replaced that one's files without a
// word (exit status 0 for both). It now fails, matching fs.ErrExist, and
// leaves the other files as they are.
func TestWriteDoesNotReplaceAnotherWritesFiles(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "groups.txt")
	cfg := Config{Classes: 4, PerClass: 3, Dims: 5, Groups: 2, Seed: 1}
	cfg.Progress = func(done, _ int) {
		if done == 1 { // another synth's file appears while this one writes
			if err := os.WriteFile(other, []byte("theirs\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	err := Write(context.Background(), dir, cfg)
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), other) {
		t.Fatalf("error %v, want one matching fs.ErrExist naming %s", err, other)
	}
	if b, _ := os.ReadFile(other); string(b) != "theirs\n" {
		t.Errorf("%s holds %q, want the other synth's", other, b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %v, want the other synth's file alone", entries)
	}
}

// TestLeftovers: a killed Write's temporary directory is named with the
// size of its files, and left where it is; a folder without one has none.
func TestLeftovers(t *testing.T) {
	dir := t.TempDir()
	if got := Leftovers(dir); len(got) != 0 {
		t.Fatalf("Leftovers of an empty folder: %v", got)
	}
	killed := filepath.Join(dir, tempPrefix+"123")
	if err := os.Mkdir(killed, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(killed, "features.npy"), make([]byte, 2_500_000), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Leftovers(dir)
	if want := killed + " (2.5 MB)"; len(got) != 1 || got[0] != want {
		t.Errorf("Leftovers = %q, want %q", got, want)
	}
	if err := Write(context.Background(), dir, Config{Classes: 4, PerClass: 3, Dims: 5, Groups: 2, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(killed, "features.npy")); err != nil {
		t.Errorf("a Write removed another's temporary directory: %v", err)
	}
}

// TestNames: class and group names are zero-padded to the width of the
// largest index, as their docs' examples say.
func TestNames(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		class string // of ClassName(7)
		group string // of GroupName(3)
	}{
		{Config{Classes: 1000, Groups: 10}, "class007", "group3"},
		{Config{Classes: 100, Groups: 11}, "class07", "group03"},
		{Config{Classes: 10, Groups: 100}, "class7", "group03"},
		{Config{Classes: 101, Groups: 101}, "class007", "group003"},
	} {
		if c, g := tc.cfg.ClassName(7), tc.cfg.GroupName(3); c != tc.class || g != tc.group {
			t.Errorf("%d classes, %d groups: ClassName(7) %q, GroupName(3) %q; want %q, %q", tc.cfg.Classes, tc.cfg.Groups, c, g, tc.class, tc.group)
		}
	}
}

// TestCheckOneClass: the refusal of a single class counts it in the
// singular ("1 class"), where it said "1 classes".
func TestCheckOneClass(t *testing.T) {
	err := Config{Classes: 1, PerClass: 3, Dims: 2, Groups: 1}.Check()
	if err == nil || err.Error() != "synth: 1 class, want at least 2" {
		t.Errorf("error %v, want synth: 1 class, want at least 2", err)
	}
}
