package greedytl

import (
	"math"
	"testing"
)

// TestSetAgreesWithFit checks that Set accepts a value exactly when Fit
// accepts the same value in the field (for AutoLambda and StopAtMinLOO,
// which are bools in Options, only 0 and 1 can be set at all): the two read
// one statement of the ranges.
func TestSetAgreesWithFit(t *testing.T) {
	values := []float64{-1, -1e-300, 0, 1e-300, 0.5, 1, 2, 59, 1e6, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, key := range SettingKeys {
		for _, v := range values {
			o := DefaultOptions()
			setErr := o.Set(key, v)
			if setErr != nil {
				// Put the value in the field directly and ask Fit's check.
				o = DefaultOptions()
				switch key {
				case KeyLambda:
					o.Lambda = v
				case KeyDelta:
					o.Delta = v
				case KeyGamma:
					o.FeatureFactor = v
				case KeyMaxK, KeySample:
					if v != math.Trunc(v) || math.IsInf(v, 0) {
						continue // not an int: the field cannot hold it
					}
					if key == KeyMaxK {
						o.MaxK = int(v)
					} else {
						o.Sample = int(v)
					}
				case KeyAutoLambda, KeyStopAtMinLOO:
					continue // not 0 or 1: the bool field cannot hold it
				}
			}
			checkErr := o.check()
			if (setErr == nil) != (checkErr == nil) {
				t.Errorf("%s = %v: Set says %v, Fit's check says %v", key, v, setErr, checkErr)
			}
		}
	}
}

// TestSetCountsCap: Set takes max_k and sample up to 2³¹−1 and no further,
// as its doc says.
func TestSetCountsCap(t *testing.T) {
	for _, key := range []string{KeyMaxK, KeySample} {
		var o Options
		if err := o.Set(key, math.MaxInt32); err != nil {
			t.Errorf("Set(%s, 2³¹−1): %v", key, err)
		}
		if err := o.Set(key, math.MaxInt32+1); err == nil {
			t.Errorf("Set(%s, 2³¹): no error", key)
		}
	}
}
