package greedytl

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestSetAgreesWithFit checks that Set accepts a value exactly when Fit
// accepts the same value in the field (for AutoLambda and StopAtMinLOO,
// which are bools in Options, only 0 and 1 can be set at all): the two read
// one statement of the ranges.
func TestSetAgreesWithFit(t *testing.T) {
	values := []float64{-1, -1e-300, 0, 1e-300, 0.5, 1, 2, 59, 1e6, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, key := range SettingKeys() {
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
// as its doc says, and its refusal writes the count refused as an integer.
func TestSetCountsCap(t *testing.T) {
	for _, key := range []string{KeyMaxK, KeySample} {
		var o Options
		if err := o.Set(key, math.MaxInt32); err != nil {
			t.Errorf("Set(%s, 2³¹−1): %v", key, err)
		}
		want := key + " must be at most 2147483647, got 2147483648"
		if err := o.Set(key, math.MaxInt32+1); err == nil || err.Error() != want {
			t.Errorf("Set(%s, 2³¹): %v; want %q (the count as the integer it is, not 2.147483648e+09)", key, err, want)
		}
	}
}

// TestWholeSetting: WholeSetting names the settings that Set takes as
// whole numbers — 2 but not 2.5 — and no other key.
func TestWholeSetting(t *testing.T) {
	var whole []string
	for _, key := range SettingKeys() {
		var o Options
		if o.Set(key, 2) == nil && o.Set(key, 2.5) != nil {
			whole = append(whole, key)
		}
		if got := WholeSetting(key); got != slices.Contains(whole, key) {
			t.Errorf("WholeSetting(%s) = %v; Set takes 2 and refuses 2.5: %v", key, got, !got)
		}
	}
	if len(whole) != 2 {
		t.Errorf("the whole-number settings are %v; want max_k and sample", whole)
	}
	for _, key := range []string{"", "seed", KeyAutoLambda + "x"} {
		if WholeSetting(key) {
			t.Errorf("WholeSetting(%q) = true for a key that is not a setting", key)
		}
	}
}

// TestSetNegativeZero: a setting given as −0 (a spec's "delta=-0", fit's
// --delta -0) is stored as 0, so that the model's canonical spec is the
// one its value has ("greedytl:delta=0"), not a second name for the same
// model ("greedytl:delta=-0", which Python's reader, whose JSON reads -0
// as the integer 0, refused).
func TestSetNegativeZero(t *testing.T) {
	for _, key := range []string{KeyDelta, KeyGamma, KeyMaxK, KeySample, KeyStopAtMinLOO} {
		o := DefaultOptions()
		if err := o.Set(key, math.Copysign(0, -1)); err != nil {
			t.Fatalf("Set(%s, -0): %v", key, err)
		}
		v, _ := o.Setting(key)
		if v != 0 || math.Signbit(v) {
			t.Errorf("Set(%s, -0) stored %v (sign bit %v)", key, v, math.Signbit(v))
		}
		if name := o.MethodName(BaseMethod, DefaultOptions()); strings.Contains(name, "-0") {
			t.Errorf("Set(%s, -0): method name %q", key, name)
		}
	}
}

// TestSettingKeysIsACopy: changing the slice SettingKeys returns changes
// neither its next result nor Set's error, which lists the keys.
func TestSettingKeysIsACopy(t *testing.T) {
	keys := SettingKeys()
	keys[0] = "foo"
	if got := SettingKeys(); slices.Contains(got, "foo") {
		t.Errorf("SettingKeys() = %v after a caller changed its result", got)
	}
	var o Options
	if err := o.Set("colour", 1); err == nil || strings.Contains(err.Error(), "foo") {
		t.Errorf("Set's error = %v, want one listing the keys, not foo", err)
	}
}
