package modelfile

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/internal/number"
)

// FormatSpec returns the canonical text form of a method spec, which a
// model file's "method" holds: name, then, if there are settings, a colon
// and key=value pairs in sorted key order, separated by commas, each value
// formatted by FormatSetting (so that it parses back to the same float64).
func FormatSpec(name string, settings map[string]float64) string {
	if len(settings) == 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name)
	sep := byte(':')
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		b.WriteByte(sep)
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(FormatSetting(settings[k]))
		sep = ','
	}
	return b.String()
}

// MaxDigitsSetting is the largest magnitude of a whole number that
// FormatSetting writes in decimal digits: 2³¹−1, the largest count a
// setting of whole numbers takes (greedytl.Options.Set refuses more, so
// that a spec means the same on every platform), so that every count a
// spec can hold is written as the CLI's whole-number flags read it (and
// as ParseSpec takes it back from a user: WholeText).
const MaxDigitsSetting = math.MaxInt32

// FormatSetting returns the text of a setting's value in a spec: a whole
// number of magnitude at most MaxDigitsSetting in decimal digits (1000000
// and 1234567, where strconv's shortest form is 1e+06 and 1.234567e+06, a
// form the CLI's whole-number flags and WholeText refuse from a user), any
// other value in strconv.FormatFloat(v, 'g', -1, 64)'s shortest form
// (0.25, 1e+10, 1e-06). Either parses back to v. A value's text below
// 10⁶ is the same in both forms, so only whole numbers from 10⁶ to
// MaxDigitsSetting are written otherwise than before this rule: files
// written before it hold 1e+06, which ParseSpec still reads (WholeText).
func FormatSetting(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) <= MaxDigitsSetting {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ParseSpec parses the text form of a method spec,
//
//	name
//	name:key=value,key=value,…
//
// (FormatSpec's, for example "greedytl-sp:gamma=0.25"), into the name and
// the settings by key (nil without a colon). Values are numbers a user
// typed, read by number.ParseSetting (strconv.ParseFloat's syntax without
// digit separators, finite, and the number written: 1e-400, which rounds
// to 0, is refused); true and false stand for 1 and 0; and key=auto (IsAuto)
// is the setting AutoPrefix+key = 1, the method choosing key's value itself
// ("greedytl:lambda=auto" is "greedytl:auto_lambda=1"). It returns an error
// naming the spec and the key for an empty name or key, a missing "=", a
// value that ParseSetting refuses (and not true or false), a key given
// twice, auto given to a key that starts with AutoPrefix already
// ("auto_lambda=auto"), and a ":" with no settings after it. Which keys a method takes is
// the method's business (package method).
func ParseSpec(s string) (name string, settings map[string]float64, err error) {
	name, settings, _, err = ParseSpecTexts(s)
	return name, settings, err
}

// ParseSpecTexts is ParseSpec that also returns each setting's value as
// written, by the key ParseSpec gives it ("auto" for key=auto, under
// AutoPrefix+key), so that a caller can hold a setting of whole numbers
// to how one is written (WholeText).
func ParseSpecTexts(s string) (name string, settings map[string]float64, texts map[string]string, err error) {
	name, rest, hasParams := strings.Cut(s, ":")
	if name == "" {
		return "", nil, nil, fmt.Errorf("spec %q: empty method name", s)
	}
	if strings.ContainsAny(name, "=,") {
		return "", nil, nil, fmt.Errorf("spec %q: settings follow the method name after a colon, as in greedytl-sp:gamma=0.25", s)
	}
	if !hasParams {
		return name, nil, nil, nil
	}
	if rest == "" {
		return "", nil, nil, fmt.Errorf("spec %q: no settings after the colon", s)
	}
	settings, texts = map[string]float64{}, map[string]string{}
	for kv := range strings.SplitSeq(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		switch {
		case !ok:
			return "", nil, nil, fmt.Errorf("spec %q: setting %q is not key=value", s, kv)
		case k == "":
			return "", nil, nil, fmt.Errorf("spec %q: setting %q has no key", s, kv)
		case strings.ContainsAny(k, ": \t"):
			return "", nil, nil, fmt.Errorf("spec %q: key %q holds a colon or a blank", s, k)
		}
		x, err := 1.0, error(nil)
		if IsAuto(v) && strings.HasPrefix(k, AutoPrefix) {
			return "", nil, nil, fmt.Errorf("spec %q: %s=%s: write %s=%s or %s=1", s, k, v, k[len(AutoPrefix):], v, k)
		} else if IsAuto(v) {
			k = AutoPrefix + k
		} else if x, err = parseSpecValue(v); err != nil {
			return "", nil, nil, fmt.Errorf("spec %q: %s: %w", s, k, err)
		}
		if _, dup := settings[k]; dup {
			return "", nil, nil, fmt.Errorf("spec %q: %s is set twice", s, k)
		}
		settings[k], texts[k] = x, v
	}
	return name, settings, texts, nil
}

// WholeText reports whether v, the value of a setting of whole numbers as
// written in a spec, is written as one: decimal digits with an optional
// sign, as the CLI's whole-number flags read them (C's atoi; no base
// prefix, point or exponent) and FormatSpec writes them, or as FormatSpec
// wrote a whole number of 10⁶ or more before FormatSetting's rule
// (strconv.FormatFloat's shortest form, 1e+06 for a million), so that the
// method of a model file written then reads back. So "0x1p1", "2.0" and
// "1e6" are not.
func WholeText(v string) bool {
	digits := strings.TrimLeft(v, "+-")
	if len(v)-len(digits) <= 1 && digits != "" && strings.Trim(digits, "0123456789") == "" {
		return true
	}
	x, err := strconv.ParseFloat(v, 64)
	return err == nil && x == math.Trunc(x) && strconv.FormatFloat(x, 'g', -1, 64) == v
}

// parseSpecValue parses a setting's value: a number (number.ParseSetting),
// true (1) or false (0).
func parseSpecValue(v string) (float64, error) {
	switch v {
	case "true":
		return 1, nil
	case "false":
		return 0, nil
	}
	x, err := number.ParseSetting(v)
	if err != nil {
		return 0, fmt.Errorf("value %w", err)
	}
	return x, nil
}

// KeyAsTyped returns how a message names the key of a setting that
// ParseSpec returned: quoted (`"exact"`), and a key that key=auto may stand
// for (AutoPrefix and a name that does not start with AutoPrefix itself)
// followed by that spelling (`"auto_C" (C=auto)`), since ParseSpec gives
// auto_C=1 and C=auto alike and the message must show what the user typed.
// A method's error about a setting names it so, whichever method.
func KeyAsTyped(key string) string {
	if base, ok := strings.CutPrefix(key, AutoPrefix); ok && base != "" && !strings.HasPrefix(base, AutoPrefix) {
		return strconv.Quote(key) + " (" + base + "=auto)"
	}
	return strconv.Quote(key)
}

// AutoPrefix starts the key of a setting that asks a method to choose the
// setting after it by itself: auto_lambda asks GreedyTL to choose lambda.
const AutoPrefix = "auto_"

// IsAuto reports whether a setting's value v is "auto", in any case: in a
// spec, key=auto stands for AutoPrefix+key = 1 (ParseSpec), as the CLI's
// --lambda auto stands for auto_lambda=1; the one spelling of both.
func IsAuto(v string) bool { return strings.EqualFold(v, "auto") }
