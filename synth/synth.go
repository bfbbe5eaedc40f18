// Package synth generates synthetic dataset folders with a known transfer
// structure: classes drawn around the centres of semantic groups, so that
// the sources of a target's own group are the ones that help it.
//
// The model, for d feature dimensions, G groups and C classes (class c
// belongs to group ⌊c·G/C⌋, so a group's classes are consecutive):
//
//	group centre   μ_g ~ N(0, GroupSpread²/d · I)
//	class mean     m_c = μ_g(c) + δ_c,  δ_c ~ N(0, ClassSpread²/d · I)
//	example        x   = m_c + ε,       ε   ~ N(0, I)
//
// The spreads are divided by d so that the distances between means, in
// units of the examples' noise, do not depend on d: two group centres are
// about GroupSpread·√2 apart, two classes of a group ClassSpread·√2. With
// the defaults (4 and 1.5) a linear source separates its group from the
// others well, and its own class from its group's other classes only
// partly — the situation transfer learning is for.
//
// Write streams every file to disk as it draws it, the features as float32:
// the memory it needs does not grow with the data set — at most
// MeanCacheBytes for a class's mean (8 bytes a dimension; beyond that it
// is drawn again for every row, which takes about three times as long) and
// a 64 KB buffer — so a data set of the paper's largest shape (1,000
// classes, 4,096 dimensions) needs about a megabyte, and one of 5·10⁷
// dimensions no more than 70 MB. Everything is drawn from the seed: the
// same Config gives the same files, byte for byte, whichever way the mean
// is kept.
package synth

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
)

// The spreads of the group centres and of the classes around them, in
// units of the examples' noise (see the package comment).
const (
	GroupSpread = 4.0
	ClassSpread = 1.5
)

// ErrNoSpace is matched (errors.Is) by Write's error when the data set
// would not fit on the file system.
var ErrNoSpace = errors.New("not enough space")

// Files are the files Write creates in a dataset folder.
var Files = []string{dataset.FeaturesFile, dataset.LabelsFile, dataset.ClassesFile, dataset.GroupsFile}

// Config sets the shape of a synthetic data set. Start from
// DefaultConfig.
type Config struct {
	// Classes is the number of classes, PerClass the examples of each.
	Classes, PerClass int
	// Dims is the number of feature dimensions.
	Dims int
	// Groups is the number of semantic groups the classes are split into
	// (as evenly as possible), between 1 and Classes.
	Groups int
	// Seed seeds every draw.
	Seed uint64
	// Progress, if not nil, is called with the number of classes written
	// and their total: once before the first and after each class.
	Progress func(done, total int)
}

// DefaultConfig returns a small data set that is quick to make and to
// learn from: 100 classes in 10 groups (DefaultGroups), 50 examples of
// each, 64 dimensions, seed 1.
func DefaultConfig() Config {
	return Config{Classes: 100, PerClass: 50, Dims: 64, Groups: DefaultGroups(100), Seed: 1}
}

// DefaultGroups returns the default number of groups for the given
// number of classes: 10, or every class its own group when there are
// fewer than 10 — a valid Groups for any number of classes.
func DefaultGroups(classes int) int { return max(1, min(10, classes)) }

// Check returns an error when a size is out of range or the data set
// would be larger than 2⁶² bytes.
func (c Config) Check() error {
	switch {
	case c.Classes < 2:
		return fmt.Errorf("synth: %s, want at least 2", plural.Count(c.Classes, "class", "classes"))
	case c.PerClass < 1:
		return fmt.Errorf("synth: %d examples per class, want at least 1", c.PerClass)
	case c.Dims < 1:
		return fmt.Errorf("synth: %d dimensions, want at least 1", c.Dims)
	case c.Groups < 1 || c.Groups > c.Classes:
		return fmt.Errorf("synth: %d groups, want 1 to %d (the number of classes)", c.Groups, c.Classes)
	}
	if c.Classes > math.MaxInt32/c.PerClass || c.Classes*c.PerClass > min(1<<60, math.MaxInt)/c.Dims {
		return fmt.Errorf("synth: %d × %d examples of %d dimensions is too large", c.Classes, c.PerClass, c.Dims)
	}
	return nil
}

// DiskBytes returns the size of the files Write creates (within 1 KB:
// the .npy headers take up to 128 bytes each).
func (c Config) DiskBytes() int64 {
	names := int64(c.Classes) * int64(len(c.ClassName(0))+len(c.GroupName(0))+2)
	return 256 + c.FeatureBytes() + 8*int64(c.Rows()) + names
}

// Rows returns the number of examples, Classes × PerClass.
func (c Config) Rows() int { return c.Classes * c.PerClass }

// FeatureBytes returns the size of features.npy's data: 4 bytes a value.
func (c Config) FeatureBytes() int64 { return int64(c.Rows()) * int64(c.Dims) * 4 }

// GroupOf returns the group of class k: ⌊k·Groups/Classes⌋. c must have
// classes (Check): it panics, dividing by zero, when Classes is 0.
func (c Config) GroupOf(k int) int { return k * c.Groups / c.Classes }

// ClassName returns the name of class k, "class" and k zero-padded to the
// width of the largest class number, e.g. "class007" of 1,000 classes.
func (c Config) ClassName(k int) string { return pad("class", k, c.Classes) }

// GroupName returns the name of group g, "group" and g zero-padded to the
// width of the largest group number, as ClassName: "group03" of 11 to 100
// groups, "group3" of 10 (group0 … group9).
func (c Config) GroupName(g int) string { return pad("group", g, c.Groups) }

func pad(prefix string, k, n int) string {
	return fmt.Sprintf("%s%0*d", prefix, len(fmt.Sprint(n-1)), k)
}

// Write makes the dataset folder dir (creating it if needed):
// features.npy (Rows × Dims, float32), labels.npy (int64, the class of
// each row; the rows are ordered by class), classes.txt and groups.txt.
// The files are written into a temporary directory inside dir and moved
// into dir together at the end, so that dir never holds some of them: an
// interrupted Write (an error, ctx done, a second stop signal — see
// atomicfile.RemoveTemporary) leaves dir as it was. Write refuses to
// overwrite: it returns an error, before writing anything, when dir
// already holds one of Files (an error matching fs.ErrExist), and so it
// does at the end, moving nothing, when another Write into dir has put
// one there meanwhile. It also
// returns an error, before writing, for an invalid cfg and when the files
// would not fit in the space left on dir's file system (DiskBytes, where
// the system tells it: Linux, macOS, FreeBSD; an error matching
// ErrNoSpace), and when a file cannot be
// written or ctx is done.
func Write(ctx context.Context, dir string, cfg Config) (err error) {
	if err := cfg.Check(); err != nil {
		return err
	}
	for _, name := range Files {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("synth: %s: %w: give a new or empty directory", p, fs.ErrExist)
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	_, statErr := os.Stat(dir)
	created := errors.Is(statErr, fs.ErrNotExist)
	if err := atomicfile.MkdirAll(dir); err != nil {
		return err
	}
	if created {
		defer func() {
			if err != nil {
				os.Remove(dir) // only if still empty
			}
		}()
	}
	if free, ok := freeBytes(dir); ok && cfg.DiskBytes() > free {
		return fmt.Errorf("synth: %s: %w: the data set needs %s but its file system has %s free", dir, ErrNoSpace, byteSize(cfg.DiskBytes()), byteSize(free))
	}
	tmp, err := atomicfile.MkdirTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	defer atomicfile.RemoveTempDir(tmp)
	write := func(name string, fill func(io.Writer) error) error {
		return atomicfile.Write(filepath.Join(tmp, name), fill)
	}
	if err := write(dataset.FeaturesFile, func(w io.Writer) error { return writeFeatures(ctx, w, cfg) }); err != nil {
		return err
	}
	if err := write(dataset.LabelsFile, func(w io.Writer) error { return writeLabels(w, cfg) }); err != nil {
		return err
	}
	if err := write(dataset.ClassesFile, names("class", cfg.Classes, cfg.ClassName)); err != nil {
		return err
	}
	if err := write(dataset.GroupsFile, names("group", cfg.Classes, func(k int) string { return cfg.GroupName(cfg.GroupOf(k)) })); err != nil {
		return err
	}
	var moved []string
	for _, name := range []string{dataset.ClassesFile, dataset.GroupsFile, dataset.LabelsFile, dataset.FeaturesFile} {
		p := filepath.Join(dir, name)
		if err := moveNew(filepath.Join(tmp, name), p); err != nil {
			for _, q := range moved {
				os.Remove(q)
			}
			return err
		}
		moved = append(moved, p)
	}
	// The renames out of tmp, durable (each file was synced in tmp).
	return atomicfile.SyncDir(dir)
}

// moveNew moves the file src to dst, which must not exist: another Write
// into the same folder may have filled it since Write checked, and a
// rename would replace its files without a word. It links dst to src
// (which fails if dst exists) and unlinks src; where the file system has
// no hard links, it renames after checking that dst does not exist.
func moveNew(src, dst string) error {
	err := os.Link(src, dst)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("synth: %s: %w: another synth wrote into the folder meanwhile", dst, fs.ErrExist)
	}
	if err == nil {
		os.Remove(src) // else Write's removal of its temporary directory does
		return nil
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("synth: %s: %w: another synth wrote into the folder meanwhile", dst, fs.ErrExist)
	}
	return os.Rename(src, dst)
}

// tempPrefix begins the names of Write's temporary directories inside the
// dataset folder.
const tempPrefix = ".synth-tmp-"

// Leftovers describes the temporary directories of Writes in dir, each as
// its path and the size of its files ("d/.synth-tmp-123 (6.6 GB)"): those
// of Writes at work, and of Writes killed outright (SIGKILL), which nothing
// removes and whose partial features count against the free space Write
// needs. It never removes one: a directory at work cannot be told from a
// killed Write's where locks are not shared between machines.
func Leftovers(dir string) []string {
	var out []string
	found, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	for _, p := range found {
		var n int64
		_ = filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil {
					n += fi.Size()
				}
			}
			return nil
		})
		out = append(out, fmt.Sprintf("%s (%s)", p, byteSize(n)))
	}
	return out
}

// byteSize formats n bytes for a message: "6.6 GB".
func byteSize(n int64) string {
	switch {
	case n >= 1e12:
		return fmt.Sprintf("%.1f TB", float64(n)/1e12)
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%d bytes", n)
}

// MeanCacheBytes is the largest class mean (8 bytes a dimension) Write
// keeps in memory; a larger one is drawn again for every row.
var MeanCacheBytes = 64 << 20

// writeFeatures streams the features, class by class, row by row, through
// a 64 KB buffer.
func writeFeatures(ctx context.Context, w io.Writer, cfg Config) error {
	if err := dataset.WriteNPYHeader(w, "<f4", []int{cfg.Rows(), cfg.Dims}); err != nil {
		return err
	}
	buf := make([]byte, 0, 64<<10)
	put := func(v float64) error {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v)))
		if len(buf) < cap(buf) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	var mean []float64
	if cfg.Dims <= MeanCacheBytes/8 {
		mean = make([]float64, cfg.Dims)
	}
	for k := range cfg.Classes {
		if cfg.Progress != nil {
			cfg.Progress(k, cfg.Classes)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		ms := newMeanStream(cfg, k)
		if mean != nil {
			for j := range mean {
				mean[j] = ms.next()
			}
		} else {
			for range cfg.Dims {
				ms.next()
			}
		}
		noise := ms.class // positioned after the draw of δ_k
		for range cfg.PerClass {
			if mean != nil {
				for _, m := range mean {
					if err := put(m + noise.NormFloat64()); err != nil {
						return err
					}
				}
				continue
			}
			again := newMeanStream(cfg, k)
			for range cfg.Dims {
				if err := put(again.next() + noise.NormFloat64()); err != nil {
					return err
				}
			}
		}
	}
	if _, err := w.Write(buf); err != nil {
		return err
	}
	if cfg.Progress != nil {
		cfg.Progress(cfg.Classes, cfg.Classes)
	}
	return nil
}

// writeLabels streams labels.npy: each class's number PerClass times.
func writeLabels(w io.Writer, cfg Config) error {
	if err := dataset.WriteNPYHeader(w, "<i8", []int{cfg.Rows()}); err != nil {
		return err
	}
	var b [8]byte
	for k := range cfg.Classes {
		binary.LittleEndian.PutUint64(b[:], uint64(k))
		for range cfg.PerClass {
			if _, err := w.Write(b[:]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Streams of the seed: one per group centre and one per class.
const (
	groupStream = 1 << 32
	classStream = 2 << 32
)

// meanStream draws class k's mean m_k one dimension at a time: from the
// stream of its group centre and the class's own stream, which, once all
// Dims values are drawn, goes on with the noise of the class's examples.
type meanStream struct {
	group, class *rand.Rand
	gs, cs       float64
}

func newMeanStream(cfg Config, k int) *meanStream {
	d := float64(cfg.Dims)
	return &meanStream{
		group: rand.New(rand.NewPCG(cfg.Seed, groupStream+uint64(cfg.GroupOf(k)))),
		class: rand.New(rand.NewPCG(cfg.Seed, classStream+uint64(k))),
		gs:    GroupSpread / math.Sqrt(d),
		cs:    ClassSpread / math.Sqrt(d),
	}
}

// next returns the next dimension of the mean.
func (s *meanStream) next() float64 { return s.gs*s.group.NormFloat64() + s.cs*s.class.NormFloat64() }

// names returns a writer of the n names name(0), …, name(n−1), one a
// line, through dataset.WriteNames (what: "class" or "group").
func names(what string, n int, name func(int) string) func(io.Writer) error {
	return func(w io.Writer) error {
		all := make([]string, n)
		for k := range n {
			all[k] = name(k)
		}
		return dataset.WriteNames(w, what, all)
	}
}
