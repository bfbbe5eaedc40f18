package method

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

func init() {
	Register(Registration{
		Name:            "greedytl-auto",
		SelectsFeatures: true,
		Description:     "Recommended: the mean of GreedyTL (γ = " + HelpNumber(autoGammas[0]) + "), GreedyTL preferring sources (γ = " + HelpNumber(autoGammas[1]) + "), the source of the highest training AUC and ridge on every column, all fitted to the labels by least squares, averaged over the subsamples without one example of the larger class",
		New:             func() Method { return newGreedyAuto() },
		Decode:          decodeAuto,
		Configure:       configureAuto,
	})
}

// autoGammas are the feature factors of greedytl-auto's GreedyTL members:
// the paper's γ = 1 and greedytl-sp's default γ = 0.5.
var autoGammas = []float64{1, 0.5}

// GreedyAuto is the method "greedytl-auto", the recommended method: the
// mean of the decision values of a small committee, averaged over
// subsamples of the training examples.
//
// The committee, fitted on a sample, is
//
//	c = (f_γ=1 + f_γ=0.5 + f_source + f_ridge) / 4,
//
// where f_γ is exact GreedyTL (the paper's λ = 1, δ = 1e-4) with feature
// factor γ — γ = 1 treats features and sources alike, γ = 0.5 prefers
// sources (greedytl-sp); f_source = a·z + b is one source, z its
// standardised score, with a and b its ordinary least-squares line to the
// ±1 labels; and f_ridge is ridge regression on every standardised column
// with λ by leave-one-out (the method rls-srcfeat: GreedyTL with every
// column selected). The source is the one of the highest training AUC
// (the share of (positive, negative) pairs it scores positive higher, a tie
// counting one half), and among the sources tied on that (with 2 positives
// and 10 negatives there are only 41 possible values) the one with the
// highest LogME evidence (the criterion of the method logme-source). The
// members span the two axes on which the data decide: how much to trust
// the features against the sources (γ = 1, γ = 0.5, one source) and how
// much to select (one column, a greedy few, all).
//
// The model is the mean of the committee fitted on the whole sample and
// the committees fitted on each subsample without one example of the
// larger class (the negatives when the classes are of equal size): 1 + m₋
// committees with fewer positives than negatives — the delete-one
// jackknife of bagging, over the plentiful class only: leaving out one of
// 2 positives would halve the target's evidence. With at most 3 examples
// in the larger class (minSubsampleKept) there is no subsample and the
// model is the whole sample's committee alone: a subsample would keep too
// few examples of that class to tell columns apart (measured at 1 positive
// against 2 and 3 negatives; 2 against 3, 3 against 3 and 3 against 2
// follow the rule unmeasured). With more than 10
// examples in that class, each of 10 subsamples leaves out a tenth of it
// (interleaved folds of its rows sorted by a hash of their values), so a
// fit costs at most 11 committees. A subsample's committee that weights a
// column on which the subsample's mean lies more than 2^26 of its standard
// deviations from the whole sample's is left out of the mean (its linear
// function cannot be written in the whole sample's standardisation without
// losing half of float64's digits; see WideColumn and AutoCommittee's
// LeftOut): the hyperparameter "fits" counts the committees averaged.
// Every fit reads the rows in that
// content order (contentOrder), so the model depends on the set of
// training rows, not on their order: any permutation of them gives the
// same model, bit for bit.
// Greedy selection and the choice of one source from a handful of labels
// are unstable — one example more or less changes what is chosen — and
// averaging over subsamples keeps what is chosen in most of them (bagging,
// Breiman 1996).
//
// The ridge member of a subsample is ridge regression at the λ chosen on
// the whole sample, on the whole sample's standardised columns re-centred
// on the subsample: f_ridge(z) = w·(z − z̄), w fitted to the subsample's
// labels. Ridge is the stable member, so what bagging would change about
// it is small, and sharing λ and the columns lets every subsample's fit
// come from the one reduction of the whole sample's problem
// (linear.RidgeLOO: a Gram-matrix block in the dual, a low-rank downdate
// in the primal) instead of a leave-one-out path and a refit per
// committee, which cost O(m·N·min(m, N) + min(m, N)³) each — the bulk of a
// fit once m is in the hundreds. (Refitting λ and the standardisation per
// subsample, as earlier versions did, moved no cell of docs/results by
// more than 0.1 point; docs/results/README.md, "Round 4".) With at least
// as many examples as columns, or more than ridgeLambdaRows examples (and
// m·N ≥ gramMinWork: unbaggedRidge), even that one reduction is the bulk
// of a fit, and a subsample's ridge fit differs little from the whole
// sample's: there the whole sample's ridge member serves every committee,
// its λ chosen by leave-one-out on at most ridgeLambdaRows of the rows and
// its weights solved from the cross-products the GreedyTL members share,
// or in the dual when N > m (ridgeUnbagged). The paper's sizes (m = 12–30
// with N in the hundreds or more) are not affected.
//
// (The source member's line is the unweighted least-squares fit, not
// logme-source's class-balanced line: inside a mean of least-squares fits
// it keeps the training classes' proportions in its offset, which puts its
// threshold higher — fewer false positives — when there are fewer
// positives than negatives. With m₊ = m₋ the two lines are the same.
// Every design choice was made on development runs that share no split,
// source or negative pool with the published results; what was tried,
// with its numbers, is in docs/results/README.md, "How greedytl-auto was
// found".)
//
// Why a committee and not a choice. Which member is best depends on the
// data (docs/results): with image descriptors, whose single features are
// weak, the sources carry the information and a well-chosen source is
// hard to beat with 2 positives; with bag-of-words text single features
// are strong evidence and GreedyTL over all columns, or a dense model with
// more positives, wins. Choosing between them from 2 + 10 examples, by a
// nested leave-one-out, was measured to be noisy (its earlier design,
// docs/results/gamma): the choice is right on average but wrong often
// enough to lose 1–4 points to the best fixed member. The mean needs no
// choice: every member is a least-squares fit of the ±1 labels, so their
// decision values share a scale, and where one member errs on an example
// the others, built on other columns, usually do not. Equal weights are
// the committee's only setting; they were not tuned.
//
// Members are dropped when they cannot exist: without sources there is no
// source member and γ only rescales λ (one GreedyTL member, γ = 1);
// without features there is one GreedyTL member (sources only); the ridge
// member is always there (on the features alone without sources, on the
// sources alone without features). Fit returns an error for invalid
// training data (see the package doc) and when a member's fit fails.
//
// The model is an AutoModel: a Linear model — the mean of the committees'
// linear functions, each re-expressed in the whole sample's
// standardisation — that predicts and saves like the other baselines, and
// the record of what the members chose (AutoCommittee), which its file
// keeps for inspect. The Linear model is dense: the ridge member weights
// every column that is not constant. Its
// hyperparameters, those of the committee fitted on the whole sample, are
// "lambda" and "delta" (the GreedyTL members'), "ridge_lambda" (the ridge
// member's), "members" (their number), with sources "source" (the source
// member's index), and "fits" (the number of committees averaged).
type GreedyAuto struct {
	// Gammas are the feature factors of the GreedyTL members (≥ 0, at
	// least one).
	Gammas []float64
	// Options holds the GreedyTL members' other options (λ, δ, max_k); its
	// FeatureFactor is replaced by each member's, and Sample and
	// AutoLambda must be unset.
	Options greedytl.Options
	// SingleFit fits the committee once, on the whole training sample,
	// instead of averaging it over subsamples of the larger class: up to 11
	// times faster, and less accurate with few positives
	// (docs/results/README.md).
	SingleFit bool
}

func newGreedyAuto() *GreedyAuto {
	return &GreedyAuto{Gammas: autoGammas, Options: greedytl.DefaultOptions()}
}

// Name returns "greedytl-auto", or "greedytl-auto:single_fit=1" with
// SingleFit.
func (a *GreedyAuto) Name() string {
	if a.SingleFit {
		return "greedytl-auto:single_fit=1"
	}
	return "greedytl-auto"
}

// configureAuto is greedytl-auto's Configure: the key "single_fit" (0 or
// 1) sets SingleFit — with 1 the committee is fitted once, up to 11 times
// faster (for very many sources), without the averaging over subsamples.
func configureAuto(s Spec) (Method, error) {
	single, err := flagSetting(s, "single_fit")
	if err != nil {
		return nil, err
	}
	a := newGreedyAuto()
	a.SingleFit = single
	return a, nil
}

// Needs reports that greedytl-auto needs nothing beyond the labelled
// sample.
func (a *GreedyAuto) Needs() Needs { return Needs{} }

// Fit fits the committee on the training sample and on each of its
// subsamples without some examples of the larger class, and returns the
// mean (see GreedyAuto). Extra.Progress, if set, is called after the
// whole sample's ridge member (its λ by leave-one-out, and its weights)
// and after each committee's other members: 2 + s calls with s
// subsamples (2 with SingleFit), each piece counting units of work in
// proportion to its estimated cost (autoUnits: a committee 10, the ridge
// member 10 times its estimated cost over a committee's, at least 1), so
// that the fraction done follows the work where the ridge member's dual
// solve, O(m²·N) with more than ridgeLambdaRows examples and more columns
// than examples, takes several committees' time (at m = 2,000, N = 3,080
// on one core, 6 s against 0.25 s a committee). The estimate is rough
// where fixed costs dominate (at m = 30, N = 3,080 the ridge member takes
// 8 ms against a committee's 2 ms, and counts less than a committee), and
// the first fit of the shared cross-products (sharedGram) falls in the
// first committee reported. What is left after the last call (each
// subsample's ridge member from the whole sample's reduction, the mean)
// takes about a tenth of a committee's time.
func (a *GreedyAuto) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	m, d, n, err := startFit(ctx, a, train)
	if err != nil {
		return nil, err
	}
	defer endFit(ctx, a, &result, &err)
	if err := a.check(); err != nil {
		return nil, err
	}
	c, err := a.fitCommittees(ctx, train, m, d, n, extra.Progress)
	if err != nil {
		return nil, err
	}
	return c.average(d)
}

// autoCommittees is what greedytl-auto averages: the committees (the whole
// sample's first) with their records, each one's ridge member's weights
// over the features then the sources and its intercept, the members of a
// committee, and the ridge member's λ, whether it is one fit for every
// committee (unbaggedRidge) and the rows its λ was chosen on (0: all).
type autoCommittees struct {
	fits        []*Linear
	recs        []*committeeRecord
	ridgeW      [][]float64
	ridgeB      []float64
	members     int
	ridgeLambda float64
	unbagged    bool
	lambdaRows  int
}

// fitCommittees fits greedytl-auto's committees on train, a checked sample
// of m examples, d features and n sources: the whole sample's and each
// subsample's, each with its ridge member. It reports its progress to
// progress (nil: none) as Fit says, once an item of its first loop.
func (a *GreedyAuto) fitCommittees(ctx context.Context, train Data, m, d, n int, progress func(done, total int)) (*autoCommittees, error) {
	// Every fit reads the rows in content order, so that the model depends
	// on the set of training rows, not on their order (see contentOrder).
	var order []int
	train, order = inContentOrder(train, train.Y)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// samples[0] is the whole sample (nil), then the subsamples' folds.
	samples := [][]int{nil}
	if !a.SingleFit {
		samples = append(samples, majorityFolds(train.Y)...)
	}
	keeps := make([][]int, len(samples)) // the rows of each sample
	for k, fold := range samples {
		keeps[k] = keptRows(m, fold)
	}
	// The ridge member's columns: the whole sample's standardised [X, H].
	st, err := standardizeData(train)
	if err != nil {
		return nil, fmt.Errorf("greedytl-auto: %w", err)
	}
	Z := concatColumns(st.zx, st.zh)
	// Z alone reads the features' standardised columns (the committees
	// read st.zh): let them go, an m × d copy of the input.
	st.zx = nil
	// The GreedyTL members' cross-products, shared by every committee when
	// they cost less than the columns (see sharedGram): computed by the
	// first committee that needs them, while another core may fit the ridge
	// member, with that item's context — the pool's (parallel.For's), which
	// every item is given and the first that fails cancels — so that a
	// failing sibling stops the computation as Fit's ctx does.
	//
	// Where the route depends on the members' number of steps
	// (gramProbeSteps), the whole sample's committee decides it: it fits
	// its GreedyTL members with greedytl.Fit up to that many steps, and
	// the subsamples' committees wait for its decision (decided).
	shared := sharedGram(m, d+n)
	probe := 0
	if shared {
		probe = a.gramProbeSteps(m, d+n)
		shared = probe >= 0
	}
	decided := make(chan struct{})
	if probe <= 0 {
		close(decided)
	}
	ridgeGram := shared && d+n <= m // never probed (N > m)
	var (
		gramOnce     sync.Once
		wholeGram    *greedytl.Gram
		wholeGramErr error
	)
	gramOf := func(ctx context.Context) (*greedytl.Gram, error) {
		gramOnce.Do(func() {
			wholeGram, wholeGramErr = newGram(ctx, matrixOrNil(train.X), matrixOrNil(train.H), train.Y)
		})
		return wholeGram, wholeGramErr
	}
	// The sources' rows in order of their scores, which every committee's
	// source member reads (chooseSource) when there are subsamples: sorted
	// once, by the first committee to need them, with its context.
	var (
		orderOnce sync.Once
		srcOrder  *sourceOrder
		orderErr  error
	)
	orderOf := func(ctx context.Context) (*sourceOrder, error) {
		if n == 0 || len(samples) == 1 {
			return nil, nil
		}
		orderOnce.Do(func() { srcOrder, orderErr = newSourceOrder(ctx, dense(train.H)) })
		return srcOrder, orderErr
	}
	var (
		ridge       *linear.RidgeLOO
		ridgeLambda float64
		unbagged    bool // one ridge member for every sample (ridgeUnbagged)
		lambdaRows  int  // the rows its λ was chosen on (0: all)
		ridgeW      = make([][]float64, len(samples))
		ridgeB      = make([]float64, len(samples))
	)
	fits := make([]*Linear, len(samples))
	recs := make([]*committeeRecord, len(samples))
	members := 0
	// The units of work: the items of the first loop, each weighed by its
	// estimated cost (autoUnits; those of the second, a subsample's ridge
	// member from the whole sample's reduction, take about a tenth of a
	// committee's time).
	oneRidge := unbaggedRidge(m, d+n)
	ridgeUnits := a.autoUnits(m, d, n, oneRidge, ridgeGram)
	done := newFitProgress(progress, ridgeUnits+len(samples)*autoCommitteeUnits)
	// Item 0 chooses the ridge member's λ and fits it on the whole sample
	// (for every sample when unbaggedRidge); item k+1 fits the other
	// members of sample k's committee. One
	// core for small samples (the paper's sizes take milliseconds).
	workers := parallel.Workers(m*(d+n), 0)
	err = parallel.For(ctx, len(samples)+1, workers, func(ctx context.Context, item int) error {
		if item == 0 {
			if oneRidge {
				// From the shared cross-products with N ≤ m, where their
				// O(N³) solve is no dearer than the dual's O(m²·N + m³);
				// with more columns than rows in the dual, from the columns.
				var gram func() (*greedytl.Gram, error)
				if ridgeGram {
					gram = func() (*greedytl.Gram, error) { return gramOf(ctx) }
				}
				// This item is Z's one reader: ridgeUnbagged holds the
				// only reference, which it lets go once the Gram stands in
				// for it, so that the m × N matrix is freed while the
				// committees go on.
				z := Z
				Z = nil
				var err error
				ridgeW[0], ridgeLambda, lambdaRows, err = ridgeUnbagged(ctx, z, train.Y, gram)
				if err != nil {
					return fmt.Errorf("greedytl-auto: %w", err)
				}
				unbagged = true
				done.addUnits(ctx, ridgeUnits)
				return nil
			}
			var err error
			ridge, ridgeLambda, _, err = ridgeMemberLOO(ctx, Z, train.Y, nil)
			if err == nil {
				// Z is centred: the weights of ridge with an intercept
				// are those of ridge without one (rls-srcfeat's).
				ridgeW[0], _, err = ridge.Weights(ctx, ridgeLambda)
			}
			if err != nil {
				return fmt.Errorf("greedytl-auto: ridge member: %w", err)
			}
			done.addUnits(ctx, ridgeUnits)
			return nil
		}
		k := item - 1
		recs[k] = new(committeeRecord)
		sample, sst := train, &st
		var pre []*greedytl.Model // the whole sample's members, probed
		switch {
		case probe > 0 && k == 0:
			var err error
			if pre, err = a.probeMembers(ctx, train, probe); err != nil {
				return fmt.Errorf("greedytl-auto: %w", err)
			}
			shared = pre == nil
			close(decided)
		case probe > 0:
			select {
			case <-decided:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		var sub *greedytl.Gram
		if shared {
			gram, err := gramOf(ctx)
			if err != nil {
				return fmt.Errorf("greedytl-auto: %w", err)
			}
			sub = gram
			if samples[k] != nil {
				if sub, err = gram.Subset(ctx, keeps[k]); err != nil {
					return a.withoutError(samples[k], order, err)
				}
			}
		}
		switch {
		case samples[k] != nil && sub != nil: // the subsample's rows, gathered
			sst = nil
			sample.X, sample.H, sample.Y = sub.Sample()
		case samples[k] != nil:
			sample, sst = selectRows(train, keeps[k]), nil
		}
		ord, err := orderOf(ctx)
		if err != nil {
			return fmt.Errorf("greedytl-auto: %w", err)
		}
		fit, count, err := a.committee(ctx, sample, sst, sub, pre, ord, keeps[k], recs[k])
		if err != nil {
			return a.withoutError(samples[k], order, err)
		}
		fits[k] = fit
		if k == 0 {
			members = count + 1 // and the ridge member
		}
		done.addUnits(ctx, autoCommitteeUnits)
		return nil
	})
	if err = fitctx.Stopped(ctx, err, fitCaller(a)); err != nil {
		return nil, err
	}
	// The ridge member of each subsample: at the whole sample's λ, on the
	// whole sample's standardised columns re-centred on the subsample,
	// from the whole sample's reduction.
	err = parallel.For(ctx, len(samples)-1, workers, func(ctx context.Context, j int) error {
		k := j + 1
		if unbagged {
			ridgeW[k] = ridgeW[0]
			return nil
		}
		w, b, err := ridge.SubsetWeights(ctx, keeps[k], ridgeLambda)
		if err != nil {
			return a.withoutError(samples[k], order, fmt.Errorf("ridge member: %w", err))
		}
		// w·(z − z̄_k) = w·z + b − ȳ_k, z̄_k the subsample's mean.
		var ybar float64
		for _, r := range keeps[k] {
			ybar += train.Y[r]
		}
		ridgeW[k], ridgeB[k] = w, b-ybar/float64(len(keeps[k]))
		return nil
	})
	if err = fitctx.Stopped(ctx, err, fitCaller(a)); err != nil {
		return nil, err
	}
	return &autoCommittees{
		fits: fits, recs: recs, ridgeW: ridgeW, ridgeB: ridgeB, members: members,
		ridgeLambda: ridgeLambda, unbagged: unbagged, lambdaRows: lambdaRows,
	}, nil
}

// average returns greedytl-auto's model, the mean of c's committees (d
// features) but those that wideColumns leaves out, each with its ridge
// member. It writes the mean over c.fits[0].
func (c *autoCommittees) average(d int) (Model, error) {
	fits, recs, ridgeW, ridgeB, members := c.fits, c.recs, c.ridgeW, c.ridgeB, c.members
	ridgeLambda, unbagged, lambdaRows := c.ridgeLambda, c.unbagged, c.lambdaRows
	// Summed (and tallied) in the order of the samples, whatever the order
	// they finished in: the model does not depend on the number of workers.
	sum, rec := fits[0], recs[0]
	rec.ridge(ridgeLambda, unbagged, lambdaRows)
	sum.Hyper["ridge_lambda"] = ridgeLambda
	sum.Hyper["members"] = float64(members)
	tally := newSelectionTally(rec)
	// A subsample's committee that its conversion to the whole sample's
	// standardisation would wreck (wideColumns) is left out, its ridge
	// member with it.
	kept := []int{0}
	var wide wideTally
	for k, sub := range fits[1:] {
		if w := wideColumns(sum, sub); w != nil {
			wide.add(k+1, w)
			continue
		}
		tally.add(recs[k+1])
		addLinear(sum, sub)
		kept = append(kept, k+1)
	}
	for _, k := range kept {
		w := ridgeW[k]
		for j := range sum.WX {
			sum.WX[j] += w[j]
		}
		for j := range sum.WH {
			sum.WH[j] += w[d+j]
		}
		sum.B += ridgeB[k]
	}
	sum.scale(1 / float64(members*len(kept)))
	sum.Hyper["fits"] = float64(len(kept))
	if err := sum.check(); err != nil {
		return nil, fmt.Errorf("method: greedytl-auto: %w", err)
	}
	committee := rec.committee(tally)
	wide.record(committee, len(fits)-1)
	return &AutoModel{Linear: sum, Committee: committee, wide: wide.report()}, nil
}

// ridgeLambdaRows bounds the rows on which greedytl-auto chooses the ridge
// member's λ when it is one fit for every committee (see ridgeUnbagged).
const ridgeLambdaRows = 500

// autoCommitteeUnits is the units of work of a committee's GreedyTL members
// in greedytl-auto's progress (autoUnits): enough for the ridge member's
// share to be told in tenths of a committee.
const autoCommitteeUnits = 10

// autoSteps is the steps of a GreedyTL member's path that greedytl-auto's
// progress assumes (at most m, N and MaxK): the members stop by δ, which no
// size tells in advance. Measured on one core at m = 1,000, N = 1,580 and
// m = 2,000, N = 3,080 (BenchmarkAutoRows' problem), a committee's time
// was that of 83 and 115 such steps of its two members, a step O(m·N),
// against the ridge member's multiply-adds as autoUnits counts them.
const autoSteps = 100

// autoUnits returns the units of work of greedytl-auto's ridge member,
// against a committee's autoCommitteeUnits, on m examples of d features and n
// sources, unbagged (unbaggedRidge) and, if so, solved from the shared
// cross-products (fromProducts), so that its progress advances with the
// work done: each in proportion to its estimated multiply-adds. A
// committee's GreedyTL members cost about steps·m·N each (autoSteps); the
// ridge member's leave-one-out choice of λ on r rows (all of them, or
// ridgeLambdaRows when unbagged) O(r·N·k + 4k³), k = min(r, N) (its
// reduction and eigendecomposition), and an unbagged member's weights on
// every row O(m·N·k + k³/3), k = min(m, N), or O(N³/3) from the
// cross-products. At m = 2,000, N = 3,080 the ridge member counted one
// committee's unit, an eleventh of the total, where its dual solve took
// half the fit's time (the progress stood still, then jumped).
func (a *GreedyAuto) autoUnits(m, d, n int, unbagged, fromProducts bool) int {
	fm, fN := float64(m), float64(d+n)
	loo := func(r float64) float64 {
		k := min(r, fN)
		return r*fN*k + 4*k*k*k
	}
	var work float64
	switch {
	case !unbagged:
		work = loo(fm)
	case fromProducts:
		work = loo(min(fm, ridgeLambdaRows)) + fN*fN*fN/3
	default:
		k := min(fm, fN)
		work = loo(min(fm, ridgeLambdaRows)) + fm*fN*k + k*k*k/3
	}
	steps := min(autoSteps, m, d+n)
	if a.Options.MaxK > 0 {
		steps = min(steps, a.Options.MaxK)
	}
	per := float64(len(a.memberGammas(d, n))*max(steps, 1)) * fm * fN
	if per > 0 && work > 0 {
		return max(1, int(min(math.Round(autoCommitteeUnits*work/per), 1e6)))
	}
	return autoCommitteeUnits
}

// unbaggedRidge reports whether greedytl-auto's ridge member is one fit for
// every committee (ridgeUnbagged) at m examples and N candidate columns:
// when m·N ≥ gramMinWork and either N ≤ m — where one reduction of the
// whole problem, primal, costs as much as the committees' other members —
// or m > ridgeLambdaRows, so that the model depends on the sizes alone
// (not on sharedGram's route, whatever gramRoute forces; with
// m < N ≤ gramMaxRatio·m the GreedyTL members share cross-products while
// each committee up to m = ridgeLambdaRows has a ridge member of its
// own). The paper's sizes (m = 12–30 with N in the hundreds or more) have a
// ridge member of their own in every committee.
func unbaggedRidge(m, N int) bool {
	return m*N >= gramMinWork && (N <= m || m > ridgeLambdaRows)
}

// ridgeUnbagged fits greedytl-auto's ridge member when it is one fit for
// every committee (unbaggedRidge), on the whole sample's standardised
// columns Z (m × N) and labels y: λ is chosen by leave-one-out
// (ridgeLambdaByLOO) on at most ridgeLambdaRows of the rows
// (ridgeLambdaSample; lambdaRows is their number, 0 for all of them), and
// the weights at λ are those of the whole sample: solved from its
// cross-products (linear.RidgeFromProducts, O(N³) without the rows) when
// gram is not nil and the Gram it returns, called once λ is chosen
// (another core may be computing it), keeps them — the shared route, with
// N ≤ m — else from the columns (linear.FitRidgeWeights, O(m·N·min(m, N) +
// min(m, N)³)). The same member then serves
// every subsample: with hundreds of rows a subsample's ridge fit, which
// leaves out a tenth of one class, differs little from the whole sample's,
// and ridge is the committee's most stable member, while a fit of its own
// would cost a reduction of the whole problem, O(m·N·min(m, N) +
// min(m, N)³), the bulk of a fit at these sizes. λ estimates the ratio of
// the noise variance to the weights' prior variance, which does not
// depend on m: its leave-one-out estimate on 500 rows costs O(500²·N).
func ridgeUnbagged(ctx context.Context, Z *mat.Dense, y []float64, gram func() (*greedytl.Gram, error)) (w []float64, lambda float64, lambdaRows int, err error) {
	Zl, yl := Z, y
	if rows := ridgeLambdaSample(y, ridgeLambdaRows); rows != nil {
		Zl, yl, lambdaRows = rowsOf(Z, rows), make([]float64, len(rows)), len(rows)
		for k, r := range rows {
			yl[k] = y[r]
		}
	}
	if _, lambda, _, err = ridgeLambdaByLOO(ctx, Zl, yl, nil); err != nil {
		return nil, 0, 0, fmt.Errorf("ridge member: %w", err)
	}
	// From the columns (Z is centred: the weights of ridge with an
	// intercept are those of ridge on the centred labels), in the cheaper
	// of the primal and the dual — or from the Gram's cross-products when
	// it keeps them.
	solve := func(l float64) ([]float64, error) {
		w, _, err := linear.FitRidgeWeights(ctx, Z, y, l, true)
		return w, err
	}
	if gram != nil {
		g, err := gram()
		if err != nil {
			return nil, 0, 0, err
		}
		if cols, A, b, ok := g.Products(); ok {
			_, c := Z.Dims()
			Z = nil // not read again: freed once the caller lets go too
			solve = func(l float64) ([]float64, error) {
				w := make([]float64, c)
				if len(cols) == 0 {
					return w, nil
				}
				ws, err := ridgeFromProducts(ctx, A, b, l)
				if err != nil {
					return nil, err // ws is nil (ctx done, a singular system)
				}
				for a, j := range cols {
					w[j] = ws[a]
				}
				return w, nil
			}
		}
	}
	if w, lambda, err = ridgeAtOrAbove(ctx, lambda, solve); err != nil {
		return nil, 0, 0, fmt.Errorf("ridge member: %w", err)
	}
	return w, lambda, lambdaRows, nil
}

// ridgeAtOrAbove returns the ridge weights solve gives at λ = lambda or,
// when the whole sample's system is too ill-conditioned at the λ its rows'
// sample chose, at the smallest larger λ of lambdaGrid at which it is not,
// with the λ it used. It returns the error at the grid's largest λ when
// none works, and ctx's.
func ridgeAtOrAbove(ctx context.Context, lambda float64, solve func(lambda float64) ([]float64, error)) ([]float64, float64, error) {
	w, err := solve(lambda)
	for _, l := range lambdaGrid {
		if err == nil || ctx.Err() != nil {
			break
		}
		if l > lambda {
			w, err = solve(l)
			lambda = l
		}
	}
	return w, lambda, err
}

// ridgeLambdaSample returns at most limit rows of the ±1 labels y, or nil
// for all of them when there are no more: every row of the smaller class
// up to limit/2 of them, and the rest from the larger class, evenly spaced
// in the rows' order — greedytl-auto's content order, a hash of the rows'
// values, so that the sample is spread over the data whatever order they
// were given in. The leave-one-out choice weighs the two classes equally
// (chooseByLOO), and with few positives each of them is much of the
// evidence: a proportional sample of 36 positives among 2,000 rows would
// keep 9.
func ridgeLambdaSample(y []float64, limit int) []int {
	m := len(y)
	if m <= limit {
		return nil
	}
	small, large := classRows(y)
	if len(small) > len(large) {
		small, large = large, small
	}
	ks := min(len(small), limit/2)
	var rows []int
	for _, c := range []struct {
		rows []int
		k    int
	}{{small, ks}, {large, limit - ks}} {
		for j := range c.k {
			rows = append(rows, c.rows[j*len(c.rows)/c.k])
		}
	}
	slices.Sort(rows)
	return rows
}

// ridgeMemberLOO chooses the λ of greedytl-auto's ridge member, bagged
// (one fit per committee): ridgeLambdaByLOO, a variable tests replace to
// make the member fail beside a committee in progress.
var ridgeMemberLOO = ridgeLambdaByLOO

// newGram computes greedytl-auto's shared cross-products: greedytl.NewGram,
// which tests replace to see the context it is given.
var newGram = greedytl.NewGram

// ridgeFromProducts solves greedytl-auto's ridge member from the shared
// cross-products (ridgeUnbagged): linear.RidgeFromProducts, which tests
// replace to read the live heap at the solve.
var ridgeFromProducts = linear.RidgeFromProducts

// gramRoute says where greedytl-auto fits its GreedyTL members: gramAuto
// by sharedGram's rule, gramAlways on shared cross-products, gramNever
// with greedytl.Fit (tests and benchmarks compare the routes).
var gramRoute = gramAuto

const (
	gramAuto = iota
	gramAlways
	gramNever
)

// gramMinWork is the size m·N of the sample (rows × candidate columns)
// below which greedytl-auto keeps greedytl.Fit (see sharedGram).
const gramMinWork = 20_000

// gramMaxRatio bounds the candidate columns per example with which
// greedytl-auto shares cross-products (see sharedGram).
const gramMaxRatio = 2

// sharedGram reports whether greedytl-auto may fit its GreedyTL members on
// cross-products shared by every committee (greedytl.Gram) for m examples
// and N candidate columns: when N ≤ gramMaxRatio·m and m·N ≥ gramMinWork
// (with N > m, gramProbeSteps then decides from the members' paths).
// The search then costs O((N + m)·k) a step for k selected columns instead
// of greedytl.Fit's O(N·m + m·min(m, N)), after O(N²·m) once for the whole
// sample's cross-products and O(N²·m/10) for each subsample's downdate.
// The bound is one of memory: the whole sample's N × N matrix is at most
// twice the m × N input with N ≤ 2m, and a subsample's committee adds the
// rows of its own cross-products its members read (O(N·k), computed when
// first read from the rows the subsample leaves out), or, once the whole
// sample's members have selected more than N/2 columns (N/8 when those
// rows' values outgrow the caches), one N × N matrix
// (greedytl.Gram.Subset). The time depends on k: the shared route's fixed cost is
// O(N²·m), greedytl.Fit's 22·k passes of O(N·m), so it breaks even near
// k = N/16 (gramBreakEven): with N > m it lost on the clustered rows of
// BenchmarkAutoGramRatio, where k ≈ 60 (1.03 times Fit's CPU time at
// m = 200, N = 2m; 1.13 and 2.06 times at m = 1,000, N = 1.1m and 2m),
// and won where the members select hundreds of columns (2.4–8.1 times
// faster at m = 200, N ≤ 2m; 20 times on the new-user hunt's 1,000 rows
// of 1,100 columns, 700 columns a member) — which gramProbeSteps tells
// apart by fitting the whole sample's members first. With N > 2m — the
// paper's sizes, m = 12–30 with thousands of columns — greedytl-auto uses
// greedytl.Fit's dual form, as it does below gramMinWork, where a fit
// takes milliseconds either way: both keep greedytl.Fit's results bit for
// bit (docs/design.md §3, "Shared cross-products").
func sharedGram(m, N int) bool {
	switch gramRoute {
	case gramAlways:
		return true
	case gramNever:
		return false
	}
	return N <= gramMaxRatio*m && m*N >= gramMinWork
}

// gramBreakEven is the number of candidate columns per step of the
// GreedyTL members at which greedytl-auto's two routes cost about the
// same with m < N ≤ gramMaxRatio·m: the shared route's fixed O(N²·m)
// against greedytl.Fit's O(N·m) a step (see sharedGram), measured as
// k ≈ N/16 (BenchmarkAutoGramRatio: with k ≈ 60, the shared route took
// 1.13 times Fit's time at m = 1,000, N = 1,100 and 2.06 times at
// N = 2,000).
const gramBreakEven = 16

// gramProbeSteps returns how greedytl-auto decides its route where
// sharedGram allows the shared one, for m examples and N candidate
// columns: 0 for the shared route without a probe — with N ≤ m, where it
// won even at k ≈ 60 (1.19 against 1.40 s at m = 1,000), with
// StopAtMinLOO, whose truncated paths a probe could not tell from complete
// ones, and when a test forces a route; −1 for greedytl.Fit's route, when
// max_k is at most the break-even N/16 (gramBreakEven); and otherwise the
// cap s of probeMembers: the whole sample's members are fitted with
// greedytl.Fit for at most s = N/16 + 1 steps, and the fit takes
// greedytl.Fit's route when every one of them stops before (their models
// are the whole sample's), the shared route as soon as one reaches s. The
// probe is then lost: s steps of one member (2·s when only the second
// reaches the cap), against the 22 fits of at least s steps each that the
// shared route saves.
func (a *GreedyAuto) gramProbeSteps(m, N int) int {
	if gramRoute != gramAuto || N <= m || a.Options.StopAtMinLOO {
		return 0
	}
	k := max(1, N/gramBreakEven)
	if a.Options.MaxK > 0 && a.Options.MaxK <= k {
		return -1
	}
	return k + 1
}

// probeMembers fits the GreedyTL members of greedytl-auto's committee on
// train, the whole sample, with greedytl.Fit, each for at most steps
// steps (gramProbeSteps), one after the other: it returns their models,
// each greedytl.Fit's without the cap bit for bit (its options say the
// fit's max_k), when every one of them stopped before the cap, and nil as
// soon as one reaches it.
func (a *GreedyAuto) probeMembers(ctx context.Context, train Data, steps int) ([]*greedytl.Model, error) {
	_, d := dims(train.X)
	_, n := dims(train.H)
	gammas := a.memberGammas(d, n)
	out := make([]*greedytl.Model, len(gammas))
	for i, g := range gammas {
		o := a.Options
		o.FeatureFactor, o.MaxK = g, steps
		gm, err := greedytl.Fit(ctx, matrixOrNil(train.X), matrixOrNil(train.H), train.Y, o)
		if err != nil {
			return nil, fmt.Errorf("GreedyTL member γ = %v: %w", g, err)
		}
		if len(gm.Selected) >= steps {
			return nil, nil
		}
		gm.Options.MaxK = a.Options.MaxK
		out[i] = gm
	}
	return out, nil
}

// memberGammas returns the feature factors of greedytl-auto's GreedyTL
// members for d features and n sources: Gammas, or γ = 1 alone without
// one of the two (γ then only rescales λ, or does not count).
func (a *GreedyAuto) memberGammas(d, n int) []float64 {
	if d == 0 || n == 0 {
		return []float64{1}
	}
	return a.Gammas
}

// keptRows returns the rows 0, …, m−1 not in fold (all of them for a nil
// fold), in order.
func keptRows(m int, fold []int) []int {
	out := make([]bool, m)
	for _, r := range fold {
		out[r] = true
	}
	keep := make([]int, 0, m-len(fold))
	for r := range m {
		if !out[r] {
			keep = append(keep, r)
		}
	}
	return keep
}

// withoutError names the examples a subsample left out (fold, rows in
// content order) in its committee's error err, by their index in the
// given training data (order maps content order to it); it returns err
// with the method's name alone for the whole sample (a nil fold).
func (a *GreedyAuto) withoutError(fold, order []int, err error) error {
	if fold == nil {
		return fmt.Errorf("greedytl-auto: %w", err)
	}
	given := make([]int, len(fold))
	for k, r := range fold {
		given[k] = order[r]
	}
	slices.Sort(given)
	return fmt.Errorf("greedytl-auto: without examples %v: %w", given, err)
}

// maxSubsamples bounds the subsamples greedytl-auto averages over, and so
// its cost: 1 + maxSubsamples committees at most.
const maxSubsamples = 10

// minSubsampleKept is the fewest examples of the larger class a subsample
// keeps: with fewer than minSubsampleKept+1 examples in that class there is
// no subsample. A subsample that keeps one example of it and one of the
// other class (1 positive against 2 negatives) is separated exactly by
// every column that is not constant on it, so its GreedyTL members' choice
// falls to the tie rule (the first columns), and such fits are two of the
// three averaged; one that keeps two against one example is fitted
// exactly by every column equal on the two (any column zero on both: most
// of them in sparse features). On the development seeds (2 and 3, 80
// episodes per cell, one-vs-rest at one shot; docs/design.md §9) the
// subsamples cost 17–25 points of accuracy against the single fit at 1
// positive against 2 negatives and 2.6–5.8 at 1 against 3, and were mixed
// (−2.2 to +2.1) at 1 against 4.
const minSubsampleKept = 3

// majorityFolds returns the examples each subsample leaves out: the rows
// of the larger class of the ±1 labels y (the negatives when the classes
// are of equal size), one by one when there are at most maxSubsamples of
// them, and otherwise in maxSubsamples interleaved folds (fold k holds the
// class's k-th, (k+maxSubsamples)-th, … rows). Fit calls it on the rows in
// content order (contentOrder), so the folds do not depend on the order in
// which the rows were given. With at most minSubsampleKept examples in the
// larger class there is no subsample (one would keep fewer than
// minSubsampleKept of them; with 11 or more, each keeps at least 9).
func majorityFolds(y []float64) [][]int {
	pos, neg := classRows(y)
	rows := neg
	if len(pos) > len(neg) {
		rows = pos
	}
	if len(rows) <= minSubsampleKept {
		return nil
	}
	k := min(len(rows), maxSubsamples)
	folds := make([][]int, k)
	for j, r := range rows {
		folds[j%k] = append(folds[j%k], r)
	}
	return folds
}

// committee fits the members other than the ridge member (which Fit fits
// for every sample from one reduction) on the training sample train, which
// Fit has checked (a subsample of a checked sample with both classes needs
// no second check), and returns the sum of their linear functions, a
// Linear model with train's scalers, and their number. st is train's
// standardisation when Fit has it (the whole sample's), else nil; gram is
// train's cross-products when Fit shares them (sharedGram), else nil: the
// GreedyTL members are fitted on it, which gives the model greedytl.Fit
// gives on train. pre, when not nil, holds the GreedyTL members' models,
// already fitted with greedytl.Fit (probeMembers). order, when not nil, is
// the whole sample's sourceOrder, of which train holds the rows keep (the
// source member's choice reads it: chooseSource). It records in rec what
// each member chose.
func (a *GreedyAuto) committee(ctx context.Context, train Data, st *standardized, gram *greedytl.Gram, pre []*greedytl.Model, order *sourceOrder, keep []int, rec *committeeRecord) (*Linear, int, error) {
	_, d := dims(train.X)
	_, n := dims(train.H)
	whole := st != nil
	gammas := a.memberGammas(d, n)
	if st == nil {
		// The scalers, and the standardised source scores for the source
		// member (GreedyTL standardises its own columns).
		st = &standardized{sx: standardize.Fit(train.X), sh: standardize.Fit(train.H)}
		var err error
		if st.zh, err = st.sh.Transform(train.H); err != nil {
			return nil, 0, fmt.Errorf("method: H: %w", err)
		}
	}
	sum := st.linear(a.Name(), make([]float64, d), make([]float64, n), a.Options.Lambda)
	if n == 0 {
		sum.WH = nil
	}
	if d == 0 {
		sum.WX = nil
	}
	members := 0
	for i, g := range gammas {
		o := a.Options
		o.FeatureFactor = g
		var gm *greedytl.Model
		var err error
		switch {
		case pre != nil:
			gm = pre[i]
		case gram != nil && (whole || o.StopAtMinLOO):
			gm, err = gram.Fit(ctx, o)
		case gram != nil:
			// A subsample's record keeps only the columns chosen (the
			// tally): no leave-one-out path.
			gm, err = gram.FitSelection(ctx, o)
		default:
			gm, err = greedytl.Fit(ctx, matrixOrNil(train.X), matrixOrNil(train.H), train.Y, o)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("GreedyTL member γ = %v: %w", g, err)
		}
		addGreedy(sum, gm)
		rec.greedy(sum, g, gm)
		members++
	}
	if n > 0 {
		best, auc, err := chooseSource(ctx, st.zh, train.Y, order, keep)
		if err != nil {
			return nil, 0, fmt.Errorf("source member: %w", err)
		}
		// The source member is fitted to the labels by ordinary least
		// squares (not logme-source's class-balanced line).
		col := mat.Col(nil, best, st.zh)
		a, b := leastSquaresLine(col, train.Y)
		sum.WH[best] += a
		sum.B += b
		sum.Hyper["source"] = float64(best)
		rec.source(best, auc, a, b)
		members++
	}
	sum.Hyper["delta"] = a.Options.Delta
	return sum, members, nil
}

// chooseSource returns the index of the source member: among the
// standardised source columns of zh (m × n, n > 0) of the highest training
// AUC (the share of (positive, negative) pairs the source scores positive
// higher, ties counting one half), the one with the highest LogME evidence
// (the lowest index on ties). It returns the index and the column's
// training AUC. order, when not nil, is the whole sample's sourceOrder
// and zh the standardised scores of its rows keep (nil: all of them, in
// order): each column's pairs are then counted in one pass over its rows
// in that order (sourceOrder.count), O(m) instead of a sort's O(m log m).
func chooseSource(ctx context.Context, zh *mat.Dense, y []float64, order *sourceOrder, keep []int) (int, float64, error) {
	pos, neg := classRows(y)
	var top []int
	bestPairs := -1
	var pc pairCounter
	var walk *orderWalk
	if order != nil {
		walk = order.walk(keep, y)
	}
	eachColumn(zh, func(j int, col []float64) {
		pairs, ok := 0, false
		if walk != nil {
			pairs, ok = walk.count(j, col)
		}
		if !ok {
			pairs = pc.count(col, pos, neg)
		}
		switch {
		case pairs > bestPairs:
			bestPairs, top = pairs, append(top[:0], j)
		case pairs == bestPairs:
			top = append(top, j)
		}
	})
	best, _, err := logmeChoose(ctx, zh, y, top)
	return best, float64(bestPairs) / float64(2*len(pos)*len(neg)), err
}

// sourceOrder holds, for each source column of greedytl-auto's whole
// sample (its rows in content order), the rows in increasing order of
// their scores (ties in any order), so that the committees of the sample
// and of its subsamples count each source's training AUC without sorting
// its scores again (chooseSource): a sample's standardised score
// (v − μ)/s, with s > 0 (or 0 for a constant column, whose scores are all
// 0), does not decrease as the score v increases — rounding to nearest is
// monotone — so the rows in this order are in order of every sample's
// standardised scores too, some of them tied that were not. The rows are
// held as uint16 when the sample has at most maxNarrowRows of them (2
// bytes × m × n: 200 MB at m = 20,000, n = 5,000), else as uint32.
type sourceOrder struct {
	m      int      // the whole sample's rows
	narrow []uint16 // column j's rows: narrow[j·m : (j+1)·m], when m ≤ maxNarrowRows
	wide   []uint32 // likewise, when m > maxNarrowRows
}

// maxNarrowRows is the most rows a sourceOrder holds as uint16 (row
// numbers 0 … 65,535).
const maxNarrowRows = 1 << 16

// newSourceOrder returns the sourceOrder of the source scores H (m × n),
// its rows as uint16 when m ≤ maxNarrowRows. It returns ctx's error when
// ctx is done.
func newSourceOrder(ctx context.Context, H *mat.Dense) (*sourceOrder, error) {
	m, _ := H.Dims()
	return newSourceOrderWidth(ctx, H, m > maxNarrowRows)
}

// newSourceOrderWidth is newSourceOrder with the rows as uint32 when
// wide, else as uint16 (which needs m ≤ maxNarrowRows).
func newSourceOrderWidth(ctx context.Context, H *mat.Dense, wide bool) (*sourceOrder, error) {
	m, n := H.Dims()
	o := &sourceOrder{m: m}
	if wide {
		o.wide = make([]uint32, m*n)
	} else {
		if m > maxNarrowRows {
			return nil, fmt.Errorf("greedytl-auto: %d rows do not fit a uint16 source order (at most %d)", m, maxNarrowRows)
		}
		o.narrow = make([]uint16, m*n)
	}
	type scored struct {
		v float64
		r int32
	}
	col := make([]scored, m)
	var err error
	eachColumn(H, func(j int, h []float64) {
		if err != nil {
			return
		}
		if j%columnBlock == 0 {
			if err = ctx.Err(); err != nil {
				return
			}
		}
		for i, v := range h {
			col[i] = scored{v, int32(i)}
		}
		slices.SortFunc(col, func(a, b scored) int {
			switch {
			case a.v < b.v:
				return -1
			case a.v > b.v:
				return 1
			}
			return 0
		})
		if wide {
			for i, c := range col {
				o.wide[j*m+i] = uint32(c.r)
			}
			return
		}
		for i, c := range col {
			o.narrow[j*m+i] = uint16(c.r)
		}
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// columnBlock is the number of columns eachColumn copies out of the rows
// at a time.
const columnBlock = 64

// eachColumn calls f with each column j of A in turn, a copy f may
// overwrite, taken out of A's rows columnBlock columns at a time: each row
// is read once, in pieces of columnBlock contiguous values, instead of
// once a column (mat.Col's strided read, which loads a cache line for
// every value once A outgrows the caches).
func eachColumn(A *mat.Dense, f func(j int, col []float64)) {
	m, n := A.Dims()
	raw := A.RawMatrix()
	buf := make([]float64, min(n, columnBlock)*m)
	for j0 := 0; j0 < n; j0 += columnBlock {
		w := min(n-j0, columnBlock)
		for i := range m {
			for b, v := range raw.Data[i*raw.Stride+j0 : i*raw.Stride+j0+w] {
				buf[b*m+i] = v
			}
		}
		for b := range w {
			f(j0+b, buf[b*m:b*m+m])
		}
	}
}

// orderWalk counts a sample's ordered pairs in a sourceOrder's row order:
// at[r] is the sample's row of the whole sample's row r (−1 when the
// sample leaves it out), pos whether the sample's row is a positive.
type orderWalk struct {
	o   *sourceOrder
	at  []int32
	pos []bool
}

// walk returns the orderWalk of the sample of rows keep of o's whole
// sample (nil: all of them) with labels y.
func (o *sourceOrder) walk(keep []int, y []float64) *orderWalk {
	w := &orderWalk{o: o, at: make([]int32, o.m), pos: make([]bool, len(y))}
	for i, v := range y {
		w.pos[i] = v > 0
	}
	if keep == nil {
		for r := range w.at {
			w.at[r] = int32(r)
		}
		return w
	}
	for r := range w.at {
		w.at[r] = -1
	}
	for i, r := range keep {
		w.at[r] = int32(i)
	}
	return w
}

// count returns what pairCounter.count returns for source column j's
// standardised scores col on the walk's sample — twice the number of
// (positive, negative) pairs col scores in the right order, ties counting
// one — in one pass over the sample's rows in the column's sourceOrder,
// a run of equal scores at a time. ok is false, and the count must come
// from pairCounter, when col decreases somewhere along that order (which
// the standardisation's monotonicity rules out).
func (w *orderWalk) count(j int, col []float64) (pairs int, ok bool) {
	m := w.o.m
	if w.o.wide != nil {
		return countInOrder(w.o.wide[j*m:j*m+m], w.at, w.pos, col)
	}
	return countInOrder(w.o.narrow[j*m:j*m+m], w.at, w.pos, col)
}

// countInOrder is orderWalk.count over one column's rows in order, held
// as uint16 or uint32.
func countInOrder[T uint16 | uint32](rows []T, at []int32, isPos []bool, col []float64) (pairs int, ok bool) {
	below := 0   // negatives of the runs before this one
	p, q := 0, 0 // positives and negatives of this run
	last := 0.0  // this run's score
	first := true
	for _, r := range rows {
		i := at[r]
		if i < 0 {
			continue
		}
		v := col[i]
		switch {
		case first:
			first, last = false, v
		case v < last:
			return 0, false
		case v != last:
			pairs += p * (2*below + q)
			below += q
			p, q, last = 0, 0, v
		}
		if isPos[i] {
			p++
		} else {
			q++
		}
	}
	return pairs + p*(2*below+q), true
}

// pairCounter counts ordered pairs with buffers kept between calls.
type pairCounter struct{ p, q []float64 }

// count returns twice the number of (positive, negative) pairs of rows
// (pos × neg) that col scores in the right order, ties counting one (half
// a pair): the training AUC times 2·|pos|·|neg|. It counts from the two
// classes' sorted scores, O(m log m) rather than O(|pos|·|neg|): each
// positive counts 2 for every negative scored lower and 1 for every one
// scored the same.
func (c *pairCounter) count(col []float64, pos, neg []int) int {
	c.p, c.q = c.p[:0], c.q[:0]
	for _, r := range pos {
		c.p = append(c.p, col[r])
	}
	for _, r := range neg {
		c.q = append(c.q, col[r])
	}
	slices.Sort(c.p)
	slices.Sort(c.q)
	pairs, below, upTo := 0, 0, 0 // negatives < v, ≤ v
	for _, v := range c.p {
		for below < len(c.q) && c.q[below] < v {
			below++
		}
		upTo = max(upTo, below)
		for upTo < len(c.q) && c.q[upTo] <= v {
			upTo++
		}
		pairs += 2*below + (upTo - below)
	}
	return pairs
}

// scale multiplies l's decision function by c (weights and intercept).
func (l *Linear) scale(c float64) {
	for j := range l.WX {
		l.WX[j] *= c
	}
	for j := range l.WH {
		l.WH[j] *= c
	}
	l.B *= c
}

// addLinear adds the linear model src, fitted on a subsample, to dst,
// fitted on the whole sample (same columns): a column c with weight w and
// src statistics (μ', s') contributes w·(v − μ')/s' = w·(s/s')·(v − μ)/s +
// w·(μ − μ')/s', (μ, s) being dst's. A column constant on the subsample has
// weight 0 there; a column constant on the whole sample is constant on
// every subsample up to rounding, and its weight, if any, is dropped.
func addLinear(dst, src *Linear) {
	add := func(dsc, ssc standardize.Scaler, dw, sw []float64) {
		for j, w := range sw {
			if w == 0 || ssc.Scale[j] == 0 || dsc.Scale[j] == 0 {
				continue
			}
			dw[j] += w * dsc.Scale[j] / ssc.Scale[j]
			dst.B += w * (dsc.Mean[j] - ssc.Mean[j]) / ssc.Scale[j]
		}
	}
	add(dst.X, src.X, dst.WX, src.WX)
	add(dst.H, src.H, dst.WH, src.WH)
	dst.B += src.B
}

// standardWeight returns the weight, on column c standardised with l's
// statistics, of GreedyTL's weight w on c scaled by s (σ_c/γ for a
// feature): w·σ_c/s.
func standardWeight(l *Linear, c greedytl.Column, w, s float64) float64 {
	sc := l.H
	if c.Kind == greedytl.Feature {
		sc = l.X
	}
	return w * sc.Scale[c.Index] / s
}

// addGreedy adds GreedyTL's predictor gm to the linear model l, whose
// scalers are those of the same training sample: a selected column c with
// weight w, centre μ and scale s contributes w·(v − μ)/s =
// w·(σ_c/s)·(v − μ_c)/σ_c + w·(μ_c − μ)/s, (μ_c, σ_c) being l's statistics
// (μ = μ_c up to rounding; s = σ_c/γ for a feature).
func addGreedy(l *Linear, gm *greedytl.Model) {
	for j, c := range gm.Selected {
		w, mu, s := gm.Weights[j], gm.Mean[j], gm.Scale[j]
		sc, ws := l.H, l.WH
		if c.Kind == greedytl.Feature {
			sc, ws = l.X, l.WX
		}
		ws[c.Index] += standardWeight(l, c, w, s)
		l.B += w * (sc.Mean[c.Index] - mu) / s
	}
}

// check validates the members' settings.
func (a *GreedyAuto) check() error {
	if len(a.Gammas) == 0 {
		return fmt.Errorf("method: greedytl-auto: no GreedyTL member (empty Gammas)")
	}
	for _, g := range a.Gammas {
		if !(g >= 0 && !math.IsInf(g, 1)) {
			return fmt.Errorf("method: greedytl-auto: γ = %v, want ≥ 0 and finite", g)
		}
	}
	if a.Options.Sample != 0 || a.Options.AutoLambda {
		return fmt.Errorf("method: greedytl-auto: Options.Sample and Options.AutoLambda must be unset")
	}
	return nil
}

// decodeAuto decodes a greedytl-auto model file: a Linear model's file
// with an optional committee record (see AutoModel).
func decodeAuto(doc json.RawMessage) (Model, error) {
	m, err := decodeAutoModel(doc)
	if err != nil {
		return nil, fmt.Errorf("greedytl-auto: %w", err)
	}
	return m, nil
}
