package greedytl

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// recordedFile holds the selections, weights and path errors that Fit
// returned, before the primal form and the faster sampled search were
// written (commit "root: record the selections of the dual-only search"),
// over many shapes and seeds; set GREEDYTL_RECORD=1 to rewrite it (only
// ever from that code).
var recordedFile = filepath.Join("testdata", "recorded_fits.json")

// recordedFit is one recorded fit: its problem and what Fit returned.
type recordedFit struct {
	Name     string    `json:"name"`
	Selected []int     `json:"selected"`
	Weights  []float64 `json:"weights"`
	Reg      []float64 `json:"reg"`
	LOO      []float64 `json:"loo"`
	Lambda   float64   `json:"lambda"`
}

// recordedCase is one problem of the recorded set.
type recordedCase struct {
	m, d, n int
	seed    uint64
	o       Options
}

// recordedCases are the recorded problems: the paper's shape (m = 20,
// N = 4995) for GreedyTL-59 over 20 seeds, and exact and sampled fits
// over rows m = 6 … 300 (one seed from m = 100 on, and λ chosen by LOO below it), with the paper's δ rule, with long paths (δ = 0,
// MaxK beyond m), small λ, λ chosen by LOO and the LOO stopping rule.
func recordedCases() []recordedCase {
	var cs []recordedCase
	opt := func(f func(*Options)) Options {
		o := DefaultOptions()
		f(&o)
		return o
	}
	for seed := uint64(1); seed <= 20; seed++ {
		cs = append(cs, recordedCase{20, 0, 4995, seed, opt(func(o *Options) { o.Delta, o.MaxK, o.Sample, o.Seed = 0, 60, 59, seed })})
	}
	for _, s := range []struct{ m, d, n int }{{6, 3, 40}, {12, 10, 200}, {20, 30, 500}, {40, 0, 300}, {100, 20, 400}, {300, 50, 150}} {
		seeds := uint64(3)
		if s.m >= 100 {
			seeds = 1
		}
		for seed := uint64(1); seed <= seeds; seed++ {
			for _, sample := range []int{0, 5, 59} {
				cs = append(cs,
					recordedCase{s.m, s.d, s.n, seed, opt(func(o *Options) { o.Sample, o.Seed = sample, seed })},
					recordedCase{s.m, s.d, s.n, seed, opt(func(o *Options) { o.Sample, o.Seed, o.Delta, o.MaxK = sample, seed, 0, min(s.d+s.n, 2*s.m+3, 120) })},
					recordedCase{s.m, s.d, s.n, seed, opt(func(o *Options) {
						o.Sample, o.Seed, o.Delta, o.MaxK, o.Lambda, o.FeatureFactor = sample, seed, 0, min(s.d+s.n, s.m+5, 60), 1e-3, 2
					})},
				)
				if s.m < 100 {
					cs = append(cs, recordedCase{s.m, s.d, s.n, seed, opt(func(o *Options) {
						o.Sample, o.Seed, o.AutoLambda, o.StopAtMinLOO, o.MaxK = sample, seed, true, true, 40
					})})
				}
			}
		}
	}
	return cs
}

// fitRecorded fits case c.
func fitRecorded(t *testing.T, c recordedCase) (string, *Model) {
	name := fmt.Sprintf("m=%d/d=%d/n=%d/seed=%d/%+v", c.m, c.d, c.n, c.seed, c.o)
	rng := rand.New(rand.NewPCG(c.seed, uint64(c.m*100000+c.d*1000+c.n)))
	X, H := randDense(rng, c.m, c.d), randDense(rng, c.m, c.n)
	y := randLabels(rng, c.m)
	mod, err := Fit(context.Background(), X, H, y, c.o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return name, mod
}

// TestRecordedFits checks that Fit selects what the dual-only code
// selected, in the same order, on every recorded problem (in every form
// of the path, see pathForm), and that its weights and path errors agree
// to 1e-9.
func TestRecordedFits(t *testing.T) {
	cases := recordedCases()
	if os.Getenv("GREEDYTL_RECORD") != "" {
		var recs []recordedFit
		for _, c := range cases {
			name, mod := fitRecorded(t, c)
			r := recordedFit{Name: name, Selected: selectedGlobal(mod), Weights: mod.Weights, Lambda: mod.Options.Lambda}
			for _, s := range mod.Path {
				r.Reg, r.LOO = append(r.Reg, s.RegError), append(r.LOO, s.LOOError)
			}
			recs = append(recs, r)
		}
		b, err := json.MarshalIndent(recs, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(recordedFile, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(recordedFile)
	if err != nil {
		t.Fatal(err)
	}
	var recs []recordedFit
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(cases) {
		t.Fatalf("%s holds %d fits, want %d", recordedFile, len(recs), len(cases))
	}
	for i, c := range cases {
		name, mod := fitRecorded(t, c)
		r := recs[i]
		if name != r.Name {
			t.Fatalf("case %d is %s, recorded %s", i, name, r.Name)
		}
		if got := selectedGlobal(mod); fmt.Sprint(got) != fmt.Sprint(r.Selected) {
			t.Errorf("%s: selected %v, recorded %v", name, got, r.Selected)
			continue
		}
		if mod.Options.Lambda != r.Lambda {
			t.Errorf("%s: λ = %g, recorded %g", name, mod.Options.Lambda, r.Lambda)
		}
		if e := vecRelErr(mod.Weights, r.Weights); e > 1e-9 {
			t.Errorf("%s: weights differ from the recorded ones by %.1e", name, e)
		}
		for j, s := range mod.Path {
			if e := relErr(s.RegError, r.Reg[j]); e > 1e-9 {
				t.Errorf("%s: step %d: RegError %v, recorded %v", name, j, s.RegError, r.Reg[j])
			}
			if e := relErr(s.LOOError, r.LOO[j]); e > 1e-9 {
				t.Errorf("%s: step %d: LOOError %v, recorded %v", name, j, s.LOOError, r.LOO[j])
			}
		}
	}
}
