package experiment

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/source"
	"github.com/greedytl/greedytl/standardize"
)

// choosePool returns the names of the classes an N-way run's episodes draw
// from (Config.Targets for ProtocolNWay): the classes named, or every class
// outside the negative pool that has examples — the classes with a
// source. Every class named must have the largest number of shots plus
// the test examples per class, or choosePool returns an error naming it;
// the default pool leaves out a class with fewer, and warns through warn
// (code WarnSmallClasses) naming the classes left out. A pool smaller than
// the largest number of ways is an error.
func choosePool(cfg *Config, neg *source.Negatives, counts []int, warn func(code, message string, classes []string)) ([]string, error) {
	f := cfg.Data
	shots, test := slices.Max(cfg.Positives), cfg.testPerClass()
	need := classNeeds(shots, test)
	sizes := fmt.Sprintf("%d of each class (%s and %s)", need, plural.Count(shots, "shot", "shots"), plural.Count(test, "test example", "test examples"))
	var pool, small, smallCounts []string
	most := 0 // the examples of the largest class left out
	if len(cfg.Targets) == 0 {
		for c, name := range f.Classes {
			switch {
			case neg.IsHeldOut(c) || counts[c] == 0:
			case !hasNeeds(counts[c], need):
				small, most = append(small, name), max(most, counts[c])
				smallCounts = append(smallCounts, fmt.Sprintf("%q (%s)", name, plural.Count(counts[c], "example", "examples")))
			default:
				pool = append(pool, name)
			}
		}
	}
	for _, name := range cfg.Targets {
		if _, err := targetClass(f, neg, name); err != nil {
			return nil, err
		}
		c, _ := f.ClassIndex(name)
		if !hasNeeds(counts[c], need) {
			return nil, inputErrorf("experiment: class %q has %s, but an episode needs %s: give fewer --test-per-class or shots, or leave it out of --targets",
				name, plural.Count(counts[c], "example", "examples"), sizes)
		}
		pool = append(pool, name)
	}
	if len(small) > 0 {
		warn(WarnSmallClasses, fmt.Sprintf("the pool leaves out %s with fewer examples than an episode needs, %s: %s",
			plural.Count(len(small), "class", "classes"), sizes, strings.Join(smallCounts, ", ")), small)
	}
	if w := slices.Max(cfg.Ways); w > len(pool) {
		if len(cfg.Targets) > 0 {
			return nil, inputErrorf("experiment: %d ways, but --targets names only %s to draw from", w, plural.Count(len(pool), "class", "classes"))
		}
		if len(small) > 0 {
			return nil, inputErrorf("experiment: %d ways, but only %s a source and the examples an episode needs, %s: %s left out, the largest with %s; give fewer --test-per-class or shots",
				w, plural.Count(len(pool), "class has", "classes have"), sizes, plural.Count(len(small), "class", "classes"), plural.Count(most, "example", "examples"))
		}
		return nil, inputErrorf("experiment: %d ways, but only %s a source to draw from", w, plural.Count(len(pool), "class has", "classes have"))
	}
	return pool, nil
}

// WarnSmallClasses is the code of the warning (Config.Warn) of an N-way
// run whose default pool leaves out classes with fewer examples than an
// episode needs of each class; the warning's classes are those left out.
const WarnSmallClasses = "small-classes"

// checkPoolSources returns an error when a class of the manifest's pool
// has no source among sources, the classes of the sources of the
// directory dir (an N-way episode's classes are classes with a source,
// whose own sources it leaves out).
func checkPoolSources(man *Manifest, sources []int, dir string) error {
	for _, name := range man.Targets {
		if !slices.Contains(sources, classIndex(man.Classes, name)) {
			return inputErrorf("experiment: class %q of the pool has no source in %s", name, dir)
		}
	}
	return nil
}

// WarnNoSources is the code of the warning (Config.Warn) of an N-way run
// with a number of ways that takes every class with a source into an
// episode: such an episode's H holds no source score, so that its methods
// transfer nothing.
const WarnNoSources = "no-sources"

// noSourceWays returns the numbers of ways of the manifest's N-way grid
// whose episodes can hold no source (every source's class among the
// episode's, which leaves them all out), in the grid's order; sources are
// the classes of the sources, one entry a source.
func noSourceWays(man *Manifest, sources []int) []int {
	per := map[int]int{}
	for _, c := range sources {
		per[c]++
	}
	var counts []int // the sources of each class of the pool, most first
	for _, name := range man.Targets {
		counts = append(counts, per[classIndex(man.Classes, name)])
	}
	slices.SortFunc(counts, func(a, b int) int { return b - a })
	var ways []int
	for _, w := range man.Ways {
		left := len(sources)
		for _, n := range counts[:min(w, len(counts))] {
			left -= n
		}
		if left <= 0 {
			ways = append(ways, w)
		}
	}
	return ways
}

// noSourceWarning returns the warning (code WarnNoSources) of the N-way
// manifest man's numbers of ways whose episodes can hold no source of the
// sources directory dir, whose sources are of the classes sources, one
// entry a source (noSourceWays), or "" when every episode holds one. It
// needs no source trained: Run gives it before training any.
func noSourceWarning(man *Manifest, sources []int, dir string) string {
	ways := noSourceWays(man, sources)
	if len(ways) == 0 {
		return ""
	}
	list := make([]string, len(ways))
	for i, w := range ways {
		list[i] = strconv.Itoa(w)
	}
	return fmt.Sprintf("--ways %s: an episode of %s can hold every class with a source (%s in %s), whose own sources it leaves out: its H then holds no source score, and its methods transfer nothing; give fewer ways, or a --targets pool that leaves out classes with a source",
		strings.Join(list, ","), plural.Count(ways[0], "class", "classes"), plural.Count(len(sources), "source", "sources"), dir)
}

// episode draws group g's episode.
func (r *runner) episode(g group) episode {
	return drawEpisode(r.man.Seed, g, r.grid.targets, func(c int) []int { return r.posRows[c] }, r.man.TestPerClass)
}

// episodeData is an episode's training and test sets.
type episodeData struct {
	ep          episode
	names       []string // the episode's class names, in its order
	train, test method.Data
	trainY      method.ClassLabels
	testY       []int
	candidates  int
	// srcScales are the statistics of H's sources' scores over their own
	// training rows (method.Extra.SourceScales), nil when the sources
	// directory does not record them.
	srcScales *standardize.Scaler
}

// buildEpisode draws episode g and assembles its matrices: X the dataset's
// features, H the scores of every source whose class is not one of the
// episode's, the labels the positions of the classes in the episode.
func (r *runner) buildEpisode(g group) *episodeData {
	ep := r.episode(g)
	cols := otherSources(r.srcClass, ep.classes)
	ed := &episodeData{ep: ep, candidates: r.x.Cols + len(cols)}
	var trainRows, testRows []int
	var trainY []int
	for k, c := range ep.classes {
		ed.names = append(ed.names, r.man.Classes[c])
		trainRows = append(trainRows, ep.train[k]...)
		testRows = append(testRows, ep.test[k]...)
		for range ep.train[k] {
			trainY = append(trainY, k)
		}
		for range ep.test[k] {
			ed.testY = append(ed.testY, k)
		}
	}
	ed.train = method.Data{X: r.features(trainRows, nil), H: r.scores(trainRows, cols)}
	ed.test = method.Data{X: r.features(testRows, nil), H: r.scores(testRows, cols)}
	ed.trainY = method.ClassLabels{Names: ed.names, Y: trainY}
	if len(cols) > 0 {
		ed.srcScales = r.ix.ScoreScales(cols)
	}
	return ed
}

// otherSources returns the sources (positions in srcClass, which gives
// each source's class) whose class is not one of classes: the columns of
// an episode's H.
func otherSources(srcClass, classes []int) []int {
	var cols []int
	for j, c := range srcClass {
		if !slices.Contains(classes, c) {
			cols = append(cols, j)
		}
	}
	return cols
}

// fitEpisode fits the multi-class learner name (method.NewMulti) on episode
// g's training set and evaluates it on the test set. A failure of the
// method is recorded in the record; the error is returned only when ctx is
// done.
func (r *runner) fitEpisode(ctx context.Context, g group, ed *episodeData, name string) (*Record, error) {
	rec := &Record{
		RunID: r.man.RunID, Dataset: r.grid.dataset, Ways: g.Ways, Positives: g.Positives, Split: g.Split, Method: name,
		Classes: ed.names, ClassIdx: ed.ep.classes, TestPerClass: r.man.TestPerClass,
		Candidates: ed.candidates,
	}
	m, err := method.NewMulti(name)
	if err != nil {
		panic(err) // the names were checked
	}
	extra := method.Extra{Seed: methodSeed(r.man.Seed, g, name), SourceScales: ed.srcScales}
	if mm, ok := m.(method.OneVsRest); ok {
		if mm.Binary.Needs().Unlabelled {
			extra.Unlabelled = &method.Data{X: ed.test.X, H: ed.test.H}
		}
		if mm.Binary.Needs().Oracle {
			y := make([]float64, len(ed.testY))
			for i, k := range ed.testY {
				y[i] = float64(k)
			}
			extra.Oracle = &method.Data{X: ed.test.X, H: ed.test.H, Y: y}
		}
	}
	return recordFit(ctx, rec, func(ctx context.Context) (method.MultiModel, error) {
		return m.FitMulti(ctx, ed.train, ed.trainY, extra)
	}, func(model method.MultiModel) error { return evaluateEpisode(rec, model, ed) })
}

// evaluateEpisode fills rec with model's test accuracy, balanced accuracy
// and hyperparameters, or returns an error when the model fails to predict
// or yields a non-finite score or hyperparameter.
func evaluateEpisode(rec *Record, model method.MultiModel, ed *episodeData) error {
	scores, err := model.Scores(ed.test)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	if err := checkScores(scores.RawMatrix().Data); err != nil {
		return err
	}
	pred, err := model.Predict(ed.test)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	if rec.Accuracy, rec.BalancedAccuracy, _, err = metric.ClassAccuracy(pred, ed.testY, len(ed.names)); err != nil {
		return err
	}
	rec.Hyperparameters, err = finiteHyper(model.Hyperparameters())
	return err
}
