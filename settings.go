package greedytl

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/modelfile"
)

// The settings' keys: the one name of each option in method specs
// ("greedytl:gamma=0.25"), in model files' "options" and "hyperparameters",
// in result records, and (with dashes for underscores) in the CLI's flags.
// Seed is not a setting: it is recorded with the options but does not name
// the method.
const (
	KeyLambda       = "lambda"
	KeyAutoLambda   = modelfile.AutoPrefix + KeyLambda // lambda=auto in a spec (modelfile.IsAuto)
	KeyDelta        = "delta"
	KeyGamma        = "gamma"
	KeyMaxK         = "max_k"
	KeySample       = "sample"
	KeyStopAtMinLOO = "stop_at_min_loo"
)

// SettingKeys returns the settings' keys in sorted order, in a new slice
// each call: changing it changes nothing else.
func SettingKeys() []string {
	return []string{KeyAutoLambda, KeyDelta, KeyGamma, KeyLambda, KeyMaxK, KeySample, KeyStopAtMinLOO}
}

// Setting returns the value of the option that key names (a bool as 1 or
// 0, a count as a whole number), and false for an unknown key.
func (o Options) Setting(key string) (float64, bool) {
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	switch key {
	case KeyLambda:
		return o.Lambda, true
	case KeyAutoLambda:
		return b(o.AutoLambda), true
	case KeyDelta:
		return o.Delta, true
	case KeyGamma:
		return o.FeatureFactor, true
	case KeyMaxK:
		return float64(o.MaxK), true
	case KeySample:
		return float64(o.Sample), true
	case KeyStopAtMinLOO:
		return b(o.StopAtMinLOO), true
	}
	return 0, false
}

// settingRule is the range of one setting: the one statement of it, which
// Set applies to a value by its key and Fit (Options.check) to the field.
type settingRule struct {
	field string // the Options field, as Fit's error names it
	name  string // the key as Set's error names it
	rule  string // what the value must be
	ok    func(v float64) bool
	whole bool // a count (wholeRule): WholeSetting
}

var settingRules = map[string]settingRule{
	KeyLambda:       {field: "Lambda", name: "lambda", rule: "positive", ok: func(v float64) bool { return v > 0 }},
	KeyDelta:        {field: "Delta", name: "delta", rule: "≥ 0", ok: func(v float64) bool { return v >= 0 }},
	KeyGamma:        {field: "FeatureFactor", name: "gamma (the feature factor)", rule: "≥ 0", ok: func(v float64) bool { return v >= 0 }},
	KeyMaxK:         wholeRule("MaxK", "max_k"),
	KeySample:       wholeRule("Sample", "sample"),
	KeyAutoLambda:   {field: "AutoLambda", name: "auto_lambda", rule: "true or false (1 or 0)", ok: isBool},
	KeyStopAtMinLOO: {field: "StopAtMinLOO", name: "stop_at_min_loo", rule: "true or false (1 or 0)", ok: isBool},
}

// wholeRule returns the rule of a count: a whole number ≥ 0.
func wholeRule(field, name string) settingRule {
	return settingRule{field: field, name: name, rule: "a whole number ≥ 0", whole: true,
		ok: func(v float64) bool { return v >= 0 && v == math.Trunc(v) }}
}

func isBool(v float64) bool { return v == 0 || v == 1 }

// WholeSetting reports whether the setting key takes whole numbers
// (KeyMaxK and KeySample, the counts; false for the others and for a key
// that is no setting), which a spec writes as the
// CLI's whole-number flags read them (modelfile.WholeText: "sample=0x1p1"
// is not 2).
func WholeSetting(key string) bool { return settingRules[key].whole }

// Set sets the option that key names to v, checking its range as Fit
// would: lambda > 0, delta ≥ 0, gamma ≥ 0 (all finite), max_k and sample
// whole numbers ≥ 0 — and, unlike Fit, at most 2³¹−1 (math.MaxInt32), so
// that a spec means the same on every platform —, auto_lambda and
// stop_at_min_loo 1 or 0. The error names the key and the rule.
func (o *Options) Set(key string, v float64) error {
	r, known := settingRules[key]
	switch {
	case !known && strings.HasPrefix(key, modelfile.AutoPrefix) && settingRules[key[len(modelfile.AutoPrefix):]].name != "":
		return fmt.Errorf("%s: GreedyTL chooses only lambda itself (lambda=auto)", modelfile.KeyAsTyped(key))
	case !known:
		return fmt.Errorf("unknown key %s; GreedyTL takes %s", modelfile.KeyAsTyped(key), strings.Join(SettingKeys(), ", "))
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("%s must be finite, got %v", key, v)
	case !r.ok(v):
		return fmt.Errorf("%s must be %s, got %v", r.name, r.rule, v)
	case r.whole && v > math.MaxInt32:
		return fmt.Errorf("%s must be at most %d, got %s", key, math.MaxInt32, strconv.FormatFloat(v, 'f', -1, 64)) // a whole number (r.ok), written as one
	}
	if v == 0 {
		v = 0 // −0 is 0: one value, one spec ("delta=-0" named a model "delta=0" also names)
	}
	switch key {
	case KeyLambda:
		o.Lambda = v
	case KeyAutoLambda:
		o.AutoLambda = v == 1
	case KeyDelta:
		o.Delta = v
	case KeyGamma:
		o.FeatureFactor = v
	case KeyMaxK:
		o.MaxK = int(v)
	case KeySample:
		o.Sample = int(v)
	case KeyStopAtMinLOO:
		o.StopAtMinLOO = v == 1
	}
	return nil
}

// check validates every option against its rule, in the manner of
// liblinear's check_parameter (with AutoLambda set, Lambda is chosen by the
// fit and not checked); the error says which field is wrong.
func (o *Options) check() error {
	for _, key := range SettingKeys() {
		if key == KeyLambda && o.AutoLambda {
			continue
		}
		r := settingRules[key]
		v, _ := o.Setting(key)
		if math.IsNaN(v) || math.IsInf(v, 0) || !r.ok(v) {
			hint := ""
			if key == KeyLambda {
				hint = " (DefaultOptions uses 1)"
			}
			return fmt.Errorf("%s must be %s and finite, got %v%s", r.field, r.rule, v, hint)
		}
	}
	return nil
}

// Changes returns the settings of o that differ from def, by key: the
// settings of o's method spec relative to a method whose defaults are def.
// With AutoLambda set, lambda is the λ chosen, not a setting, and is left
// out.
func (o Options) Changes(def Options) map[string]float64 {
	var ch map[string]float64
	for _, k := range SettingKeys() {
		if k == KeyLambda && o.AutoLambda {
			continue
		}
		v, _ := o.Setting(k)
		if d, _ := def.Setting(k); v != d {
			if ch == nil {
				ch = map[string]float64{}
			}
			ch[k] = v
		}
	}
	return ch
}

// MethodName returns the canonical spec of the method whose defaults are
// def, named base, run with options o: base alone when o has def's
// settings, base:key=value,… (see modelfile.FormatSpec) with the settings that
// differ otherwise. It is the one function from options to a model's
// identity: model files record it and their readers check it.
func (o Options) MethodName(base string, def Options) string {
	return modelfile.FormatSpec(base, o.Changes(def))
}

// Hyperparameters returns the hyperparameters a model file and a result
// record report: lambda, delta and gamma, and, when set, sample and max_k.
func (o Options) Hyperparameters() map[string]float64 {
	hp := map[string]float64{KeyLambda: o.Lambda, KeyDelta: o.Delta, KeyGamma: o.FeatureFactor}
	if o.Sample > 0 {
		hp[KeySample] = float64(o.Sample)
	}
	if o.MaxK > 0 {
		hp[KeyMaxK] = float64(o.MaxK)
	}
	return hp
}
