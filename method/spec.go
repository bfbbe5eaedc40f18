package method

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/modelfile"
)

// Spec names a method and, optionally, settings that replace some of its
// defaults. Its text form is
//
//	name
//	name:key=value,key=value,…
//
// for example "greedytl-sp:gamma=0.25" or "greedytl:delta=0.001,lambda=10".
// Values are numbers (strconv.ParseFloat's syntax without digit
// separators: "1_0" is refused, as is a literal that would not be the
// number written — beyond ±MaxFloat64, or not zero but rounding to 0 as
// 1e-400 does), and a whole number given to max_k or sample is written
// as the CLI's whole-number flags read one (modelfile.WholeText: "59", not
// "0x1.d8p5" or "59.0"); true and false stand for 1 and 0, and key=auto for
// auto_key=1 ("greedytl:lambda=auto" is "greedytl:auto_lambda=1", as
// fit's --lambda auto is). Which keys a method accepts, and their ranges, is the
// method's business (see Registration.Configure); methods without a
// Configure hook accept none.
type Spec struct {
	// Name is the registry name of the method.
	Name string
	// Params holds the settings by key; nil or empty for the defaults.
	Params map[string]float64
}

// ParseSpec parses the text form of a spec (modelfile.ParseSpec). It
// returns an error for an empty name or key, a missing "=", a value that is
// not a finite number (or true, false), a whole number given to a setting
// of whole numbers (greedytl.WholeSetting) but not written as the CLI's
// whole-number flags read one (modelfile.WholeText: "sample=0x1p1",
// "max_k=2.0"), a key given twice, and a ":" with no
// settings after it. It does not consult the registry: New and Lookup
// do.
func ParseSpec(s string) (Spec, error) {
	spec, err := parseSpec(s)
	if err != nil {
		return Spec{}, fmt.Errorf("method: %w", err)
	}
	return spec, nil
}

// parseSpec is ParseSpec with errors that carry no package prefix.
func parseSpec(s string) (Spec, error) {
	name, params, texts, err := modelfile.ParseSpecTexts(s)
	if err != nil {
		return Spec{}, err
	}
	for _, k := range slices.Sorted(maps.Keys(texts)) {
		// A value that is no whole number is refused by the method, with
		// the range its key takes (greedytl.Options.Set).
		if x := params[k]; greedytl.WholeSetting(k) && x == math.Trunc(x) && !modelfile.WholeText(texts[k]) {
			return Spec{}, fmt.Errorf("spec %q: %s=%s: want a whole number in decimal digits (as --%s reads one)", s, k, texts[k], strings.ReplaceAll(k, "_", "-"))
		}
	}
	return Spec{Name: name, Params: params}, nil
}

// String returns the canonical text form of s: the name, then, if there are
// settings, a colon and key=value pairs in sorted key order, separated by
// commas, each value formatted by modelfile.FormatSetting (a whole number
// up to 2³¹−1 in decimal digits, max_k=1000000, as the CLI's whole-number
// flags and ParseSpec read it; another in strconv's shortest form), so that
// it parses back to the same float64 (see modelfile.FormatSpec).
// Model.Method and the result records carry this form.
func (s Spec) String() string {
	return modelfile.FormatSpec(s.Name, s.Params)
}

// CanonicalSpec returns the canonical form of the spec s (see Spec.String)
// after checking that the registry's method accepts its settings; for
// example "greedytl-sp:gamma=.25" gives "greedytl-sp:gamma=0.25". It
// returns the errors of New.
//
// The form is relative to the registration s names, whose defaults its
// settings change: "greedytl:sample=59" stays itself, though its options
// are greedytl-59's, and "greedytl-sp:gamma=1" is not "greedytl". The root
// package, which knows no registry, names the same model
// "greedytl:sample=59" (greedytl.Options.MethodName relative to
// greedytl.BaseMethod); an experiment seeds each method's fits by this
// form, so another spelling would change the records of a run that lists
// one; and runs list such twins on purpose (docs/results/gamma ran
// "greedytl" beside "greedytl-sp:gamma=1" as a control).
func CanonicalSpec(s string) (string, error) {
	m, err := New(s)
	if err != nil {
		return "", err
	}
	return m.Name(), nil
}

// flagSetting returns the value of key in a spec whose only setting is that
// flag (0 or 1; false when absent). Another key, or another value, is an
// error naming it.
func flagSetting(s Spec, key string) (bool, error) {
	on := false
	for k, v := range s.Params {
		if k != key {
			return false, fmt.Errorf("unknown key %s; %s takes %s=0 or %s=1", modelfile.KeyAsTyped(k), s.Name, key, key)
		}
		switch v {
		case 0:
		case 1:
			on = true
		default:
			return false, fmt.Errorf("%s = %v, want 0 or 1", key, v)
		}
	}
	return on, nil
}

// noSettingsError returns the error for settings given to a method that
// takes none: "NAME takes no settings (spec "SPEC")", spec as the user
// wrote it, without the package's prefix. New, NewMulti and the reader of
// multi-class files share it.
func noSettingsError(name, spec string) error {
	return fmt.Errorf("%s takes no settings (spec %q)", name, spec)
}
