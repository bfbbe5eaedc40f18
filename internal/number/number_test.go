package number

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestParse: ParseFloat's syntax without digit separators.
func TestParse(t *testing.T) {
	for _, s := range []string{"1", "-2.5", ".5", "1e3", "0x1p-2", "inf", "NaN", "1e400"} {
		got, gerr := Parse(s)
		want, werr := strconv.ParseFloat(s, 64)
		if (gerr == nil) != (werr == nil) || !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Parse(%q) = %v, %v; want ParseFloat's %v, %v", s, got, gerr, want, werr)
		}
	}
	for _, s := range []string{"1_0", "1_000.5", "0x_1p0", "1e1_0"} {
		if x, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v, want a syntax error (ParseFloat reads digit separators)", s, x)
		}
	}
}

// TestParseSetting: a setting is the finite number written, or an error
// quoting it; every accepted literal is ParseFloat's number.
func TestParseSetting(t *testing.T) {
	for _, s := range []string{"0", "-0", "0.000", "0e-400", "0x0p-2000", "+0.0e5", "1", "1e-300", "4.9e-324", "5e-324", "-1.5e308", "0x1p-1074", "1.7976931348623157e308", "10"} {
		got, err := ParseSetting(s)
		want, _ := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("ParseSetting(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"1_0", `"1_0" is not a number`},
		{"one", `"one" is not a number`},
		{"", `"" is not a number`},
		{"NaN", `"NaN" is not finite`},
		{"-Inf", `"-Inf" is not finite`},
		{"1e400", `"1e400" is beyond the largest float64`},
		{"-1.8e308", `"-1.8e308" is beyond the largest float64`},
		{"1e-400", `"1e-400" is not zero but rounds to 0 in float64`},
		{"-2e-324", `"-2e-324" is not zero but rounds to 0 in float64`},
		{"0x1p-1080", `"0x1p-1080" is not zero but rounds to 0 in float64`},
		{"0.0001e-330", `"0.0001e-330" is not zero but rounds to 0 in float64`},
	} {
		x, err := ParseSetting(tc.in)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseSetting(%q) = %v, %v; want an error starting %q", tc.in, x, err, tc.want)
		}
		// Only "not a number" is a syntax error (a caller words it).
		if syntax := strings.HasSuffix(tc.want, "is not a number"); errors.Is(err, strconv.ErrSyntax) != syntax {
			t.Errorf("ParseSetting(%q): errors.Is(%v, strconv.ErrSyntax) = %v, want %v", tc.in, err, !syntax, syntax)
		}
	}
}
