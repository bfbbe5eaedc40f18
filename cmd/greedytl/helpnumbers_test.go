package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
	"github.com/spf13/cobra"
)

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 20_000: "20,000", 1 << 20: "1,048,576", -1234567: "-1,234,567"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAboutCount(t *testing.T) {
	for n, want := range map[int]string{1 << 20: "about a million", 1 << 21: "about 2 million", 600_000: "about a million", 256: "256"} {
		if got := aboutCount(n); got != want {
			t.Errorf("aboutCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestFitHelpStatesMethodFacts: the numbers greedytl help fit gives of the
// methods' costs and defaults are package method's (method.Facts), each
// in its phrase, so a help text that restates one cannot drift from the
// code unnoticed.
func TestFitHelpStatesMethodFacts(t *testing.T) {
	var fit *cobra.Command
	for _, c := range newRootCmd(&streams{}).Commands() {
		if c.Name() == "fit" {
			fit = c
		}
	}
	long := strings.Join(strings.Fields(fit.Long), " ")
	f := method.Facts()
	itoa := strconv.Itoa
	for _, phrase := range []string{
		"GreedyTL preferring sources (feature factor " + method.HelpNumber(f.SPFeatureFactor) + ")",
		"(and m·N ≥ " + groupDigits(f.AutoGramMinWork) + ")",
		"with N > m and at most " + itoa(f.AutoRidgeLambdaRows) + " examples",
		"or more than " + itoa(f.AutoRidgeLambdaRows) + " examples",
		"on at most " + itoa(f.AutoRidgeLambdaRows) + " of the examples",
		"up to " + itoa(f.LogisticLOOMaxRows) + " examples and by " + itoa(f.LogisticFolds) + "-fold cross-validation",
		"for each of its " + itoa(f.DAMPairs) + " (τ, λ) pairs",
		"over " + itoa(f.MultinomialCValues) + " values (up to " + itoa(f.MultinomialFolds) + " folds",
		"at most " + itoa(f.MultinomialFolds) + "; C = " + method.HelpNumber(f.MultinomialDefaultC) + " without it",
		"on at most " + itoa(f.MultinomialCVPerClass) + " examples of each class",
		"keeps " + itoa(f.MultinomialCValues) + " numbers an example",
		"a block of " + aboutCount(f.ScoreBlockFloats) + " class scores",
	} {
		if !strings.Contains(long, phrase) {
			t.Errorf("greedytl help fit does not say %q", phrase)
		}
	}
	if u := fit.Flags().Lookup("gamma").Usage; !strings.Contains(u, "greedytl-sp's default: "+method.HelpNumber(f.SPFeatureFactor)+")") {
		t.Errorf("--gamma's usage %q does not give greedytl-sp's default %v", u, f.SPFeatureFactor)
	}
}
