package method

import (
	"cmp"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/greedytl/greedytl"
)

// dropRow returns the rows of d but i, built independently of rowBuffers.
func dropRow(d Data, i int) Data {
	perm := make([]int, 0, len(d.Y)-1)
	for r := range d.Y {
		if r != i {
			perm = append(perm, r)
		}
	}
	return permuteRows(d, perm)
}

// bruteAuto is greedytl-auto by its definition: for every setting, refit
// GreedyTL without each example in turn and predict it; then choose the
// setting by sorting on (0-1 error, not the paper's setting, squared loss,
// −λ, −γ).
func bruteAuto(t *testing.T, train Data, gammas, lambdas []float64) (best autoSetting, preds map[autoSetting][]float64) {
	t.Helper()
	m := len(train.Y)
	pos, neg, _ := classCounts(train.Y)
	type scored struct {
		s         autoSetting
		e01, loss float64
	}
	var all []scored
	preds = map[autoSetting][]float64{}
	for _, g := range gammas {
		for _, l := range lambdas {
			s := autoSetting{g, l}
			p := make([]float64, m)
			for i := range m {
				if (train.Y[i] > 0 && pos == 1) || (train.Y[i] < 0 && neg == 1) {
					continue
				}
				sub := dropRow(train, i)
				o := greedytl.DefaultOptions()
				o.FeatureFactor, o.Lambda = g, l
				gm, err := greedytl.Fit(context.Background(), matrixOrNil(sub.X), matrixOrNil(sub.H), sub.Y, o)
				if err != nil {
					t.Fatalf("γ %v λ %v without %d: %v", g, l, i, err)
				}
				one := permuteRows(train, []int{i})
				f, err := gm.Predict(matrixOrNil(one.X), matrixOrNil(one.H))
				if err != nil {
					t.Fatal(err)
				}
				p[i] = f[0]
			}
			preds[s] = p
			var e, lp, ln float64
			for i, f := range p {
				r := (train.Y[i] - f) * (train.Y[i] - f)
				if train.Y[i] > 0 {
					lp += r / float64(pos)
					if f <= 0 {
						e += 0.5 / float64(pos)
					}
				} else {
					ln += r / float64(neg)
					if f > 0 {
						e += 0.5 / float64(neg)
					}
				}
			}
			all = append(all, scored{s, e, (lp + ln) / 2})
		}
	}
	notDefault := func(s autoSetting) int {
		if s == (autoSetting{1, 1}) {
			return 0
		}
		return 1
	}
	slices.SortFunc(all, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.e01, b.e01), cmp.Compare(notDefault(a.s), notDefault(b.s)),
			cmp.Compare(a.loss, b.loss), cmp.Compare(b.s.lambda, a.s.lambda), cmp.Compare(b.s.gamma, a.s.gamma))
	})
	if len(all) > 1 && all[0].e01 == all[1].e01 && notDefault(all[0].s) == 1 && notDefault(all[1].s) == 1 &&
		math.Abs(all[0].loss-all[1].loss) < 1e-6*all[0].loss {
		t.Fatalf("near tie between %v and %v: choose another problem", all[0], all[1])
	}
	return all[0].s, preds
}

func TestGreedyAutoBruteForce(t *testing.T) {
	gammas, lambdas := []float64{0, 0.3, 1}, []float64{0.1, 1, 10}
	for _, tc := range []struct {
		name string
		data Data
	}{
		{"2 positives", newConformanceCase(31, 12, 2, 4, 6).train},
		{"5 positives", newConformanceCase(32, 15, 5, 6, 5).train},
		{"1 positive", newConformanceCase(33, 11, 1, 4, 6).train},
		{"no sources", newConformanceCase(34, 12, 4, 5, 3).withoutSources().train},
		{"no features", func() Data { d := newConformanceCase(35, 12, 4, 5, 6).train; d.X = nil; return d }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &GreedyAuto{Gammas: gammas, Lambdas: lambdas, Options: greedytl.DefaultOptions()}
			_, d, n, err := checkTrain(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			g := gammas
			if d == 0 || n == 0 {
				g = []float64{1} // γ only rescales λ
			}
			want, wantPreds := bruteAuto(t, tc.data, g, lambdas)

			settings := a.settings(d > 0 && n > 0)
			preds, err := autoLOO(context.Background(), tc.data, a.Options, settings)
			if err != nil {
				t.Fatal(err)
			}
			if len(settings) != len(wantPreds) {
				t.Fatalf("%d settings, want %d", len(settings), len(wantPreds))
			}
			for k, s := range settings {
				for i, f := range preds[k] {
					if w := wantPreds[s][i]; math.Abs(f-w) > 1e-12*math.Max(1, math.Abs(w)) {
						t.Errorf("%+v: f₋%d = %v, refitting without it gives %v", s, i, f, w)
					}
				}
			}

			model, err := a.Fit(context.Background(), tc.data, Extra{})
			if err != nil {
				t.Fatal(err)
			}
			hp := model.Hyperparameters()
			if hp["gamma"] != want.gamma || hp["lambda"] != want.lambda {
				t.Errorf("chose γ %v λ %v, want %+v", hp["gamma"], hp["lambda"], want)
			}
			o := greedytl.DefaultOptions()
			o.FeatureFactor, o.Lambda = want.gamma, want.lambda
			gm, err := greedytl.Fit(context.Background(), matrixOrNil(tc.data.X), matrixOrNil(tc.data.H), tc.data.Y, o)
			if err != nil {
				t.Fatal(err)
			}
			got := rootModel(t, model)
			if !slices.Equal(got.Selected, gm.Selected) || !slices.Equal(got.Weights, gm.Weights) {
				t.Errorf("the model is not GreedyTL refitted with the chosen setting")
			}
			if model.Method() != "greedytl-auto" {
				t.Errorf("Method() = %q", model.Method())
			}
		})
	}
}

// A single positive cannot be left out: its prediction is the zero
// predictor's, 0, for every setting.
func TestAutoLOOSinglePositive(t *testing.T) {
	c := newConformanceCase(41, 11, 1, 4, 6)
	a := newGreedyAuto()
	settings := a.settings(true)
	preds, err := autoLOO(context.Background(), c.train, a.Options, settings)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range preds {
		if p[0] != 0 {
			t.Errorf("%+v: the single positive's LOO prediction is %v, want 0", settings[k], p[0])
		}
		for i, f := range p[1:] {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				t.Errorf("%+v: f₋%d = %v", settings[k], i+1, f)
			}
		}
	}
}

func TestChooseAuto(t *testing.T) {
	y := []float64{1, 1, -1, -1, -1}
	def := autoSetting{1, 1}
	nan := math.NaN()
	perfect := []float64{1, 1, -1, -1, -1}   // 0-1 error 0, squared 0
	close := []float64{0.9, 0.8, -1, -1, -1} // 0-1 error 0, squared > 0
	oneWrong := []float64{-0.1, 1, -1, -1, -1}
	for _, tc := range []struct {
		name     string
		settings []autoSetting
		preds    [][]float64
		want     autoSetting
	}{
		{"a lower 0-1 error beats the paper's setting",
			[]autoSetting{def, {0.5, 1}}, [][]float64{oneWrong, close}, autoSetting{0.5, 1}},
		{"the paper's setting wins a 0-1 tie against a lower squared loss",
			[]autoSetting{{0.5, 10}, def, {0, 1}}, [][]float64{perfect, close, perfect}, def},
		{"otherwise the lower squared loss",
			[]autoSetting{{0.5, 10}, {0.25, 1}, def}, [][]float64{close, perfect, oneWrong}, autoSetting{0.25, 1}},
		{"then the larger λ",
			[]autoSetting{{0.5, 0.1}, {0.5, 10}, {0.5, 1}}, [][]float64{close, close, close}, autoSetting{0.5, 10}},
		{"then the larger γ",
			[]autoSetting{{0.25, 10}, {0.75, 10}, {0.5, 10}}, [][]float64{close, close, close}, autoSetting{0.75, 10}},
		{"a setting with a failed fold is skipped",
			[]autoSetting{{0.5, 1}, def}, [][]float64{{1, 1, -1, -1, nan}, oneWrong}, def},
		{"no usable setting: the paper's",
			[]autoSetting{{0.5, 1}, {0.25, 1}}, [][]float64{{nan, 1, -1, -1, -1}, {1, 1, -1, nan, -1}}, def},
		{"0 counts as negative",
			[]autoSetting{def, {0.5, 1}}, [][]float64{{0, 1, -1, -1, -1}, {1, 1, -1, -1, 0}}, autoSetting{0.5, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := chooseAuto(y, tc.settings, tc.preds); got != tc.want {
				t.Errorf("chose %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestGreedyAutoChecksGrid(t *testing.T) {
	c := newConformanceCase(42, 12, 3, 4, 5)
	for _, a := range []*GreedyAuto{
		{Gammas: nil, Lambdas: []float64{1}, Options: greedytl.DefaultOptions()},
		{Gammas: []float64{1}, Lambdas: nil, Options: greedytl.DefaultOptions()},
		{Gammas: []float64{-1}, Lambdas: []float64{1}, Options: greedytl.DefaultOptions()},
		{Gammas: []float64{1}, Lambdas: []float64{0}, Options: greedytl.DefaultOptions()},
		{Gammas: []float64{math.NaN()}, Lambdas: []float64{1}, Options: greedytl.DefaultOptions()},
		{Gammas: []float64{1}, Lambdas: []float64{1}, Options: greedytl.Options{Lambda: 1, Delta: 1e-4, FeatureFactor: 1, Sample: 59}},
	} {
		if _, err := a.Fit(context.Background(), c.train, Extra{}); err == nil {
			t.Errorf("Fit with grids %v × %v and options %+v: no error", a.Gammas, a.Lambdas, a.Options)
		}
	}
}
