package method

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl"
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
// CLINC150's bag of words 0.75–1 (greedytl-auto chooses γ per task).
const spFeatureFactor = 0.5

// forwardRelLambda is forward-reg's λ relative to a standardised column's
// squared norm m: λ = forwardRelLambda·m. See forwardReg.
const forwardRelLambda = 1e-8

func init() {
	Register(Registration{
		Name:            "greedytl",
		Label:           "GreedyTL",
		Color:           rgb(0xd6, 0x27, 0x28),
		SelectsFeatures: true,
		Description:     "GreedyTL (exact greedy selection of features and sources, ridge λ = 1, δ = 1e-4)",
		New:             newGreedy("greedytl", greedytl.DefaultOptions()),
		Decode:          decodeGreedy,
		Configure:       configureGreedy(greedytl.DefaultOptions()),
	})
	o59 := greedytl.DefaultOptions()
	o59.Sample = 59
	Register(Registration{
		Name:            "greedytl-59",
		Label:           "GreedyTL-59",
		Color:           rgb(0xff, 0x7f, 0x0e),
		SelectsFeatures: true,
		Description:     "GreedyTL-59 (greedy selection scoring 59 random candidates a step, seeded)",
		New:             newGreedy("greedytl-59", o59),
		Decode:          decodeGreedy,
		Configure:       configureGreedy(o59),
	})
	osp := greedytl.DefaultOptions()
	osp.FeatureFactor = spFeatureFactor
	Register(Registration{
		Name:            "greedytl-sp",
		Label:           "GreedyTL-SP",
		Color:           rgb(0x8c, 0x56, 0x4b),
		SelectsFeatures: true,
		Description:     "GreedyTL preferring sources (standardised features scaled by γ = " + strconv.FormatFloat(spFeatureFactor, 'g', -1, 64) + ")",
		New:             newGreedy("greedytl-sp", osp),
		Decode:          decodeGreedy,
		Configure:       configureGreedy(osp),
	})
	Register(Registration{
		Name:            "forward-reg",
		Label:           "Forward-Reg",
		Color:           rgb(0x7f, 0x7f, 0x7f),
		SelectsFeatures: true,
		Description:     "Forward regression (GreedyTL's selection without regularisation, at most m−1 columns)",
		New:             func() Method { return forwardReg{} },
		Decode:          decodeGreedy,
	})
}

// newGreedy returns the New of a GreedyTL registration.
func newGreedy(name string, o greedytl.Options) func() Method {
	return func() Method { return &GreedyTL{Variant: name, Options: o} }
}

// configureGreedy returns the Configure of a GreedyTL registration whose
// default options are def. The keys are those of GreedyTL's doc comment.
func configureGreedy(def greedytl.Options) func(Spec) (Method, error) {
	return func(s Spec) (Method, error) {
		o := def
		for _, k := range slices.Sorted(maps.Keys(s.Params)) {
			if err := setGreedyOption(&o, k, s.Params[k]); err != nil {
				return nil, err
			}
		}
		return &GreedyTL{Variant: s.String(), Options: o}, nil
	}
}

// greedyKeys lists the spec keys of the GreedyTL methods.
var greedyKeys = []string{"delta", "gamma", "lambda", "max_k", "sample", "stop_at_min_loo"}

// setGreedyOption sets the option that a spec key names, checking its
// range as greedytl.Fit would.
func setGreedyOption(o *greedytl.Options, key string, v float64) (err error) {
	switch key {
	case "lambda":
		if !(v > 0) {
			return fmt.Errorf("lambda must be positive, got %v", v)
		}
		o.Lambda, o.AutoLambda = v, false
	case "delta":
		if !(v >= 0) {
			return fmt.Errorf("delta must be ≥ 0, got %v", v)
		}
		o.Delta = v
	case "gamma":
		if !(v >= 0) {
			return fmt.Errorf("gamma (the feature factor) must be ≥ 0, got %v", v)
		}
		o.FeatureFactor = v
	case "max_k":
		o.MaxK, err = specInt(key, v, 0, math.MaxInt32)
	case "sample":
		o.Sample, err = specInt(key, v, 0, math.MaxInt32)
	case "stop_at_min_loo":
		o.StopAtMinLOO, err = specBool(key, v)
	default:
		return fmt.Errorf("unknown key %q (the GreedyTL methods take %s)", key, strings.Join(greedyKeys, ", "))
	}
	return err
}

// GreedyTL is a Method that runs the root package's GreedyTL (greedytl.Fit)
// with fixed options. The registry holds three: "greedytl" (the paper's
// exact GreedyTL: DefaultOptions, λ = 1, δ = 1e-4, γ = 1), "greedytl-59"
// (Options.Sample = 59) and "greedytl-sp" (Options.FeatureFactor =
// spFeatureFactor, so that a feature needs a larger correlation with the
// labels than a source to be selected). Nothing is chosen by leave-one-out:
// the options are the paper's (greedytl-auto chooses γ and λ; see
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
// and stop_at_min_loo (true or false). Its Name, and its models' Method, is
// the canonical spec, which model files and result records carry. (Setting
// Options directly also works, but keeps the registry name.)
//
// The model's Hyperparameters are "lambda", "delta", "feature_factor" and,
// when set, "sample" and "max_k"; its SourceWeights are the weights of the
// selected standardised sources (0 for the others).
type GreedyTL struct {
	// Variant is the name that Name reports and model files record: the
	// registry name, or a canonical spec for a variant.
	Variant string
	// Options are passed to greedytl.Fit, except that Options.Seed is
	// replaced by Extra.Seed for the randomised search (Sample > 0).
	Options greedytl.Options
}

// Name returns g.Variant.
func (g *GreedyTL) Name() string { return g.Variant }

// Needs reports that GreedyTL needs nothing beyond the labelled sample.
func (g *GreedyTL) Needs() Needs { return Needs{} }

// Fit runs greedytl.Fit on train. It returns greedytl.Fit's errors and those
// of invalid training data (see the package doc).
func (g *GreedyTL) Fit(ctx context.Context, train Data, extra Extra) (Model, error) {
	if _, _, _, err := checkTrain(train); err != nil {
		return nil, err
	}
	o := g.Options
	if o.Sample > 0 {
		o.Seed = extra.Seed
	}
	return fitGreedy(ctx, g.Variant, train, o)
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

func (forwardReg) Fit(ctx context.Context, train Data, extra Extra) (Model, error) {
	m, _, _, err := checkTrain(train)
	if err != nil {
		return nil, err
	}
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
		return nil, fmt.Errorf("method: %s: %w", name, err)
	}
	return &greedyModel{name: name, m: gm}, nil
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

// Hyperparameters returns λ ("lambda"), δ ("delta"), γ ("feature_factor"),
// and, when set, the sample size r ("sample") and cap ("max_k").
func (g *greedyModel) Hyperparameters() map[string]float64 {
	return greedyHyper(g.m.Options)
}

func greedyHyper(o greedytl.Options) map[string]float64 {
	hp := map[string]float64{"lambda": o.Lambda, "delta": o.Delta, "feature_factor": o.FeatureFactor}
	if o.Sample > 0 {
		hp["sample"] = float64(o.Sample)
	}
	if o.MaxK > 0 {
		hp["max_k"] = float64(o.MaxK)
	}
	return hp
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
		return nil, err
	}
	return g.m.Predict(matrixOrNil(d.X), matrixOrNil(d.H))
}

// fileDocument returns the root package's file with the method name
// replaced and "hyperparameters" inserted after it.
func (g *greedyModel) fileDocument() (any, error) {
	var buf bytes.Buffer
	if err := g.m.WriteJSON(&buf); err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &members); err != nil {
		return nil, err
	}
	hp, err := json.Marshal(greedyHyper(g.m.Options))
	if err != nil {
		return nil, err
	}
	members["method"] = json.RawMessage(strconv.Quote(g.name))
	members["hyperparameters"] = hp
	return orderedObject(members, "format", "version", "method", "hyperparameters",
		"num_features", "num_sources", "options", "columns"), nil
}

// orderedObject encodes members as a JSON object, the keys listed in first
// in that order, then any others in sorted order.
func orderedObject(members map[string]json.RawMessage, first ...string) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	write := func(k string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		b.Write(members[k])
	}
	done := make(map[string]bool, len(first))
	for _, k := range first {
		if _, ok := members[k]; ok {
			write(k)
			done[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if !done[k] {
			write(k)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// decodeGreedy decodes the model file of a greedytl method: the root
// package's file, whose "method" is the registry name or a spec, and which
// may hold "hyperparameters" (a root-package file has none; when present
// they must be those of its options). The settings of a spec must agree
// with the file's options (a file of "greedytl-sp:gamma=0.25" must have
// feature factor 0.25).
func decodeGreedy(doc json.RawMessage) (Model, error) {
	name, gm, err := decodeRoot(doc)
	if err != nil {
		return nil, err
	}
	return &greedyModel{name: name, m: gm}, nil
}

// decodeRoot reads the root-package model inside a greedytl method's file
// and returns it with the file's method name (see decodeGreedy).
func decodeRoot(doc json.RawMessage) (string, *greedytl.Model, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(doc, &members); err != nil {
		return "", nil, err
	}
	var name string
	if err := json.Unmarshal(members["method"], &name); err != nil {
		return "", nil, fmt.Errorf("method: %w", err)
	}
	spec, err := ParseSpec(name)
	if err != nil {
		return "", nil, err
	}
	var head struct {
		Options struct {
			Sample int `json:"sample"`
		} `json:"options"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return "", nil, err
	}
	root := "greedytl"
	if head.Options.Sample > 0 {
		root = "greedytl-59"
	}
	if (name == "greedytl" || name == "greedytl-59") && name != root {
		return "", nil, fmt.Errorf("method %q does not match options.sample = %d", name, head.Options.Sample)
	}
	hpRaw, hasHP := members["hyperparameters"]
	delete(members, "hyperparameters")
	members["method"] = json.RawMessage(strconv.Quote(root))
	gm, err := greedytl.ReadModel(bytes.NewReader(orderedObject(members)))
	if err != nil {
		return "", nil, err
	}
	if hasHP {
		var hp map[string]float64
		if err := json.Unmarshal(hpRaw, &hp); err != nil {
			return "", nil, fmt.Errorf("hyperparameters: %w", err)
		}
		if want := greedyHyper(gm.Options); !maps.Equal(hp, want) {
			return "", nil, fmt.Errorf("hyperparameters %v disagree with the options (%v)", hp, want)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Params)) {
		want := spec.Params[k]
		got, ok := greedyOption(gm.Options, k)
		if !ok {
			return "", nil, fmt.Errorf("method %q: unknown key %q", name, k)
		}
		if got != want {
			return "", nil, fmt.Errorf("method %q sets %s = %v but the options have %v", name, k, want, got)
		}
	}
	return name, gm, nil
}

// greedyOption returns the value of the option a spec key names, and false
// for an unknown key.
func greedyOption(o greedytl.Options, key string) (float64, bool) {
	switch key {
	case "lambda":
		return o.Lambda, true
	case "delta":
		return o.Delta, true
	case "gamma":
		return o.FeatureFactor, true
	case "max_k":
		return float64(o.MaxK), true
	case "sample":
		return float64(o.Sample), true
	case "stop_at_min_loo":
		if o.StopAtMinLOO {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
