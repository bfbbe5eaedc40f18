package method

import (
	"strconv"
	"strings"
)

// CostFacts are the numbers of this package's methods that a description
// of their costs and defaults states (the CLI's fit help): each read from
// the constant that owns it, so that a text built from them cannot drift
// from the code.
type CostFacts struct {
	// LogisticLOOMaxRows is the most examples on which l1-logistic and
	// elastic-net choose C by leave-one-out (logisticLOOMaxRows).
	LogisticLOOMaxRows int
	// LogisticFolds is the number of cross-validation folds with which
	// they choose C above LogisticLOOMaxRows (logisticFoldCount).
	LogisticFolds int
	// DAMPairs is the number of (τ, λ) pairs DAM's leave-one-out searches.
	DAMPairs int
	// MultinomialCValues is the number of values of C the multinomial
	// logistic regression's cross-validation tries.
	MultinomialCValues int
	// MultinomialFolds is the largest number of its folds.
	MultinomialFolds int
	// MultinomialDefaultC is its C when cross-validation is impossible (a
	// class of one example).
	MultinomialDefaultC float64
	// MultinomialCVPerClass caps the examples of a class its
	// cross-validation uses.
	MultinomialCVPerClass int
	// ScoreBlockFloats is the number of class scores a block of scoring
	// holds.
	ScoreBlockFloats int
	// AutoRidgeLambdaRows bounds the rows on which greedytl-auto chooses
	// the ridge member's λ when it is one fit for every committee.
	AutoRidgeLambdaRows int
	// AutoGramMinWork is the size m·N from which greedytl-auto may share
	// cross-products between its committees.
	AutoGramMinWork int
	// SPFeatureFactor is greedytl-sp's default feature factor γ (and that
	// of greedytl-auto's member preferring sources).
	SPFeatureFactor float64
}

// Facts returns the CostFacts of the registered methods.
func Facts() CostFacts {
	return CostFacts{
		LogisticLOOMaxRows:    logisticLOOMaxRows,
		LogisticFolds:         logisticFoldCount,
		DAMPairs:              len(tauGrid) * len(lambdaGrid),
		MultinomialCValues:    len(multinomialCGrid()),
		MultinomialFolds:      multinomialFolds,
		MultinomialDefaultC:   multinomialDefaultC,
		MultinomialCVPerClass: multinomialCVPerClass,
		ScoreBlockFloats:      scoreBlockFloats,
		AutoRidgeLambdaRows:   ridgeLambdaRows,
		AutoGramMinWork:       gramMinWork,
		SPFeatureFactor:       spFeatureFactor,
	}
}

// HelpNumber returns v's text in a description or a help text: strconv's shortest form
// (0.5, 1, 200), or the shortest exponent form without a plus sign or
// leading zero in its exponent (1e-4 and 1e6, not 0.0001, 1e-04 or
// 1e+06) when that is shorter.
func HelpNumber(v float64) string {
	g := strconv.FormatFloat(v, 'g', -1, 64)
	mant, exp, ok := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	if !ok {
		return g // Inf, NaN
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	if e := mant + "e" + sign + strings.TrimLeft(exp[1:], "0"); len(e) < len(g) {
		return e
	}
	return g
}
