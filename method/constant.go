package method

import (
	"context"
	"math"

	"github.com/greedytl/greedytl"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// epsilon is the float64 rounding unit ε = 2⁻⁵² of the constant-model
// rule (docs/design.md §9, "Constant models").
const epsilon = 0x1p-52

// ScoresConstant reports whether the scores of one model (a binary model's,
// or one class's score column) on its n training examples are constant to
// working precision: their spread (max − min) is at most bound =
// n·ε·max(1, max |score|), ε the float64 rounding unit (2⁻⁵²). It returns
// spread and bound with the judgement.
//
// Why that bound: a fit's targets are on the labels' scale (±1 for a
// least-squares fit; a logistic fit's margins and a multinomial fit's
// logits on the same scale). Every quantity a fit derives from them — the
// labels' mean, each Σᵢ zᵢⱼ·yᵢ of the standardised columns — is a sum over
// the n examples of terms of magnitude up to about 1, whose computed value
// is uncertain by up to about n·ε (the rounding bound of a sum of n terms,
// γₙ = nε/(1−nε)), and a score above 1 in magnitude by n·ε of itself. Score
// differences within that are what rounding leaves where the exact fit
// finds nothing to tell the examples apart (weights of 1e-20 on labels
// that cancel exactly): they are not the data's. A genuine model cannot be
// that flat: the methods weight standardised columns (or fit scores on the
// labels' scale), so however large or small a feature's values, and
// however small its weight in the feature's own units, a model that tells
// the training examples apart moves its scores on the labels' scale, far
// above n·ε (a ridge of λ = 10⁴ on eight examples still spreads them by
// about 10⁻⁴).
func ScoresConstant(scores []float64) (spread, bound float64, constant bool) {
	lo, hi, scale := math.Inf(1), math.Inf(-1), 1.0
	for _, v := range scores {
		lo, hi, scale = min(lo, v), max(hi, v), max(scale, math.Abs(v))
	}
	spread = hi - lo
	bound = float64(len(scores)) * epsilon * scale
	return spread, bound, spread <= bound
}

// Constancy is the judgement of the constant-model rule (docs/design.md
// §9, "Constant models") on one model, or on one class of a multi-class
// model.
type Constancy struct {
	// Constant reports that the model is constant to working precision:
	// it ranks no training example above another but by rounding.
	Constant bool
	// NoColumn reports that it keeps no column at all (its score is one
	// constant); Constant is then true, and Rows, Spread and Bound are 0.
	NoColumn bool
	// Rows is the number of training examples scored, and Spread and
	// Bound are ScoresConstant's on their scores.
	Rows          int
	Spread, Bound float64
}

// ConstantModel applies the constant-model rule to model, fitted on train
// (its X and H; Y is not read): a model that keeps no column, or whose
// scores on the training examples differ by no more than the rounding of
// the fit's arithmetic (ScoresConstant). ok is false when the rule does
// not apply: the model has no per-column weights (Selected), or it could
// not score the training rows (none, or an error).
func ConstantModel(model Model, train Data) (c Constancy, ok bool) {
	return judgeConstant(model, func() ([]float64, error) {
		train.Y = nil
		return model.Predict(train)
	})
}

// judgeConstant is ConstantModel with the model's training scores given by
// scores, called only when the model keeps some column: Predict's on the
// training rows, or the scores a fit computed of them already (OneVsRest).
func judgeConstant(model Model, scores func() ([]float64, error)) (c Constancy, ok bool) {
	sel, ok := model.Selected()
	if !ok {
		return Constancy{}, false
	}
	if len(sel.Columns) == 0 {
		return Constancy{Constant: true, NoColumn: true}, true
	}
	f, err := scores()
	if err != nil || len(f) == 0 {
		return Constancy{}, false
	}
	spread, bound, constant := ScoresConstant(f)
	return Constancy{Constant: constant, Rows: len(f), Spread: spread, Bound: bound}, true
}

// judgement is a model's Constancy by the constant-model rule, and whether
// the rule applies (ConstantModel's two results).
type judgement struct {
	Constancy
	ok bool
}

// ClassConstancy is the constant-model rule's judgement of one class of a
// multi-class model.
type ClassConstancy struct {
	// Class is the class's index in the model's Classes.
	Class int
	Constancy
	// Prior reports an average-kt class model (one class against the
	// rest) of no feature of non-zero weight: its source weights, 1/n
	// each, are average-kt's fixed prior (the sources' average, which
	// every class's model shares), and its intercept is 0, so that its
	// score is that average over its root mean square on the training
	// rows, the same for every such class: nothing of the class's own.
	// Constant is true, and the other members are 0.
	Prior bool
}

// ConstantClasses applies the constant-model rule to every class of model,
// fitted on train (X and H), and returns the classes it holds for
// (constant to working precision, or of no column of their own), in class
// order; ok is false when model has no per-column weights (Selected).
//
// Fitted one class against the rest, each class's model is judged as a
// binary model is (ConstantModel, on its own scores before the one-vs-rest
// scaling; a model just fitted, from the scores its fit computed of the
// training rows, not scoring them again), and average-kt's class models
// of no feature are the Prior kind. A native multi-class model (and an ensemble) is judged per class
// score column: a class whose Selection keeps no column, or whose column
// of Scores on the training rows is constant to working precision
// (ScoresConstant). A class's score column is its own linear function
// of the standardised columns, fitted on targets of the labels' scale
// (one-hot or logits), so the rounding bound is the binary one; a rule on
// the differences between classes would judge pairs of classes, not a
// class, and a softmax's common shift of every column changes neither.
// The training rows are scored only when some class keeps a column; ctx
// is checked between classes, and its error returned once it is done. An
// error scoring the training rows leaves the score rule out (the
// classes of no column are returned all the same).
func ConstantClasses(ctx context.Context, model MultiModel, train Data) (classes []ClassConstancy, ok bool, err error) {
	classes, ok, _, err = constantClasses(ctx, model, train)
	return classes, ok, err
}

// constantClasses is ConstantClasses, also returning the scores of the
// training rows it computed (Scores of train: a native multi-class model's
// or an ensemble's once some class keeps a column, rows × classes), or nil.
func constantClasses(ctx context.Context, model MultiModel, train Data) (classes []ClassConstancy, ok bool, S *mat.Dense, err error) {
	sel, ok := model.Selected()
	if !ok {
		return nil, false, nil, nil
	}
	train.Y = nil
	K := len(model.Classes())
	if o, isOVR := model.(*ovrModel); isOVR {
		for k, m := range o.models {
			if err := ctx.Err(); err != nil {
				return nil, true, nil, err
			}
			if k >= K {
				break
			}
			if k < len(sel) && len(sel[k].Columns) > 0 && m.Method() == (averageKT{}).Name() && sel[k].Features() == 0 {
				classes = append(classes, ClassConstancy{Class: k, Constancy: Constancy{Constant: true}, Prior: true})
				continue
			}
			c, ok := Constancy{}, false
			if k < len(o.judged) { // the fit's judgement of its own scores
				c, ok = o.judged[k].Constancy, o.judged[k].ok
			} else {
				c, ok = ConstantModel(m, train)
			}
			if ok && c.Constant {
				classes = append(classes, ClassConstancy{Class: k, Constancy: c})
			}
		}
		return classes, true, nil, nil
	}
	tried := false // whether the scores were asked for (once, failed or not)
	var col []float64
	for k := range min(K, len(sel)) {
		if len(sel[k].Columns) == 0 {
			classes = append(classes, ClassConstancy{Class: k, Constancy: Constancy{Constant: true, NoColumn: true}})
			continue
		}
		if !tried {
			tried = true
			if err := ctx.Err(); err != nil {
				return nil, true, nil, err
			}
			if s, err := model.Scores(train); err == nil {
				if r, c := s.Dims(); r > 0 && c == K {
					S = s
				}
			}
		}
		if S == nil {
			continue
		}
		col = mat.Col(col, k, S)
		spread, bound, constant := ScoresConstant(col)
		if constant {
			classes = append(classes, ClassConstancy{Class: k, Constancy: Constancy{Constant: true, Rows: len(col), Spread: spread, Bound: bound}})
		}
	}
	return classes, true, S, nil
}

// WeightsConstant is the constant-model rule as a model's weights alone
// decide it, without its training rows (inspect's, which has the model
// file only): sum is Σⱼ |wⱼ|·gⱼ over the model's weights wⱼ, gⱼ the
// population standard deviation of column j as the model weights it on
// the training rows (1 for a standardised column, γ for a GreedyTL
// feature; a constant column, 0 everywhere, has weight 0), and constant
// reports sum ≤ ε. That suffices for the training-rows rule: a column of
// population standard deviation gⱼ on n rows lies within gⱼ·√(n−1) of its
// mean (Samuelson's inequality), so the scores' spread is at most
// 2·√(n−1)·sum ≤ n·sum ≤ n·ε, within ScoresConstant's bound whatever the
// training rows were (2√(n−1) ≤ n for every n, as (n−2)² ≥ 0). It is not
// necessary: weights summing to between ε and about √n·ε/2 may make
// training scores that ScoresConstant judges constant, which only the fit,
// holding the rows, sees. A model that keeps no column has sum 0. ok is
// false for a model whose weights the rule cannot bound this way: no
// per-column weights, or weights on unstandardised columns.
func WeightsConstant(model Model) (sum float64, constant, ok bool) {
	switch m := model.(type) {
	case *Linear:
		if m == nil {
			return 0, false, false
		}
		sum = floats.Norm(m.WX, 1) + floats.Norm(m.WH, 1)
	case *AutoModel:
		if m == nil || m.Linear == nil {
			return 0, false, false
		}
		return WeightsConstant(m.Linear)
	case *greedyModel:
		if m == nil || m.m == nil {
			return 0, false, false
		}
		for i, c := range m.m.Selected {
			g := 1.0
			if c.Kind == greedytl.Feature {
				g = m.m.Options.FeatureFactor
			}
			if i < len(m.m.Weights) {
				sum += math.Abs(m.m.Weights[i]) * g
			}
		}
	default:
		return 0, false, false
	}
	return sum, sum <= epsilon, true
}

// ClassWeightsConstant is WeightsConstant for each class of a multi-class
// model: one class against the rest, each class's model's. A native
// linear model's (form "linear") class is constant by its weights alone
// when its row of weights is all 0 (it keeps no column): its scales may
// be moderated (greedytl-nway's, standardize.FitModerated), not the
// columns' population standard deviations, so Σ|w| ≤ ε does not bound its
// training scores' spread; sums holds each row's Σ|w| all the same. ok is
// false for the other forms (no per-column weights, or an ensemble, whose
// scores are averaged probabilities).
func ClassWeightsConstant(model MultiModel) (sums []float64, constant []bool, ok bool) {
	switch m := model.(type) {
	case *ovrModel:
		for _, b := range m.models {
			s, c, ok := WeightsConstant(b)
			if !ok {
				return nil, nil, false
			}
			sums, constant = append(sums, s), append(constant, c)
		}
	case *LinearMulti:
		if m == nil || m.w == nil {
			return nil, nil, false
		}
		r, _ := m.w.Dims()
		for k := range r {
			s := floats.Norm(m.w.RawRowView(k), 1)
			sums, constant = append(sums, s), append(constant, s == 0)
		}
	default:
		return nil, nil, false
	}
	return sums, constant, true
}
