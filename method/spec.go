package method

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/modelfile"
)

// Spec names a method and, optionally, settings that replace some of its
// defaults. Its text form is
//
//	name
//	name:key=value,key=value,…
//
// for example "greedytl-sp:gamma=0.25" or "greedytl:delta=0.001,lambda=10".
// Values are numbers (strconv.ParseFloat syntax, finite); true and false
// stand for 1 and 0. Which keys a method accepts, and their ranges, is the
// method's business (see Registration.Configure); methods without a
// Configure hook accept none.
type Spec struct {
	// Name is the registry name of the method.
	Name string
	// Params holds the settings by key; nil or empty for the defaults.
	Params map[string]float64
}

// ParseSpec parses the text form of a spec. It returns an error for an empty
// name or key, a missing "=", a value that is not a finite number (or true,
// false), a key given twice, and a ":" with no settings after it. It does
// not consult the registry: New and Lookup do.
func ParseSpec(s string) (Spec, error) {
	name, rest, hasParams := strings.Cut(s, ":")
	if name == "" {
		return Spec{}, fmt.Errorf("method: spec %q: empty method name", s)
	}
	if strings.ContainsAny(name, "=,") {
		return Spec{}, fmt.Errorf("method: spec %q: settings follow the method name after a colon, as in greedytl-sp:gamma=0.25", s)
	}
	spec := Spec{Name: name}
	if !hasParams {
		return spec, nil
	}
	if rest == "" {
		return Spec{}, fmt.Errorf("method: spec %q: no settings after the colon", s)
	}
	spec.Params = map[string]float64{}
	for kv := range strings.SplitSeq(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		switch {
		case !ok:
			return Spec{}, fmt.Errorf("method: spec %q: setting %q is not key=value", s, kv)
		case k == "":
			return Spec{}, fmt.Errorf("method: spec %q: setting %q has no key", s, kv)
		case strings.ContainsAny(k, ": \t"):
			return Spec{}, fmt.Errorf("method: spec %q: key %q holds a colon or a blank", s, k)
		}
		if _, dup := spec.Params[k]; dup {
			return Spec{}, fmt.Errorf("method: spec %q: %s is set twice", s, k)
		}
		x, err := parseSpecValue(v)
		if err != nil {
			return Spec{}, fmt.Errorf("method: spec %q: %s: %w", s, k, err)
		}
		spec.Params[k] = x
	}
	return spec, nil
}

// parseSpecValue parses a setting's value: a finite number, true (1) or
// false (0).
func parseSpecValue(v string) (float64, error) {
	switch v {
	case "true":
		return 1, nil
	case "false":
		return 0, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("value %q is not a number", v)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("value %q is not finite", v)
	}
	return x, nil
}

// String returns the canonical text form of s: the name, then, if there are
// settings, a colon and key=value pairs in sorted key order, separated by
// commas, each value formatted by strconv.FormatFloat(v, 'g', -1, 64) (so
// that it parses back to the same float64; see modelfile.FormatSpec).
// Model.Method and the result records carry this form.
func (s Spec) String() string {
	return modelfile.FormatSpec(s.Name, s.Params)
}

// CanonicalSpec returns the canonical form of the spec s (see Spec.String)
// after checking that the registry's method accepts its settings; for
// example "greedytl-sp:gamma=.25" gives "greedytl-sp:gamma=0.25". It
// returns the errors of New.
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
			return false, fmt.Errorf("unknown key %q (%s takes %s=0 or %s=1)", k, s.Name, key, key)
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
