package method

import (
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/linear"
)

func TestHelpNumber(t *testing.T) {
	for v, want := range map[float64]string{1: "1", 0.5: "0.5", 1e-4: "1e-4", 0.001: "1e-3", 0.25: "0.25", 1e6: "1e6", 1.5e-7: "1.5e-7", 20: "20", -1e-5: "-1e-5"} {
		if got := HelpNumber(v); got != want {
			t.Errorf("HelpNumber(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestFactsAreTheConstants: Facts reads each number from its owner (a
// change of a constant changes the CLI's help with it).
func TestFactsAreTheConstants(t *testing.T) {
	f := Facts()
	if f.DAMPairs != len(tauGrid)*len(lambdaGrid) || f.MultinomialCValues != len(multinomialCGrid()) ||
		f.LogisticLOOMaxRows != logisticLOOMaxRows || f.LogisticFolds != logisticFoldCount ||
		f.MultinomialFolds != multinomialFolds || f.MultinomialDefaultC != multinomialDefaultC ||
		f.MultinomialCVPerClass != multinomialCVPerClass || f.ScoreBlockFloats != scoreBlockFloats ||
		f.AutoRidgeLambdaRows != ridgeLambdaRows || f.AutoGramMinWork != gramMinWork || f.SPFeatureFactor != spFeatureFactor {
		t.Errorf("Facts() = %+v", f)
	}
	if f.SPFeatureFactor != autoGammas[1] {
		t.Errorf("greedytl-auto's member preferring sources has γ = %v, greedytl-sp's default is %v", autoGammas[1], f.SPFeatureFactor)
	}
}

// TestDescriptionsStateTheirConstants: the registry descriptions that give
// a setting's value give the value the code uses.
func TestDescriptionsStateTheirConstants(t *testing.T) {
	def := greedytl.DefaultOptions()
	for name, phrases := range map[string][]string{
		"greedytl":             {"λ = " + HelpNumber(def.Lambda) + ", δ = " + HelpNumber(def.Delta)},
		"greedytl-59":          {"scoring 59 random candidates"},
		"greedytl-auto":        {"GreedyTL (γ = " + HelpNumber(autoGammas[0]) + ")", "preferring sources (γ = " + HelpNumber(autoGammas[1]) + ")"},
		"greedytl-sp":          {"scaled by γ = " + HelpNumber(spFeatureFactor) + ")"},
		"l1-logistic":          {"(tol " + HelpNumber(sklearnL1Tol) + ", seeded)", "(" + HelpNumber(logisticFoldCount) + "-fold above " + HelpNumber(logisticLOOMaxRows) + " examples)"},
		"multinomial-logistic": {"(C = " + HelpNumber(multinomialDefaultC) + " with a class of one example)"},
		"elastic-net":          {"(" + HelpNumber(logisticFoldCount) + "-fold above " + HelpNumber(logisticLOOMaxRows) + " examples)"},
	} {
		r, ok := Registered(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		for _, p := range phrases {
			if !strings.Contains(r.Description, p) {
				t.Errorf("%s's description %q does not say %q", name, r.Description, p)
			}
		}
	}
	m, err := New("greedytl-59")
	if err != nil {
		t.Fatal(err)
	}
	if g := m.(*GreedyTL); g.Defaults.Sample != 59 {
		t.Errorf("greedytl-59 samples %d candidates, its description says 59", g.Defaults.Sample)
	}
}

// TestElasticNetMixingIsLinears: elastic-net mixes its penalties by
// linear.DefaultL1Ratio and its description says so.
func TestElasticNetMixingIsLinears(t *testing.T) {
	m, err := New("elastic-net")
	if err != nil {
		t.Fatal(err)
	}
	if l := m.(logistic); l.l1Ratio != linear.DefaultL1Ratio {
		t.Errorf("elastic-net's l1_ratio is %v, linear.DefaultL1Ratio is %v", l.l1Ratio, linear.DefaultL1Ratio)
	}
	if r, _ := Registered("elastic-net"); !strings.Contains(r.Description, "(l1_ratio "+HelpNumber(linear.DefaultL1Ratio)+",") {
		t.Errorf("elastic-net's description %q does not give l1_ratio %v", r.Description, linear.DefaultL1Ratio)
	}
}
