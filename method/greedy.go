package method

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/modelfile"
	"gonum.org/v1/gonum/mat"
)

// spFeatureFactor is greedytl-sp's default feature factor γ: standardised
// features count half as much as sources at equal correlation with the
// labels. It was chosen by measurement (docs/results/gamma/README.md):
// greedytl-sp:gamma=G for G ∈ {0, 0.1, 0.25, 0.5, 0.75, 1} on COIL-100 (HOG
// and colour-histogram features) and CLINC150, at 2, 5 and 10 positives,
// all targets, 10 splits; γ = 0.5 has the best mean rank over those 9
// dataset × positives cells (2.44; then 0.75 with 2.78 and 1 with 3.00). No
// γ is best everywhere: HOG wants 0.25–0.5, colour histograms and
// CLINC150's bag of words 0.75–1 (greedytl-auto averages γ = 1 and γ = 0.5
// instead of choosing).
const spFeatureFactor = 0.5

// forwardRelLambda is forward-reg's λ relative to a standardised column's
// squared norm m: λ = forwardRelLambda·m. See forwardReg.
const forwardRelLambda = 1e-8

func init() {
	def := greedytl.DefaultOptions()
	Register(Registration{
		Name:            "greedytl",
		SelectsFeatures: true,
		Description:     "GreedyTL (exact greedy selection of features and sources, ridge λ = " + HelpNumber(def.Lambda) + ", δ = " + HelpNumber(def.Delta) + ")",
		New:             newGreedy("greedytl", greedytl.DefaultOptions()),
		Decode:          greedyNaming{base: "greedytl", def: greedytl.DefaultOptions()}.decode,
		Configure:       configureGreedy("greedytl", greedytl.DefaultOptions()),
	})
	o59 := greedytl.DefaultOptions()
	o59.Sample = 59
	Register(Registration{
		Name:            "greedytl-59",
		SelectsFeatures: true,
		Approximates:    "greedytl",
		Description:     "GreedyTL-" + strconv.Itoa(o59.Sample) + " (greedy selection scoring " + strconv.Itoa(o59.Sample) + " random candidates a step, seeded)",
		New:             newGreedy("greedytl-59", o59),
		Decode:          greedyNaming{base: "greedytl-59", def: o59}.decode,
		Configure:       configureGreedy("greedytl-59", o59),
	})
	osp := greedytl.DefaultOptions()
	osp.FeatureFactor = spFeatureFactor
	Register(Registration{
		Name:            "greedytl-sp",
		SelectsFeatures: true,
		Description:     "GreedyTL preferring sources (standardised features scaled by γ = " + HelpNumber(spFeatureFactor) + ")",
		New:             newGreedy("greedytl-sp", osp),
		Decode:          greedyNaming{base: "greedytl-sp", def: osp}.decode,
		Configure:       configureGreedy("greedytl-sp", osp),
	})
	Register(Registration{
		Name:            "forward-reg",
		SelectsFeatures: true,
		Description:     "Forward regression (GreedyTL's selection without regularisation, at most m−1 columns)",
		New:             func() Method { return forwardReg{} },
		Decode:          greedyNaming{base: "forward-reg", fixed: true}.decode,
	})
}

// newGreedy returns the New of a GreedyTL registration named base whose
// default options are def.
func newGreedy(base string, def greedytl.Options) func() Method {
	return func() Method { return &GreedyTL{Base: base, Defaults: def, Options: def} }
}

// configureGreedy returns the Configure of a GreedyTL registration named
// base whose default options are def. The keys are greedytl.SettingKeys.
func configureGreedy(base string, def greedytl.Options) func(Spec) (Method, error) {
	return func(s Spec) (Method, error) {
		o := def
		for _, k := range slices.Sorted(maps.Keys(s.Params)) {
			if err := o.Set(k, s.Params[k]); err != nil {
				return nil, err
			}
		}
		if _, lambda := s.Params[greedytl.KeyLambda]; lambda && o.AutoLambda {
			return nil, fmt.Errorf("lambda and auto_lambda=true exclude each other")
		}
		return &GreedyTL{Base: base, Defaults: def, Options: o}, nil
	}
}

// GreedyTL is a Method that runs the root package's GreedyTL (greedytl.Fit)
// with fixed options. The registry holds three: "greedytl" (the paper's
// exact GreedyTL: DefaultOptions, λ = 1, δ = 1e-4, γ = 1), "greedytl-59"
// (Options.Sample = 59) and "greedytl-sp" (Options.FeatureFactor =
// spFeatureFactor, so that a feature needs a larger correlation with the
// labels than a source to be selected). Nothing is chosen by leave-one-out:
// the options are the paper's (greedytl-auto averages several fits; see
// GreedyAuto).
//
// The inputs need not have both parts: with no sources (H absent) GreedyTL
// selects features only, with no features sources only. Constant columns are
// never selected and duplicated columns are selected at most once (a copy of
// a selected column gains nothing); Fit returns an error when every column
// is constant. A single positive is an ordinary input.
//
// A variant is named by a spec (see Spec), for example
//
//	m, err := method.New("greedytl-sp:gamma=0.25")
//
// whose keys set the options: lambda (λ > 0), delta (δ ≥ 0), gamma (the
// feature factor γ ≥ 0), max_k (a cap on the number of selected columns, 0
// for none), sample (the candidates scored a step, 0 for the exact search)
// stop_at_min_loo (true or false) and auto_lambda (true: λ by leave-one-out,
// see greedytl.Options.AutoLambda). Its Name, and its models' Method, is the
// canonical spec of its options relative to the registration's defaults
// (greedytl.Options.MethodName), which model files and result records carry:
// setting Options directly names the method the same way, so that
// method.New("greedytl") with Options.Sample = 59 is "greedytl:sample=59".
//
// The model's Hyperparameters are "lambda", "delta", "gamma" and, when set,
// "sample" and "max_k"; its SourceWeights are the weights of the selected
// standardised sources (0 for the others).
type GreedyTL struct {
	// Base is the registry name ("greedytl", "greedytl-59",
	// "greedytl-sp"); empty means "greedytl".
	Base string
	// Defaults are the registration's options; Name lists the settings of
	// Options that differ from them.
	Defaults greedytl.Options
	// Options are passed to greedytl.Fit, except Options.Seed: Extra.Seed
	// when Sample > 0 (it seeds the randomised search, and the model's
	// options record it), else 0, since the exact search draws nothing: a
	// seed it never used would make identical models write different
	// files.
	Options greedytl.Options
}

// Name returns the canonical spec of g's options (see GreedyTL).
func (g *GreedyTL) Name() string { return g.naming().name(g.Options) }

// naming returns how g names its models: relative to Base and Defaults,
// or to the registration "greedytl" when Base is empty.
func (g *GreedyTL) naming() greedyNaming {
	if g.Base == "" {
		return greedyNaming{base: greedytl.BaseMethod, def: greedytl.DefaultOptions()}
	}
	return greedyNaming{base: g.Base, def: g.Defaults}
}

// Needs reports that GreedyTL needs nothing beyond the labelled sample,
// and draws at random (Extra.Seed) only in its randomised search, Sample >
// 0.
func (g *GreedyTL) Needs() Needs { return Needs{Seed: g.Options.Sample > 0} }

// DrawsAtRandom reports whether a fit on d feature and n source columns
// draws at random (greedytl.Options.DrawsAtRandom): Sample > 0 below the
// candidates the search may draw from; with Sample at least that many,
// every step scores every candidate and the seed changes nothing.
func (g *GreedyTL) DrawsAtRandom(d, n int) bool { return g.Options.DrawsAtRandom(d, n) }

// Fit runs greedytl.Fit on train. It returns greedytl.Fit's errors and those
// of invalid training data (see the package doc).
func (g *GreedyTL) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	_, d, n, err := startFit(ctx, g, train)
	if err != nil {
		return nil, err
	}
	defer endFit(ctx, g, &result, &err)
	// The model records the seed of a fit that draws at random, and 0 for
	// one that draws nothing (exact, or a Sample of at least the
	// candidates), so that every seed writes the same model file.
	o := g.Options
	o.Seed = 0
	if g.DrawsAtRandom(d, n) {
		o.Seed = extra.Seed
	}
	return fitGreedy(ctx, g.Name(), train, o)
}

// forwardReg is forward regression, the paper's classical greedy feature
// selection baseline (docs/design.md §5): GreedyTL's selection without
// regularisation, on the same standardised columns of [X, H] and with the
// same stopping rule on the gain (δ = 1e-4).
//
// "Without regularisation" is λ = 1e-8·m: a standardised column has squared
// norm m, so λ is 1e-8 of every diagonal entry of ZᵀZ and changes the
// least-squares weights by a relative 1e-8/σ² for a selection whose Gram
// matrix ZᵀZ/m has smallest eigenvalue σ² — nothing measurable unless the
// selected columns are nearly collinear, and there a tiny λ is what keeps the
// weights finite. λ = 0 exactly would make K_S + λI singular as soon as a
// duplicated column (or any column in the span of the selected ones) is
// considered. Centred columns lie in the (m−1)-dimensional space orthogonal
// to the constant vector, so m−1 columns already fit y's centred part
// exactly: the selection stops at |S| = m−1 at most.
//
// Duplicated columns are selected at most once and constant columns never;
// with no sources it selects among features alone; Fit returns an error when
// every column is constant, and when the data are so extreme that even this
// λ does not keep the factorisation reliable (greedytl.Fit's "λ too small").
type forwardReg struct{}

func (forwardReg) Name() string { return "forward-reg" }
func (forwardReg) Needs() Needs { return Needs{} }

// naming returns how forward-reg names its models: "forward-reg", whatever
// the options its fit chose.
func (forwardReg) naming() greedyNaming { return greedyNaming{base: "forward-reg", fixed: true} }

func (forwardReg) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	m, _, _, err := startFit(ctx, forwardReg{}, train)
	if err != nil {
		return nil, err
	}
	defer endFit(ctx, forwardReg{}, &result, &err)
	o := greedytl.DefaultOptions()
	o.Lambda = forwardRelLambda * float64(m)
	o.MaxK = m - 1
	return fitGreedy(ctx, "forward-reg", train, o)
}

// fitGreedy runs greedytl.Fit with options o and wraps the model as the
// method name.
func fitGreedy(ctx context.Context, name string, train Data, o greedytl.Options) (Model, error) {
	gm, err := greedytl.Fit(ctx, matrixOrNil(train.X), matrixOrNil(train.H), train.Y, o)
	if err != nil {
		return nil, fmt.Errorf("%s%w", greedyErrorPrefix(name), err)
	}
	return &greedyModel{name: name, m: gm}, nil
}

// greedyErrorPrefix returns what a GreedyTL method named name puts in front
// of greedytl.Fit's errors (fitGreedy) and of its own context checks'
// "greedytl.Fit" (fitCaller): nothing for the method greedytl, which the
// root package's prefix names already, and otherwise the name (a spec with
// settings, greedytl-59, forward-reg) and ": ", without a package prefix of
// this package's (docs/conventions.md, "Errors").
func greedyErrorPrefix(name string) string {
	if name == greedytl.BaseMethod {
		return ""
	}
	return name + ": "
}

// matrixOrNil returns a as a mat.Matrix, or a nil interface when a is absent.
func matrixOrNil(a mat.Matrix) mat.Matrix {
	if _, c := dims(a); c == 0 {
		return nil
	}
	return a
}

// greedyModel wraps a root-package model as the Model of a greedytl method.
type greedyModel struct {
	name string
	m    *greedytl.Model
}

// Method returns the registry name of the method that fitted the model.
func (g *greedyModel) Method() string { return g.name }

// GreedyModel returns the root package's model, with its selected columns
// and path.
func (g *greedyModel) GreedyModel() *greedytl.Model { return g.m }

// Hyperparameters returns λ ("lambda"), δ ("delta"), γ ("gamma"), and,
// when set, the sample size r ("sample") and cap ("max_k"): see
// greedytl.Options.Hyperparameters.
func (g *greedyModel) Hyperparameters() map[string]float64 {
	return g.m.Options.Hyperparameters()
}

// SourceWeights returns the weight of each standardised source: the ridge
// weight of the selected ones, 0 for the others.
func (g *greedyModel) SourceWeights() []float64 {
	w := make([]float64, g.m.NumSources)
	for j, c := range g.m.Selected {
		if c.Kind == greedytl.Source {
			w[c.Index] = g.m.Weights[j]
		}
	}
	return w
}

// Predict returns the decision values of the rows of d. Unlike the root
// package's Predict it checks every input value, selected or not.
func (g *greedyModel) Predict(d Data) ([]float64, error) {
	if _, err := checkInputs(d, g.m.NumFeatures, g.m.NumSources); err != nil {
		return nil, fmt.Errorf("method: predict: %w", err)
	}
	return g.m.Predict(matrixOrNil(d.X), matrixOrNil(d.H))
}

// writeFile writes the root package's file with the header h, named by
// the model's method, after checking that name as Read's decoder will
// (namingOf): a model named otherwise than the registration its name's
// base names would make for its options (a GreedyTL whose Base or
// Defaults are not a registration's) is refused, writing nothing.
func (g *greedyModel) writeFile(w io.Writer, h modelfile.Header) error {
	n, err := namingOf(h.Method)
	if err == nil {
		err = n.check(h.Method, g.m.Options)
	}
	if err != nil {
		return err
	}
	return g.m.Write(w, h)
}

// greedyNaming is how a registration of a method built on greedytl.Fit
// names its models, and so its files: by the canonical spec of their
// options relative to def, the registration's defaults
// (greedytl.Options.MethodName: greedytl, greedytl-59, greedytl-sp), or,
// when fixed, by base alone, whatever the options the fit chose
// (forward-reg).
type greedyNaming struct {
	base  string
	def   greedytl.Options
	fixed bool
}

// name returns the name of a model with options o.
func (n greedyNaming) name(o greedytl.Options) string {
	if n.fixed {
		return n.base
	}
	return o.MethodName(n.base, n.def)
}

// check returns an error when name is not the name of a model with
// options o: the one test of a GreedyTL file's method name, made by
// decoding (decode) and before writing (writeFile).
func (n greedyNaming) check(name string, o greedytl.Options) error {
	want := n.name(o)
	switch {
	case name == want:
		return nil
	case n.fixed:
		return fmt.Errorf("method %q is not %s", name, n.base)
	}
	return fmt.Errorf("method %q does not match the options, which make %q", name, want)
}

// namingOf returns the naming of the registration Read decodes a file
// named name with: the one name's base names (lookup's errors, such as
// an unknown method), which must be a method built on greedytl.Fit.
func namingOf(name string) (greedyNaming, error) {
	r, err := lookup(name)
	if err != nil {
		return greedyNaming{}, err
	}
	g, ok := r.New().(interface{ naming() greedyNaming })
	if !ok {
		return greedyNaming{}, fmt.Errorf("method %q does not write GreedyTL model files", name)
	}
	return g.naming(), nil
}

// decodeRoot decodes the root package's model in doc, a GreedyTL file of
// any method name whose header Read has checked, and returns it with the
// header (as written: version 1 for a version 1 file).
func decodeRoot(doc json.RawMessage) (*greedytl.Model, modelfile.Header, error) {
	f, err := modelfile.Parse(doc)
	if err != nil {
		return nil, modelfile.Header{}, err
	}
	gm, err := greedytl.DecodeFile(f)
	return gm, f.Header, err
}

// decode is the Decode of the registration named n.base: the file's
// method must be the name n gives its options (check), the name it was
// written with. A version 1 file of a GreedyTL variant, whose name was
// kept apart from its options, is named from its options instead.
func (n greedyNaming) decode(doc json.RawMessage) (Model, error) {
	gm, head, err := decodeRoot(doc)
	if err != nil {
		return nil, err
	}
	name := head.Method
	if head.Version == modelfile.Version1 && !n.fixed {
		name = n.name(gm.Options)
	}
	if err := n.check(name, gm.Options); err != nil {
		return nil, err
	}
	return &greedyModel{name: name, m: gm}, nil
}
