// Package metric holds the evaluation measures of the paper's protocol.
//
// A score s classifies an example as positive when s > 0 and as negative
// otherwise (a score of exactly 0 is negative).
package metric

import "fmt"

// BalancedAccuracy returns the class-balanced accuracy (TPR + TNR)/2 of the
// signs of scores against labels y (a label > 0, +1, is positive; any other,
// −1 or 0 of {0, 1} labels, negative; so is a NaN score, which is not > 0).
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

// ClassAccuracy compares predicted classes with true ones (class indices
// 0 … K−1): it returns the accuracy (the fraction of pred equal to y), the
// balanced accuracy (the mean, over the classes present in y, of their
// recall) and how many classes that is. It counts in O(K) memory, whatever
// the number of examples (Confusion gives the K × K matrix of the
// counts). It returns an error when K < 1, the lengths differ, y is empty
// or an index is out of range.
func ClassAccuracy(pred, y []int, K int) (acc, balanced float64, present int, err error) {
	if K < 1 {
		return 0, 0, 0, errClasses(K)
	}
	total, hits := make([]int, K), make([]int, K) // per true class
	correct := 0
	err = tally(pred, y, K, func(t, p int) {
		total[t]++
		if p == t {
			hits[t]++
			correct++
		}
	})
	if err != nil {
		return 0, 0, 0, err
	}
	for t, n := range total {
		if n > 0 {
			balanced += float64(hits[t]) / float64(n)
			present++
		}
	}
	return float64(correct) / float64(len(y)), balanced / float64(present), present, nil
}

// Confusion returns the confusion matrix of the predicted classes pred
// against the true ones y (class indices 0 … K−1): conf[t][p] counts the
// examples of true class t predicted p. It is K × K, for a caller that
// reports it; its errors are ClassAccuracy's.
func Confusion(pred, y []int, K int) ([][]int, error) {
	if K < 1 {
		return nil, errClasses(K)
	}
	conf := make([][]int, K)
	for k := range conf {
		conf[k] = make([]int, K)
	}
	if err := tally(pred, y, K, func(t, p int) { conf[t][p]++ }); err != nil {
		return nil, err
	}
	return conf, nil
}

// errClasses is ClassAccuracy's error for K < 1 classes, which its callers
// check before they allocate their K counts.
func errClasses(K int) error {
	return fmt.Errorf("metric: %d classes, want at least one", K)
}

// tally calls count(t, p) for each example's true class t and predicted
// class p, in order, in the one pass that checks them: it returns
// ClassAccuracy's error for its arguments (lengths that differ, no
// examples, the first index out of range, found before count sees that
// example), after which the counts are partial. K ≥ 1: its callers check
// K (errClasses) before they allocate their counts.
func tally(pred, y []int, K int, count func(t, p int)) error {
	if len(pred) != len(y) {
		return fmt.Errorf("metric: %d predictions for %d labels", len(pred), len(y))
	}
	if len(y) == 0 {
		return fmt.Errorf("metric: no examples")
	}
	for i, t := range y {
		p := pred[i]
		if t < 0 || t >= K || p < 0 || p >= K {
			return fmt.Errorf("metric: example %d: class %d predicted %d, want classes 0 … %d", i, t, p, K-1)
		}
		count(t, p)
	}
	return nil
}
