// Package metric holds the evaluation measures of the paper's protocol.
//
// A score s classifies an example as positive when s > 0 and as negative
// otherwise (a score of exactly 0 is negative).
package metric

import "fmt"

// BalancedAccuracy returns the class-balanced accuracy (TPR + TNR)/2 of the
// signs of scores against labels y (+1 positive, anything else negative).
// When y holds only one class the result is that class's rate alone. It
// returns an error when the lengths differ or y is empty.
func BalancedAccuracy(scores, y []float64) (float64, error) {
	if len(scores) != len(y) {
		return 0, fmt.Errorf("metric: %d scores for %d labels", len(scores), len(y))
	}
	if len(y) == 0 {
		return 0, fmt.Errorf("metric: no examples")
	}
	var tp, pos, tn, neg float64
	for i, s := range scores {
		if y[i] > 0 {
			pos++
			if s > 0 {
				tp++
			}
		} else {
			neg++
			if !(s > 0) {
				tn++
			}
		}
	}
	switch {
	case pos == 0:
		return tn / neg, nil
	case neg == 0:
		return tp / pos, nil
	}
	return (tp/pos + tn/neg) / 2, nil
}
