package experiment

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/buildinfo"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// Summary describes what a Run did.
type Summary struct {
	// File is the results file; "" when Run wrote none: for a shard that
	// holds no cell of the grid and would have trained its own sources,
	// Run neither trains them nor writes its run directory.
	File string
	// Cells counts the cells of the run's shard; Present those found in
	// File when the run started; Finished those this run added, of which
	// Failed carry an error.
	Cells, Present, Finished, Failed int
	// Failures groups the failed cells in File — those present when the
	// run started and those it added — by method and error message (the
	// class of a one-against-the-rest fit left out, so that an N-way
	// method's classes that failed alike are one group), most frequent
	// first.
	Failures []Failure
}

// Failure is a method, an error message and the number of the method's
// failed cells whose records carry it — with the class of a
// one-against-the-rest fit left out of the message (method.WithoutClass):
// the records keep each cell's whole message.
type Failure struct {
	Method, Message string
	Cells           int
}

// FailedCells returns the number of failed cells in the summary's results
// file: the sum of its Failures.
func (s *Summary) FailedCells() int {
	n := 0
	for _, f := range s.Failures {
		n += f.Cells
	}
	return n
}

// failureCounts counts failed cells by method and error message, the
// class of a one-against-the-rest fit left out.
type failureCounts map[[2]string]int

// add counts rec if it failed.
func (c failureCounts) add(rec *Record) {
	if rec.Error != "" {
		c[[2]string{rec.Method, method.WithoutClass(rec.Error)}]++
	}
}

// list returns the counts as Failures, most frequent first, then by method
// and message.
func (c failureCounts) list() []Failure {
	var out []Failure
	for k, n := range c {
		out = append(out, Failure{k[0], k[1], n})
	}
	slices.SortFunc(out, func(a, b Failure) int {
		if a.Cells != b.Cells {
			return b.Cells - a.Cells
		}
		return cmp.Or(strings.Compare(a.Method, b.Method), strings.Compare(a.Message, b.Message))
	})
	return out
}

// Run runs the leave-one-class-out protocol (docs/design.md §6) on cfg.Data, or
// the part of it that cfg.Shard selects, and appends one Record per cell
// to the results file in cfg.Out: results.jsonl, or
// results-shard-I-of-N.jsonl for a shard.
//
// The negative pool and the sources come from cfg.Sources, or are drawn
// and trained into cfg.Out/sources (source.TrainAll, itself resumable).
// All sources are scored once on all the examples; a cell's H is the
// rows and columns it needs: the target's own source is left out.
//
// The work is spread over groups — (target, positives, noise, split) —
// whose training and test sets are drawn by streams of the seed and the
// group only (see drawSplit and noiseColumns), so that every draw of a
// group gives the same sets, and on which every method then runs. Only the
// rows those sets use are read, and the sources are scored on them alone. A method's fit sees the training set; a transductive
// method (Needs().Unlabelled) also sees the test inputs, and an oracle
// (Needs().Oracle) the labelled test set. A cell whose fit or prediction
// fails, or yields a non-finite value, is recorded with its Error set (and
// not retried by a rerun); the Summary's Failures count the failed cells
// of the results file by method and message.
//
// A shard that holds no cell of the grid (Config.Shard), and would train
// its own sources, trains none and writes nothing: its Summary has no
// File. Its Config.Out is checked first, as any run's (a sources
// directory, or a results file without run.json, is refused).
//
// Run is resumable: it first writes cfg.Out/run.json (the Manifest) or,
// when there is one, checks that it describes the same run (otherwise it
// returns an error naming the setting that differs); it then reads the
// results file, skips the cells already there, cuts off a partial last
// line (a write cut short by a kill), and appends. Lines are written whole,
// one write call each, and the file is synced every few seconds and at the
// end: a killed run loses only the cells in flight. The same seed gives
// the same records (but for fit_seconds) on any number of workers, shards
// and restarts.
//
// Run returns an error, with the summary of the cells done so far, when ctx
// is done (ctx's error) or writing fails; and an error without a summary
// when the sources cannot be trained, and for invalid settings or inputs
// (errors matching ErrInput), detected before any cell is run. A ctx done
// before Run starts gives ctx's error without a summary (after the checks of
// cfg's own settings), and nothing is read or written.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	methods, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // done before it started: nothing read or written
	}
	f := cfg.Data
	logf := func(format string, a ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", a...)
		}
	}
	digest, err := source.DataDigest(f)
	if err != nil {
		return nil, inputError{err}
	}
	neg, ix, err := negativePlan(&cfg, digest)
	if err != nil {
		return nil, err
	}
	if n := seedNote(ix, cfg.Sources, cfg.Seed); n != "" {
		if cfg.Note != nil {
			cfg.Note(n)
		} else {
			logf("note: %s", n)
		}
	}
	warn := func(code, message string, classes []string) {
		if cfg.Warn != nil {
			cfg.Warn(code, message, classes)
		} else {
			logf("warning: %s", message)
		}
	}
	counts := f.ClassCounts()
	var targets []string
	if cfg.Protocol == ProtocolNWay {
		targets, err = choosePool(&cfg, neg, counts, warn)
	} else {
		targets, err = chooseTargets(&cfg, neg, counts, logf)
	}
	if err != nil {
		return nil, err
	}
	man := newManifest(&cfg, methods, neg, targets, digest)
	if err := man.checkGrid(); err != nil {
		return nil, inputErrorf("experiment: %v", err)
	}
	g := newGrid(man)
	groups := g.groups(cfg.Shard)
	if err := checkNoise(&cfg, g, groups, counts, neg); err != nil {
		return nil, err
	}
	advice := "give it with --sources, and another directory as --out"
	if cfg.Sources != "" {
		advice = "give another directory as --out"
	}
	fresh, err := checkNewOut(cfg.Out, resultsName(cfg.Shard), true, advice)
	if err != nil {
		return nil, err
	}
	if fresh && len(groups) == 0 && ix == nil {
		// A shard that holds no cell of the grid, its --out checked as
		// the others' are: it has no sources to train (which may take
		// hours) and nothing to write, nor a run.json to check (a run
		// that has not written one yet is no run of this shard's).
		return &Summary{}, nil
	}
	// The class of each source: those the plan trains, or the index's.
	sourceClasses := func() []int {
		if ix == nil {
			return neg.SourceClasses(counts)
		}
		var sources []int
		for _, e := range ix.Sources {
			sources = append(sources, e.Class)
		}
		return sources
	}
	if cfg.Check {
		return &Summary{}, checkOut(&cfg, man, ix, sourceClasses)
	}
	// Before the sources are trained and the cells run, after the
	// configuration's and the data's errors (input errors), which a
	// write's would hide: the message of synth's and train-sources' (it
	// was lockRun's MkdirAll's, "mkdir RUN: read-only file system").
	if err := atomicfile.CheckDir(cfg.Out); err != nil {
		return nil, err
	}
	lock, err := lockRun(cfg.Out)
	if errors.Is(err, dirlock.ErrLocked) && cfg.Shard.N > 1 {
		// The shards of an array all given one --out: the holder may be
		// another shard, which a wait would not help.
		return nil, fmt.Errorf("%w; if it is another shard of this run, give each shard its own run directory (as --out %s)", err, filepath.Join(filepath.Dir(filepath.Clean(cfg.Out)), fmt.Sprintf("shard-%d", cfg.Shard.I)))
	}
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	old, srcDir, absDir, err := checkOutBeforeSources(&cfg, man, ix, sourceClasses)
	if err != nil {
		return nil, err
	}
	if man.Protocol != ProtocolNWay {
		if note, small := plannedSmallTests(man, counts, len(neg.Target)); note != "" {
			warn(WarnSmallTestSets, note, small)
		}
	} else if w := noSourceWarning(man, sourceClasses(), absDir); w != "" {
		// Said before the sources are trained, which may take long.
		warn(WarnNoSources, w, nil)
	}
	tc := ownSourcesConfig(&cfg)
	if ix == nil {
		_, serr := os.Stat(srcDir)
		resumed := serr == nil
		if resumed {
			logf("reusing the sources in %s, training any that are missing", srcDir)
		} else {
			logf("training the sources into %s", srcDir)
		}
		opts := source.RunOptions{Workers: cfg.Workers, Progress: cfg.SourceProgress, DataSHA256: digest}
		res, err := source.TrainAll(ctx, f, neg, srcDir, tc, opts)
		if errors.Is(err, source.ErrOtherJob) {
			return nil, inputError{err}
		}
		if err != nil {
			return nil, err
		}
		if resumed {
			logf("sources in %s: %d trained, %d reused", srcDir, res.Trained, res.Reused)
		}
		ix = res.Index
	}
	set, err := ix.Load(srcDir)
	if err != nil {
		return nil, inputError{err}
	}
	for _, w := range ix.Warnings(filepath.Join(srcDir, source.IndexFile)) {
		warn(w.Code, w.Message, w.Classes)
	}
	man.Sources = *ix.ID(absDir)
	man.RunID = man.ID()
	if err := sameRun(cfg.Out, old, man, true); err != nil {
		return nil, err
	}
	if old == nil {
		if err := man.write(cfg.Out); err != nil {
			return nil, err
		}
	}

	r, err := newRunner(&cfg, man, g, groups, neg, ix, set)
	if err != nil {
		return nil, err
	}
	return r.run(ctx, logf)
}

// checkOutBeforeSources returns what Run refuses of cfg.Out for the run
// man before it trains or reads its sources (Run, under the directory's
// lock; checkOut, without it: run.json is written whole): a directory of
// another run (sameRun, with sourcesHint's advice), of a run that read its
// sources from a directory trained otherwise than Run trains its own
// (sourcesElsewhere, ix nil), and for the N-way protocol a pool of classes
// the sources leave too few of (checkPoolSources; sourceClasses gives the
// class of each source). It returns the run's manifest in cfg.Out (nil
// when there is none), the sources directory and its absolute path.
func checkOutBeforeSources(cfg *Config, man *Manifest, ix *source.Index, sourceClasses func() []int) (old *Manifest, srcDir, absDir string, err error) {
	if old, err = existingManifest(cfg.Out); err != nil {
		return nil, "", "", inputError{err}
	}
	if err := sameRun(cfg.Out, old, man, false); err != nil {
		return nil, "", "", sourcesHint(err, cfg, old, man)
	}
	srcDir = cfg.Sources
	if ix == nil {
		srcDir = filepath.Join(cfg.Out, "sources")
		if err := sourcesElsewhere(cfg, old, ownSourcesConfig(cfg)); err != nil {
			return nil, "", "", err
		}
	}
	if absDir, err = filepath.Abs(srcDir); err != nil {
		return nil, "", "", err
	}
	if man.Protocol == ProtocolNWay {
		if err := checkPoolSources(man, sourceClasses(), absDir); err != nil {
			return nil, "", "", err
		}
	}
	return old, srcDir, absDir, nil
}

// checkOut is Run's check of cfg.Out for the run man (Config.Check): what
// Run refuses of it before it runs a cell (checkOutBeforeSources; with the
// index ix of cfg.Sources, a run of other sources too), writing nothing.
func checkOut(cfg *Config, man *Manifest, ix *source.Index, sourceClasses func() []int) error {
	old, _, absDir, err := checkOutBeforeSources(cfg, man, ix, sourceClasses)
	if err != nil || ix == nil {
		return err
	}
	m := *man
	m.Sources = *ix.ID(absDir)
	m.RunID = m.ID()
	return sameRun(cfg.Out, old, &m, true)
}

// ownSourcesConfig returns the settings of the sources Run trains into
// cfg.Out/sources (no Config.Sources): source.DefaultTrainConfig seeded by
// the run's seed.
func ownSourcesConfig(cfg *Config) source.TrainConfig {
	tc := source.DefaultTrainConfig()
	tc.Seed = cfg.Seed
	return tc
}

// readElsewhere returns the directory that the run of old (nil: a new
// run) read its sources from when cfg, which resumes it, gives no
// Config.Sources and that directory is not the run directory's own
// (cfg.Out/sources, where cfg would train them); "" otherwise.
func readElsewhere(cfg *Config, old *Manifest) string {
	if cfg.Sources != "" || old == nil || old.Sources.Dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(filepath.Join(cfg.Out, "sources")); err != nil || filepath.Clean(old.Sources.Dir) == abs {
		return ""
	}
	return old.Sources.Dir
}

// sourcesHint adds to err, sameRun's refusal of man's run in cfg.Out
// (whose manifest is old), the directory the run read its sources from
// when giving it as --sources would resume the run: cfg gives no
// Config.Sources, the directory was given as --sources (it is not some
// run's own RUN/sources, which a merged run or a copied run directory
// records: runSources), and the refusal is of the negative plan alone —
// what a --sources left out of the command changes (the plan is then
// drawn with the run's --seed, not the directory's), the targets chosen
// with it aside. Another seed, say, would be refused with --sources too,
// and the refusal said it.
func sourcesHint(err error, cfg *Config, old, man *Manifest) error {
	d := readElsewhere(cfg, old)
	if d == "" || runSources(d) {
		return err
	}
	a, _ := json.Marshal(old.Negatives)
	b, _ := json.Marshal(man.Negatives)
	if bytes.Equal(a, b) {
		return err
	}
	with := *man
	with.Negatives, with.Targets = old.Negatives, old.Targets
	if old.differs(&with, false) != "" {
		return err
	}
	return fmt.Errorf("%w; the run read its negative pool and sources from %s, and --sources is not given: give --sources %s to resume it", err, d, d)
}

// runSources reports whether the sources directory dir is a run's own,
// RUN/sources of a run directory RUN (IsRunDir), where the run trained
// them: a run
// that records it read them there (the run itself, a merge of its shards,
// a copy of it) was not given them as --sources.
func runSources(dir string) bool {
	return filepath.Base(filepath.Clean(dir)) == "sources" && IsRunDir(filepath.Dir(filepath.Clean(dir)))
}

// sourcesElsewhere returns an input error when the run of old (nil: a new
// run) is resumed by cfg without Config.Sources, to train its sources into
// cfg.Out/sources with tc, while it read them from another directory
// (readElsewhere), which still holds those very sources (their identity is
// old's), trained with settings other than tc (train-sources's flags):
// sources trained here would not be the run's, and the resume, having
// trained every one of them, would be refused — after hours, on a large
// dataset, leaving them in cfg.Out. The error names that directory, for
// --sources. Otherwise (the run trained its sources here, cfg.Out/sources
// holds sources already, the directory is gone or holds others, or tc
// trains the same sources again) it returns nil.
func sourcesElsewhere(cfg *Config, old *Manifest, tc source.TrainConfig) error {
	d := readElsewhere(cfg, old)
	if d == "" {
		return nil
	}
	if _, err := source.ReadIndex(filepath.Join(cfg.Out, "sources")); err == nil {
		return nil // reused, or refused, without training
	}
	ix, err := source.ReadIndex(d)
	if err != nil || ix.Identity() != old.Sources.SHA256 {
		return nil
	}
	if was, err := ix.Config(); err != nil || reflect.DeepEqual(was, tc) {
		return nil
	}
	return inputErrorf("experiment: %s holds a run that read its sources from %s, trained with other settings (those of its %s) than experiment trains its own with: give --sources %s to resume it",
		cfg.Out, d, source.IndexFile, d)
}

// seedNote returns, when seed (the run's) differs from the seeds that drew
// the negative pool of the sources directory dir (index ix) or trained its
// sources, a sentence saying that the pool and the sources are dir's and
// what seed seeds; "" when they agree or ix is nil (the sources are
// trained here, with seed).
func seedNote(ix *source.Index, dir string, seed uint64) string {
	if ix == nil || (ix.Seed == seed && ix.Negatives.Seed == seed) {
		return ""
	}
	from := fmt.Sprintf("seed %d", ix.Seed)
	if ix.Negatives.Seed != ix.Seed {
		from = fmt.Sprintf("seeds %d (negative pool) and %d (training)", ix.Negatives.Seed, ix.Seed)
	}
	return fmt.Sprintf("the negative pool and the sources are those of %s, drawn and trained with %s; seed %d seeds the rest (the splits, the noise and the methods), and run.json records both", dir, from, seed)
}

// negativePlan returns the run's negative pool: the sources directory's,
// with its index, or, without one, a new plan (and a nil index). digest is
// the data's source.DataDigest.
func negativePlan(cfg *Config, digest string) (*source.Negatives, *source.Index, error) {
	f := cfg.Data
	if cfg.Sources == "" {
		fraction := cfg.NegativeFraction
		if fraction == 0 {
			fraction = source.DefaultNegativeFraction
		}
		neg, err := source.PlanNegatives(f, cfg.NegativeClasses, fraction, cfg.Seed)
		if err != nil {
			return nil, nil, inputError{err}
		}
		return neg, nil, nil
	}
	ix, err := source.ReadIndex(cfg.Sources)
	if err != nil {
		return nil, nil, inputError{err}
	}
	if err := ix.CheckDigest(f, digest); err != nil {
		return nil, nil, inputError{fmt.Errorf("experiment: sources %s: %w", cfg.Sources, err)}
	}
	neg := ix.Negatives
	if len(cfg.NegativeClasses) > 0 {
		names := neg.Names(f.Classes)
		want := slices.Clone(cfg.NegativeClasses)
		slices.Sort(want)
		slices.Sort(names)
		if !slices.Equal(want, names) {
			return nil, nil, inputErrorf("experiment: negative classes %v, but the sources in %s were trained against %v", cfg.NegativeClasses, cfg.Sources, names)
		}
	}
	if cfg.NegativeFraction != 0 && (neg.Named || neg.Fraction != cfg.NegativeFraction) {
		return nil, nil, inputErrorf("experiment: negative fraction %v, but the sources in %s were trained against another plan (fraction %v, named %v)", cfg.NegativeFraction, cfg.Sources, neg.Fraction, neg.Named)
	}
	return neg, ix, nil
}

// chooseTargets returns the names of the target classes (see
// Config.Targets), in class order; counts are cfg.Data's class counts.
func chooseTargets(cfg *Config, neg *source.Negatives, counts []int, logf func(string, ...any)) ([]string, error) {
	f := cfg.Data
	need := classNeeds(slices.Max(cfg.Positives), 1)
	if len(neg.Target) <= TrainNegatives {
		return nil, inputErrorf("experiment: the negative pool leaves %s, want more than %d (the training negatives) to have a test set", plural.Count(len(neg.Target), "target negative", "target negatives"), TrainNegatives)
	}
	var targets []string
	most := 0 // the examples of the largest class skipped
	if len(cfg.Targets) == 0 {
		var skipped []string
		for c, name := range f.Classes {
			switch {
			case neg.IsHeldOut(c) || counts[c] == 0:
			case !hasNeeds(counts[c], need):
				skipped, most = append(skipped, fmt.Sprintf("%s (%d)", name, counts[c])), max(most, counts[c])
			default:
				targets = append(targets, name)
			}
		}
		if len(skipped) > 0 {
			logf("skipping %s with fewer than %d examples: %v", plural.Count(len(skipped), "class", "classes"), need, skipped)
		}
	}
	var named []int // in class order: the order given is not the run's
	for _, name := range cfg.Targets {
		c, err := targetClass(f, neg, name)
		if err != nil {
			return nil, err
		}
		if !hasNeeds(counts[c], need) {
			return nil, inputErrorf("experiment: target %q has %s, want at least %d (the largest number of positives and a test positive)", name, plural.Count(counts[c], "example", "examples"), need)
		}
		named = append(named, c)
	}
	slices.Sort(named)
	for _, c := range named {
		targets = append(targets, f.Classes[c])
	}
	if len(targets) == 0 {
		return nil, inputErrorf("experiment: no class can be a target: each needs at least %d examples (the largest number of positives and a test positive), and the largest has %s", need, plural.Count(most, "example", "examples"))
	}
	return targets, nil
}

// newManifest returns the manifest of cfg's run, without its sources;
// methods are the canonical specs of cfg.Methods (Config.check), digest
// the data's source.DataDigest.
func newManifest(cfg *Config, methods []string, neg *source.Negatives, targets []string, digest string) *Manifest {
	f := cfg.Data
	name := cfg.Name
	if name == "" {
		name = filepath.Base(f.Dir)
	}
	r, c := f.Dims()
	build := buildinfo.ReadIdentified()
	sz, _ := protocolSizes(cfg.Protocol) // checked
	m := &Manifest{
		Format:          ManifestFormat,
		Version:         ManifestVersion,
		GreedytlVersion: build.ID(),
		Build:           &build,
		Dataset:         DatasetInfo{Name: name, Path: f.Dir, SHA256: digest, Examples: r, Features: c},
		Classes:         f.Classes,
		Groups:          f.Groups,
		Negatives:       neg,
		Targets:         targets,
		Positives:       cfg.Positives,
		Splits:          cfg.Splits,
		Noise:           cfg.Noise,
		Methods:         methods,
		Seed:            cfg.Seed,
		Protocol:        cfg.Protocol,

		TrainNegatives:   sz.trainNeg,
		MaxTestPositives: sz.testPos,
		MaxTestNegatives: sz.testNeg,
	}
	if m.Protocol == "" {
		m.Protocol = ProtocolStandard
	}
	if m.Protocol == ProtocolNWay {
		m.Ways, m.TestPerClass = cfg.Ways, cfg.testPerClass()
	}
	if cfg.Shard.N > 1 {
		s := cfg.Shard
		m.Shard = &s
	}
	return m
}

// sameRun returns an error when the run directory dir, whose manifest is
// old (nil: a new directory), holds another run than man.
func sameRun(dir string, old, man *Manifest, compareSources bool) error {
	if old == nil {
		return nil
	}
	if d := old.differs(man, compareSources); d != "" {
		return inputErrorf("experiment: %s holds a run with other settings (%s): resume it with the same settings, or use another run directory", dir, d)
	}
	if a, b := old.shardOf(), man.shardOf(); a != b {
		switch {
		case a == shard.Shard{}:
			return inputErrorf("experiment: %s holds the whole run (run without --shard), not shard %v: give each shard its own run directory", dir, b)
		case b == shard.Shard{}:
			return inputErrorf("experiment: %s holds shard %v of the run, not the whole run: run without --shard in another directory (the shards' merge, greedytl merge, is one)", dir, a)
		}
		return inputErrorf("experiment: %s holds shard %v of the run, not shard %v: give each shard its own run directory", dir, a, b)
	}
	if old.RunID == "" {
		return inputErrorf("experiment: %s holds a run made before records carried their run's identity (its run.json has no run_id): records added now could not be told from another run's; resume it with the greedytl that made it (%s), or start a new run directory", dir, old.GreedytlVersion)
	}
	return nil
}

// runner runs the cells of one run.
type runner struct {
	cfg  *Config
	man  *Manifest
	grid *grid
	// groups are the groups of the run's shard, in grid order.
	groups []group
	set    *source.Set
	// x holds the features of the rows the cells to run use, and h every
	// source's score on them (columns: the sources in index order); at[row]
	// is a dataset row's place in both.
	x  *dataset.FeatureRows
	h  *mat.Dense
	at map[int]int
	// srcClass is the class of each source; srcCols[t] lists the sources
	// a target t uses: all but its own.
	srcClass []int
	srcCols  map[int][]int
	// posRows[t] lists the rows of target t; negRows the target
	// negatives'.
	posRows map[int][]int
	negRows []int
	// failures counts the failed cells of the results file.
	failures failureCounts
	// ix is the sources' index: an episode's greedytl-nway standardises
	// H with its sources' score statistics (source.Index.ScoreScales).
	ix *source.Index
}

// newRunner prepares the per-target tables of the run of man, whose grid
// is g (newGrid) and whose shard has the groups groups (g.groups).
func newRunner(cfg *Config, man *Manifest, g *grid, groups []group, neg *source.Negatives, ix *source.Index, set *source.Set) (*runner, error) {
	r := &runner{
		cfg: cfg, man: man, grid: g, groups: groups, set: set,
		srcCols: make(map[int][]int), posRows: make(map[int][]int), negRows: neg.Target,
	}
	if set.Len() != len(ix.Sources) {
		return nil, inputErrorf("experiment: the sources directory changed while it was read: %d models for %d index entries", set.Len(), len(ix.Sources))
	}
	for j, e := range ix.Sources {
		if set.Name(j) != e.Name {
			return nil, inputErrorf("experiment: the sources directory changed while it was read: model %d is %q, the index says %q", j, set.Name(j), e.Name)
		}
		r.srcClass = append(r.srcClass, e.Class)
	}
	r.ix = ix
	for _, t := range r.grid.targets {
		r.posRows[t] = cfg.Data.Rows(t)
		if r.grid.ways != nil {
			continue // an episode's sources are chosen per episode
		}
		for j, c := range r.srcClass {
			if c != t {
				r.srcCols[t] = append(r.srcCols[t], j)
			}
		}
	}
	return r, nil
}

// job is a group and the methods still to run on it.
type job struct {
	g       group
	methods []string
}

// run runs the shard's cells that the results file does not hold yet:
// it plans them, reads the rows they use and scores the sources on those
// rows, and runs them.
func (r *runner) run(ctx context.Context, logf func(string, ...any)) (*Summary, error) {
	sum, jobs, app, err := r.plan(logf)
	if err != nil {
		return nil, err
	}
	if err := r.load(jobs, logf); err != nil {
		app.close()
		return nil, err
	}
	err = r.do(ctx, sum, jobs, app)
	if cerr := app.close(); err == nil {
		err = cerr
	}
	sum.Failures = r.failures.list()
	return sum, err
}

// plan reads the shard's results file and returns the summary so far, the
// groups with cells still to run, and the appender of their records.
func (r *runner) plan(logf func(string, ...any)) (*Summary, []job, *appender, error) {
	cfg := r.cfg
	sum := &Summary{File: filepath.Join(cfg.Out, resultsName(cfg.Shard))}
	groups := r.groups
	sum.Cells = len(groups) * len(r.grid.methods)
	inShard := make(map[group]bool, len(groups))
	for _, g := range groups {
		inShard[g] = true
	}
	done := make(map[Key]bool)
	r.failures = failureCounts{}
	complete, partial, err := scanResults(sum.File, func(_ []byte, rec *Record, lineno int) error {
		k := rec.Key()
		g := groupOf(k)
		if _, ok := r.grid.order(k); !ok || !inShard[g] {
			return inputErrorf("%s:%d: cell %v is not in this run's grid", sum.File, lineno, k)
		}
		if err := checkRunID(rec, r.man.RunID); err != nil {
			return inputErrorf("%s:%d: %v", sum.File, lineno, err)
		}
		if done[k] {
			return inputErrorf("%s:%d: cell %v is recorded twice", sum.File, lineno, k)
		}
		done[k] = true
		r.failures.add(rec)
		return nil
	})
	if errors.As(err, new(badLine)) {
		return nil, nil, nil, inputErrorf("%w: remove the line, and the resumed run computes its cell again", err)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if partial {
		logf("%s: cutting off a partial last line (a write cut short)", sum.File)
	}
	sum.Present = len(done)
	if sum.Present > 0 {
		logf("resuming: %d of %s already done", sum.Present, plural.Count(sum.Cells, "cell", "cells"))
	}
	var jobs []job
	for _, g := range groups {
		j := job{g: g}
		for _, m := range r.grid.methods {
			if !done[g.cell(r.grid.dataset, m)] {
				j.methods = append(j.methods, m)
			}
		}
		if len(j.methods) > 0 {
			jobs = append(jobs, j)
		}
	}
	app, err := openAppender(sum.File, complete)
	if err != nil {
		return nil, nil, nil, err
	}
	return sum, jobs, app, nil
}

// scoreChunk bounds the rows converted to float64 at a time for scoring.
const scoreChunk = 1024

// load reads the features of the rows the jobs' training and test sets use
// — only those — and scores every source on them. The splits are drawn
// here to find the rows and again by build, one group at a time, rather
// than kept for the whole run; groups that differ only in their noise
// share a split, drawn here once.
func (r *runner) load(jobs []job, logf func(string, ...any)) error {
	lists := make([][]int, 0, len(jobs))
	drawn := make(map[group]bool, len(jobs))
	for _, j := range jobs {
		g := j.g
		g.Noise = 0 // a split does not depend on the noise
		if drawn[g] {
			continue
		}
		drawn[g] = true
		if g.Ways > 0 {
			e := r.episode(g)
			lists = append(lists, slices.Concat(e.train...), slices.Concat(e.test...))
			continue
		}
		s := r.split(g)
		lists = append(lists, s.trainPos, s.trainNeg, s.testPos, s.testNeg)
	}
	rows, at := dataset.RowSet(lists...)
	r.at = at
	if len(rows) == 0 {
		return nil
	}
	x, err := r.cfg.Data.ReadRows(rows)
	if err != nil {
		return err
	}
	r.x = x
	logf("read %s (%.1f MB of features) for %s of cells; scoring %s on them", plural.Count(len(rows), "row", "rows"), float64(x.Bytes())/1e6, plural.Count(len(jobs), "group", "groups"), plural.Count(r.set.Len(), "source", "sources"))
	r.h = mat.NewDense(len(rows), r.set.Len(), nil)
	for lo := 0; lo < len(rows); lo += scoreChunk {
		n := min(scoreChunk, len(rows)-lo)
		chunk := mat.NewDense(n, x.Cols, nil)
		for k := range n {
			x.RowTo(chunk.RawRowView(k), lo+k)
		}
		h, err := r.set.Scores(chunk)
		if err != nil {
			// A score's row counts the chunk's gathered rows: name the
			// data set's row, as scoring it whole would.
			var se *source.ScoreError
			if errors.As(err, &se) {
				se.Row = rows[lo+se.Row]
			}
			return inputError{err}
		}
		r.h.Slice(lo, lo+n, 0, r.set.Len()).(*mat.Dense).Copy(h)
	}
	return nil
}

// do runs the jobs on cfg.Workers workers, appending each cell's record.
func (r *runner) do(ctx context.Context, sum *Summary, jobs []job, app *appender) error {
	cfg := r.cfg
	var mu sync.Mutex
	progress := func(rec *Record) {
		mu.Lock()
		defer mu.Unlock()
		if rec != nil {
			sum.Finished++
			if rec.Error != "" {
				sum.Failed++
			}
			r.failures.add(rec)
		}
		if cfg.Progress != nil {
			cfg.Progress(sum.Present+sum.Finished, sum.Cells)
		}
	}
	progress(nil)
	err := parallel.For(ctx, len(jobs), cfg.Workers, func(ctx context.Context, k int) error {
		j := jobs[k]
		var d *groupData
		var ed *episodeData
		if j.g.Ways > 0 {
			ed = r.buildEpisode(j.g)
		} else {
			d = r.build(j.g)
		}
		for _, m := range j.methods {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			var rec *Record
			var err error
			if ed != nil {
				rec, err = r.fitEpisode(ctx, j.g, ed, m)
			} else {
				rec, err = r.fit(ctx, j.g, d, m)
			}
			if err != nil {
				return err
			}
			if err := app.append(rec); err != nil {
				return err
			}
			progress(rec)
		}
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	return err
}

// split draws group g's training and test sets.
func (r *runner) split(g group) split {
	return drawSplit(r.man.Seed, g, r.posRows[g.Target], r.negRows, r.man.sizes())
}

// groupData is a group's training and test sets.
type groupData struct {
	train, test        method.Data
	trainNeg           int
	testPos, testNeg   int
	sources            []int // the class of each column of H
	features, noiseDim int
}

// build draws group g's sets and assembles their matrices: X is the
// dataset's features with g.Noise noise columns appended, H the scores of
// the target's sources, Y +1 for the target's rows and −1 for the target
// negatives'.
func (r *runner) build(g group) *groupData {
	s := r.split(g)
	trainRows := slices.Concat(s.trainPos, s.trainNeg)
	testRows := slices.Concat(s.testPos, s.testNeg)
	nTrain, nTest := noiseColumns(r.man.Seed, g, len(trainRows), len(testRows))
	cols := r.srcCols[g.Target]
	d := r.x.Cols
	gd := &groupData{
		trainNeg: len(s.trainNeg), testPos: len(s.testPos), testNeg: len(s.testNeg),
		features: d, noiseDim: g.Noise,
	}
	for _, j := range cols {
		gd.sources = append(gd.sources, r.srcClass[j])
	}
	gd.train = method.Data{
		X: r.features(trainRows, nTrain),
		H: r.scores(trainRows, cols),
		Y: dataset.SignedLabels(len(s.trainPos), len(s.trainNeg)),
	}
	gd.test = method.Data{
		X: r.features(testRows, nTest),
		H: r.scores(testRows, cols),
		Y: dataset.SignedLabels(len(s.testPos), len(s.testNeg)),
	}
	return gd
}

// features returns the dataset's rows with the columns of noise (nil: none)
// appended.
func (r *runner) features(rows []int, noise *mat.Dense) *mat.Dense {
	d := r.x.Cols
	extra := 0
	if noise != nil {
		_, extra = noise.Dims()
	}
	out := mat.NewDense(len(rows), d+extra, nil)
	for i, row := range rows {
		dst := out.RawRowView(i)
		r.x.RowTo(dst[:d], r.at[row])
		if noise != nil {
			copy(dst[d:], noise.RawRowView(i))
		}
	}
	return out
}

// scores returns the scores of the sources cols on rows, or nil when cols
// is empty.
func (r *runner) scores(rows, cols []int) *mat.Dense {
	if len(cols) == 0 {
		return nil
	}
	out := mat.NewDense(len(rows), len(cols), nil)
	for i, row := range rows {
		src, dst := r.h.RawRowView(r.at[row]), out.RawRowView(i)
		for k, j := range cols {
			dst[k] = src[j]
		}
	}
	return out
}

// fit fits method name on group g's training set and evaluates it on the
// test set. A failure of the method is recorded in the record; the error
// is returned only when ctx is done.
func (r *runner) fit(ctx context.Context, g group, d *groupData, name string) (*Record, error) {
	classes := r.man.Classes
	rec := &Record{
		RunID: r.man.RunID, Dataset: r.grid.dataset, Target: classes[g.Target], TargetIdx: g.Target,
		Positives: g.Positives, Negatives: d.trainNeg, Noise: g.Noise, Split: g.Split, Method: name,
		TestPositives: d.testPos, TestNegatives: d.testNeg,
		Features: -1, Candidates: d.features + d.noiseDim + len(d.sources),
	}
	m, err := method.New(name)
	if err != nil {
		panic(err) // the names were checked
	}
	extra := method.Extra{Seed: methodSeed(r.man.Seed, g, name)}
	if m.Needs().Unlabelled {
		extra.Unlabelled = &method.Data{X: d.test.X, H: d.test.H}
	}
	if m.Needs().Oracle {
		extra.Oracle = &d.test
	}
	return recordFit(ctx, rec, func(ctx context.Context) (method.Model, error) {
		return m.Fit(ctx, d.train, extra)
	}, func(model method.Model) error { return r.evaluate(rec, model, d) })
}

// recordFit fits a model for rec's cell or episode with fit, timing it into
// rec.FitSeconds, records the model's report of solver runs that did not
// converge (rec.NotConverged, when it is a method.ConvergenceReporter) and
// of committees left out of its mean (rec.WideRange, wideRangeOf), and
// evaluates it with evaluate, which fills rec. A failure of either is
// recorded in rec.Error (a failed evaluation leaves none of its results in
// rec, and the fit's report); the error is returned only when ctx is done.
func recordFit[M any](ctx context.Context, rec *Record, fit func(context.Context) (M, error), evaluate func(M) error) (*Record, error) {
	start := time.Now()
	model, err := fit(ctx)
	rec.FitSeconds = time.Since(start).Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		rec.Error = "fit: " + err.Error()
		return rec, nil
	}
	if c, ok := any(model).(method.ConvergenceReporter); ok {
		if r := c.NotConverged(); len(r) > 0 {
			rec.NotConverged = r
		}
	}
	rec.WideRange = wideRangeOf(model)
	if err := evaluate(model); err != nil {
		rec.Error = err.Error()
		rec.Accuracy, rec.BalancedAccuracy, rec.Hyperparameters = 0, 0, nil
		rec.Sources, rec.SourceNames, rec.Weights, rec.Features = nil, nil, nil, 0 // an episode's record has none
		if rec.Ways == 0 {
			rec.Features = -1 // unknown
		}
	}
	return rec, nil
}

// evaluate fills rec with model's test accuracy, hyperparameters, source
// weights and selected features, or returns an error when the model fails
// to predict or yields a non-finite value.
func (r *runner) evaluate(rec *Record, model method.Model, d *groupData) error {
	scores, err := model.Predict(method.Data{X: d.test.X, H: d.test.H})
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	if err := checkScores(scores); err != nil {
		return err
	}
	if rec.BalancedAccuracy, err = metric.BalancedAccuracy(scores, d.test.Y); err != nil {
		return err
	}
	if rec.Hyperparameters, err = finiteHyper(model.Hyperparameters()); err != nil {
		return err
	}
	if w := model.SourceWeights(); w != nil {
		if len(w) != len(d.sources) {
			return fmt.Errorf("%d source weights for %d sources", len(w), len(d.sources))
		}
		for k, v := range w {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return fmt.Errorf("the weight of source %s is %v", r.man.Classes[d.sources[k]], v)
			case v != 0:
				rec.Sources = append(rec.Sources, d.sources[k])
				rec.SourceNames = append(rec.SourceNames, r.man.Classes[d.sources[k]])
				rec.Weights = append(rec.Weights, v)
			}
		}
	}
	rec.Features = selectedFeatures(model)
	return nil
}

// selectedFeatures returns the number of feature columns (noise columns
// included) that model gives a non-zero weight, for the models whose
// weights are known (GreedyTL's selected features; the linear baselines'
// non-zero weights), and −1 for the others.
func selectedFeatures(model method.Model) int {
	if s, ok := model.Selected(); ok {
		return s.Features()
	}
	return -1
}

// checkScores returns an error naming the first of a model's test scores
// that is not finite.
func checkScores(scores []float64) error {
	for i, v := range scores {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("predict: score %d is %v", i, v)
		}
	}
	return nil
}

// finiteHyper returns a model's hyperparameters hp for its record, or an
// error naming one that is not finite.
func finiteHyper(hp map[string]float64) (map[string]float64, error) {
	for k, v := range hp {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("hyperparameter %s is %v", k, v)
		}
	}
	return hp, nil
}

// targetClass returns the index of the class of f named name in
// Config.Targets (a target of either protocol), or an input error when f
// has no such class or it is in the negative pool, without a source.
func targetClass(f *dataset.Folder, neg *source.Negatives, name string) (int, error) {
	c, err := f.ClassIndex(name)
	switch {
	case err != nil:
		return 0, inputError{err}
	case neg.IsHeldOut(c):
		return 0, inputErrorf("experiment: target %q is a negative class: it has no source", name)
	}
	return c, nil
}
