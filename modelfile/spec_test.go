package modelfile

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestFormatSpec: the settings in sorted key order, each value in the
// shortest form that parses back to the same float64.
func TestFormatSpec(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]float64
		want     string
	}{
		{"greedytl", nil, "greedytl"},
		{"greedytl", map[string]float64{}, "greedytl"},
		{"greedytl-sp", map[string]float64{"gamma": 0.25}, "greedytl-sp:gamma=0.25"},
		{"greedytl", map[string]float64{"lambda": 10, "delta": 0.001, "sample": 59}, "greedytl:delta=0.001,lambda=10,sample=59"},
		{"x", map[string]float64{"a": 1e-300, "b": 1.0 / 3}, "x:a=1e-300,b=0.3333333333333333"},
	} {
		got := FormatSpec(tc.name, tc.settings)
		if got != tc.want {
			t.Errorf("FormatSpec(%q, %v) = %q, want %q", tc.name, tc.settings, got, tc.want)
		}
		_, rest, _ := strings.Cut(got, ":")
		for kv := range strings.SplitSeq(rest, ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				if x, err := strconv.ParseFloat(v, 64); err != nil || x != tc.settings[k] || math.IsNaN(x) {
					t.Errorf("%s: %s=%s does not parse back to %v", got, k, v, tc.settings[k])
				}
			}
		}
	}
}

// TestParseSpecRoundTrip: ParseSpec reads back what FormatSpec writes,
// name and settings exactly, and refuses what is not a spec.
func TestParseSpecRoundTrip(t *testing.T) {
	for _, settings := range []map[string]float64{nil, {"gamma": 0.25}, {"lambda": 1e-300, "max_k": 3, "b": 1.0 / 3, "c": -0.5}} {
		text := FormatSpec("greedytl-sp", settings)
		name, got, err := ParseSpec(text)
		if err != nil || name != "greedytl-sp" || !reflect.DeepEqual(got, settings) {
			t.Errorf("ParseSpec(%q) = %q, %v, %v; want greedytl-sp, %v", text, name, got, err, settings)
		}
	}
	if name, got, err := ParseSpec("x:a=true,b=false"); err != nil || name != "x" || got["a"] != 1 || got["b"] != 0 {
		t.Errorf("true and false: %q, %v, %v", name, got, err)
	}
	for _, bad := range []string{"", ":a=1", "x=1", "x:", "x:a", "x:=1", "x:a b=1", "x:a=1,a=2", "x:a=NaN", "x:a=1e999", "x:a=one"} {
		if _, _, err := ParseSpec(bad); err == nil || !strings.HasPrefix(err.Error(), "spec ") {
			t.Errorf("ParseSpec(%q): %v, want an error naming the spec", bad, err)
		}
	}
}
