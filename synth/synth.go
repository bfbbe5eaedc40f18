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
// Write streams the features to disk one row at a time, as float32: the
// memory it needs is a few rows, whatever the size of the data set, so a
// data set of the paper's largest shape (1,000 classes, 4,096 dimensions)
// can be made on a small machine. Everything is drawn from the seed: the
// same Config gives the same files, byte for byte.
package synth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
)

// The spreads of the group centres and of the classes around them, in
// units of the examples' noise (see the package comment).
const (
	GroupSpread = 4.0
	ClassSpread = 1.5
)

// Files are the files Write creates in a dataset folder.
var Files = []string{"features.npy", "labels.npy", "classes.txt", "groups.txt"}

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

// Check returns an error when a size is out of range or the features
// would have more than 2⁶² bytes.
func (c Config) Check() error {
	switch {
	case c.Classes < 2:
		return fmt.Errorf("synth: %d classes, want at least 2", c.Classes)
	case c.PerClass < 1:
		return fmt.Errorf("synth: %d examples per class, want at least 1", c.PerClass)
	case c.Dims < 1:
		return fmt.Errorf("synth: %d dimensions, want at least 1", c.Dims)
	case c.Groups < 1 || c.Groups > c.Classes:
		return fmt.Errorf("synth: %d groups, want 1 to %d (the number of classes)", c.Groups, c.Classes)
	}
	if c.Classes > math.MaxInt32/c.PerClass || c.Classes*c.PerClass > (1<<60)/c.Dims {
		return fmt.Errorf("synth: %d × %d examples of %d dimensions is too large", c.Classes, c.PerClass, c.Dims)
	}
	return nil
}

// Rows returns the number of examples, Classes × PerClass.
func (c Config) Rows() int { return c.Classes * c.PerClass }

// FeatureBytes returns the size of features.npy's data: 4 bytes a value.
func (c Config) FeatureBytes() int64 { return int64(c.Rows()) * int64(c.Dims) * 4 }

// GroupOf returns the group of class k: ⌊k·Groups/Classes⌋.
func (c Config) GroupOf(k int) int { return k * c.Groups / c.Classes }

// ClassName returns the name of class k, "class" and k zero-padded to the
// width of the largest class number, e.g. "class007" of 1,000 classes.
func (c Config) ClassName(k int) string { return pad("class", k, c.Classes) }

// GroupName returns the name of group g, e.g. "group03" of 10 to 99
// groups.
func (c Config) GroupName(g int) string { return pad("group", g, c.Groups) }

func pad(prefix string, k, n int) string {
	return fmt.Sprintf("%s%0*d", prefix, len(fmt.Sprint(n-1)), k)
}

// Write makes the dataset folder dir (creating it if needed):
// features.npy (Rows × Dims, float32), labels.npy (int64, the class of
// each row; the rows are ordered by class), classes.txt and groups.txt.
// Each file is written atomically, the features last. Write refuses to
// overwrite: it returns an error, before writing anything, when dir
// already holds one of Files (an error matching fs.ErrExist). It also returns an error for an invalid
// cfg, when a file cannot be written, and when ctx is done; the files it
// wrote are then removed, so that the same call can be made again.
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	classes := make([]string, cfg.Classes)
	groups := make([]string, cfg.Classes)
	labels := make([]int, 0, cfg.Rows())
	for k := range cfg.Classes {
		classes[k] = cfg.ClassName(k)
		groups[k] = cfg.GroupName(cfg.GroupOf(k))
		for range cfg.PerClass {
			labels = append(labels, k)
		}
	}
	var written []string
	defer func() {
		if err != nil {
			for _, p := range written {
				os.Remove(p)
			}
		}
	}()
	write := func(name string, fill func(io.Writer) error) error {
		p := filepath.Join(dir, name)
		if err := atomicfile.Write(p, fill); err != nil {
			return err
		}
		written = append(written, p)
		return nil
	}
	if err := write("classes.txt", lines(classes)); err != nil {
		return err
	}
	if err := write("groups.txt", lines(groups)); err != nil {
		return err
	}
	if err := write("labels.npy", func(w io.Writer) error { return dataset.WriteNPYInts(w, labels) }); err != nil {
		return err
	}
	return write("features.npy", func(w io.Writer) error { return writeFeatures(ctx, w, cfg) })
}

// writeFeatures streams the features, class by class.
func writeFeatures(ctx context.Context, w io.Writer, cfg Config) error {
	nw, err := dataset.NewNPYRowWriter(w, cfg.Rows(), cfg.Dims)
	if err != nil {
		return err
	}
	mean := make([]float64, cfg.Dims)
	row := make([]float32, cfg.Dims)
	for k := range cfg.Classes {
		if cfg.Progress != nil {
			cfg.Progress(k, cfg.Classes)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rng := classMean(mean, cfg, k)
		for range cfg.PerClass {
			for j, m := range mean {
				row[j] = float32(m + rng.NormFloat64())
			}
			if err := nw.WriteRow(row); err != nil {
				return err
			}
		}
	}
	if cfg.Progress != nil {
		cfg.Progress(cfg.Classes, cfg.Classes)
	}
	return nw.Close()
}

// Streams of the seed: one per group centre and one per class.
const (
	groupStream = 1 << 32
	classStream = 2 << 32
)

// classMean sets mean to class k's mean m_k and returns the class's random
// stream, positioned after the draw of δ_k, from which its examples' noise
// is drawn.
func classMean(mean []float64, cfg Config, k int) *rand.Rand {
	d := float64(cfg.Dims)
	g := rand.New(rand.NewPCG(cfg.Seed, groupStream+uint64(cfg.GroupOf(k))))
	rng := rand.New(rand.NewPCG(cfg.Seed, classStream+uint64(k)))
	gs, cs := GroupSpread/math.Sqrt(d), ClassSpread/math.Sqrt(d)
	for j := range mean {
		mean[j] = gs*g.NormFloat64() + cs*rng.NormFloat64()
	}
	return rng
}

// lines returns a writer of names, one a line.
func lines(names []string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, strings.Join(names, "\n")+"\n")
		return err
	}
}
