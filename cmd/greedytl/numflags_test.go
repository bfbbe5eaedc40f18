package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// numericFlags are the numeric flags of every command, by what they take
// (the keys of numericMessages). TestNumericFlags checks that the list is
// the command tree's, so that a new numeric flag is added here, and so
// checked.
var numericFlags = []struct{ cmd, flag, short, kind string }{
	{"bench", "max-m", "", "whole"},
	{"bench", "max-n", "", "whole"},
	{"bench", "repeats", "", "whole"},
	{"bench", "seed", "", "unsigned"},
	{"demo", "seed", "", "unsigned"},
	{"demo", "splits", "", "whole"},
	{"demo", "targets-per-domain", "", "whole"},
	{"demo", "workers", "", "workers"},
	{"experiment", "negative-fraction", "", "number"},
	{"experiment", "noise", "", "wholes"},
	{"experiment", "positives", "", "wholes"},
	{"experiment", "seed", "", "unsigned"},
	{"experiment", "shots", "", "wholes"},
	{"experiment", "splits", "", "whole"},
	{"experiment", "test-per-class", "", "whole"},
	{"experiment", "ways", "", "wholes"},
	{"experiment", "workers", "", "workers"},
	{"fit", "delta", "", "number"},
	{"fit", "feature-factor", "", "number"},
	{"fit", "gamma", "", "number"},
	{"fit", "lambda", "", "lambda"},
	{"fit", "max-k", "", "whole"},
	{"fit", "sample", "", "whole"},
	{"fit", "seed", "", "unsigned"},
	{"inspect", "top", "", "whole"},
	{"synth", "classes", "", "whole"},
	{"synth", "dims", "", "whole"},
	{"synth", "groups", "", "whole"},
	{"synth", "per-class", "", "whole"},
	{"synth", "seed", "", "unsigned"},
	{"train", "bias", "B", "number"},
	{"train", "cost", "c", "number"},
	{"train", "cv", "v", "whole"},
	{"train", "eps", "e", "number"},
	{"train", "l1-ratio", "", "number"},
	{"train", "max-features", "", "whole"},
	{"train", "seed", "", "unsigned"},
	{"train-sources", "bias", "B", "number"},
	{"train-sources", "c-grid", "", "numbers"},
	{"train-sources", "eps", "e", "number"},
	{"train-sources", "folds", "", "whole"},
	{"train-sources", "l1-ratio", "", "number"},
	{"train-sources", "negative-fraction", "", "number"},
	{"train-sources", "seed", "", "unsigned"},
	{"train-sources", "workers", "", "workers"},
}

// numericMessages are, for each kind of numeric flag, malformed values and
// what the flag's error says of each.
var numericMessages = map[string][][2]string{
	"whole": {
		{"x", `want a whole number, got "x"`},
		{"1.5", `want a whole number, got "1.5"`},
		{"1e3", `want a whole number, got "1e3"`},
		{"", `want a whole number, got ""`},
		{"99999999999999999999", `want a whole number from -9223372036854775808 to 9223372036854775807, got "99999999999999999999"`},
	},
	"wholes": {
		{"x", `want a list of whole numbers separated by commas, got "x"`},
		{"", `want a list of whole numbers separated by commas, got ""`},
		{"2,x", `want a list of whole numbers separated by commas, got "x" as item 2`},
		{"2,,5", `want a list of whole numbers separated by commas, got "" as item 2`},
		{"1.5,2", `want a list of whole numbers separated by commas, got "1.5" as item 1`},
		{"2,99999999999999999999", `want a list of whole numbers from -9223372036854775808 to 9223372036854775807 separated by commas, got "99999999999999999999" as item 2`},
	},
	"number": {
		{"x", `want a number, got "x"`},
		{"1_0", `want a number, got "1_0"`},
		{"", `want a number, got ""`},
		{"1e400", `"1e400" is beyond the largest float64 (1.7976931348623157e+308)`},
	},
	"numbers": {
		{"x", `want a list of numbers separated by commas, got "x"`},
		{"1,x", `want a list of numbers separated by commas, got "x" as item 2`},
		{"1,,10", `want a list of numbers separated by commas, got "" as item 2`},
		{"1,1e400", `item 2: "1e400" is beyond the largest float64 (1.7976931348623157e+308)`},
	},
	"unsigned": {
		{"x", `want a whole number from 0 to 18446744073709551615, got "x"`},
		{"-1", `want a whole number from 0 to 18446744073709551615, got "-1"`},
	},
	"workers": {
		{"x", `want a whole number ≥ 0 (0: GOMAXPROCS, by default one per CPU), got "x"`},
	},
	"lambda": {
		{"x", `want a positive number or auto, got "x"`},
	},
}

// TestNumericFlags: a malformed value of a numeric flag is refused, as the
// flags are parsed, saying what the flag takes and quoting what was given
// (for a list, the wrong item and its position). A signed whole number or
// a list of them gave strconv's message ("strconv.ParseInt: parsing "x":
// invalid syntax", naming no item of a list), a number "\"x\" is not a
// number". numericFlags is checked against the command tree: every
// numeric flag of every command is in it.
func TestNumericFlags(t *testing.T) {
	for _, f := range numericFlags {
		msgs, ok := numericMessages[f.kind]
		if !ok {
			t.Fatalf("%s --%s: no messages for kind %q", f.cmd, f.flag, f.kind)
		}
		name := "--" + f.flag
		if f.short != "" {
			name = "-" + f.short + ", " + name
		}
		for _, m := range msgs {
			var stdout, stderr bytes.Buffer
			code := run([]string{f.cmd, "--" + f.flag, m[0]}, strings.NewReader(""), &stdout, &stderr)
			want := fmt.Sprintf("greedytl: invalid argument %q for %q flag: %s (see 'greedytl %s --help')\n", m[0], name, m[1], f.cmd)
			if code != exitInput || stderr.String() != want {
				t.Errorf("%s --%s %q: exit %d, %q; want exit %d, %q", f.cmd, f.flag, m[0], code, stderr.String(), exitInput, want)
			}
		}
	}
	var listed, found []string
	for _, f := range numericFlags {
		listed = append(listed, f.cmd+" --"+f.flag)
	}
	walkFlags(func(c *cobra.Command, f *pflag.Flag) {
		if isNumericFlag(f) {
			found = append(found, strings.TrimPrefix(c.CommandPath(), "greedytl ")+" --"+f.Name)
		}
	})
	slices.Sort(listed)
	slices.Sort(found)
	if !slices.Equal(listed, found) {
		t.Errorf("numeric flags of the commands:\n%v\nnumericFlags lists:\n%v", found, listed)
	}
}

// isNumericFlag reports whether f takes numbers, by its type (as --help
// names it): int, uint64, float64, intSlice, floats, float|auto, and any
// other int or float type a flag is given.
func isNumericFlag(f *pflag.Flag) bool {
	t := strings.ToLower(f.Value.Type())
	return strings.Contains(t, "int") || strings.Contains(t, "float")
}

// walkFlags calls visit with every flag of every command.
func walkFlags(visit func(c *cobra.Command, f *pflag.Flag)) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { visit(c, f) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard}))
}

// TestNumericFlagsOwned: every numeric flag of every command is read by
// one of numflags.go's types (or a flag that reads its numbers by
// parseWhole or parseNumber), so that none gives strconv's or pflag's
// own message again.
func TestNumericFlagsOwned(t *testing.T) {
	walkFlags(func(c *cobra.Command, f *pflag.Flag) {
		switch f.Value.(type) {
		case *intValue, *intList, *uint64Value, *numberValue, *floatList, *workersValue, *lambdaValue:
		default:
			if isNumericFlag(f) {
				t.Errorf("%s --%s is a %s flag (%T) not read by numflags.go", c.CommandPath(), f.Name, f.Value.Type(), f.Value)
			}
		}
	})
}

// TestNumericFlagSyntax: every whole-number flag reads one syntax, C's
// atoi's (liblinear-train's): decimal digits with an optional sign — no
// base prefix or digit separator, and 017 is seventeen. pflag's IntVar and
// Uint64Var, which the flags of one value read as, took Go's literals
// (--splits 0x10 ran 16 splits, --seed 017 was seed 15, 1_000 was 1000)
// where the lists' items and --workers did not (--positives 0x10 was
// refused). A list's items are trimmed of blank space ("2, 5, 10"), as
// --c-grid's were and the integer lists' were not; a value of one number
// is not. The flags show their values, defaults in --help, as pflag's.
func TestNumericFlagSyntax(t *testing.T) {
	const refused = "refused"
	for _, tc := range []struct {
		in            string
		whole, unsign string // the value read by intVarP and uint64Var, or refused
		item          string // by intsVar as the second item of "1,in"
	}{
		{"0", "0", "0", "0"},
		{"7", "7", "7", "7"},
		{"-3", "-3", refused, "-3"},
		{"+3", "3", "3", "3"}, // uint64Var refused it: pflag's ParseUint reads no sign
		{"017", "17", "17", "17"},
		{"0x10", refused, refused, refused},
		{"0X1f", refused, refused, refused},
		{"0o17", refused, refused, refused},
		{"0b101", refused, refused, refused},
		{"1_000", refused, refused, refused},
		{"0x_10", refused, refused, refused},
		{"++3", refused, refused, refused},
		{"+-3", refused, refused, refused},
		{" 3", refused, refused, "3"},
		{"3 ", refused, refused, "3"},
		{"\t3\n", refused, refused, "3"},
		{"1e3", refused, refused, refused},
		{"1.5", refused, refused, refused},
		{"", refused, refused, refused},
		{" ", refused, refused, refused},
		{"x", refused, refused, refused},
		{"٣", refused, refused, refused},
		{"9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807"},
		{"9223372036854775808", refused, "9223372036854775808", refused},
		{"-9223372036854775808", "-9223372036854775808", refused, "-9223372036854775808"},
		{"18446744073709551615", refused, "18446744073709551615", refused},
		{"18446744073709551616", refused, refused, refused},
	} {
		fl := pflag.NewFlagSet("test", pflag.ContinueOnError)
		var n, w int
		var u uint64
		var l []int
		intVarP(fl, &n, "n", "", 5, "")
		uint64Var(fl, &u, "u", 1, "")
		intsVar(fl, &l, "l", nil, "")
		c := &cobra.Command{}
		workersVar(c, &w, "")
		read := func(name, value string, v *pflag.Flag) string {
			if err := fl.Set(name, value); err != nil {
				return refused
			}
			return v.Value.String()
		}
		if got := read("n", tc.in, fl.Lookup("n")); got != tc.whole {
			t.Errorf("intVarP %q: %s, want %s", tc.in, got, tc.whole)
		}
		if got := read("u", tc.in, fl.Lookup("u")); got != tc.unsign {
			t.Errorf("uint64Var %q: %s, want %s", tc.in, got, tc.unsign)
		}
		wantItem := refused
		if tc.item != refused {
			wantItem = "[1," + tc.item + "]"
		}
		if got := read("l", "1,"+tc.in, fl.Lookup("l")); got != wantItem {
			t.Errorf("intsVar %q: %s, want %s", "1,"+tc.in, got, wantItem)
		}
		wantWorkers := tc.whole
		if strings.HasPrefix(tc.whole, "-") {
			wantWorkers = refused
		}
		got := refused
		if err := c.Flags().Set("workers", tc.in); err == nil {
			got = c.Flags().Lookup("workers").Value.String()
		}
		if got != wantWorkers {
			t.Errorf("--workers %q: %s, want %s", tc.in, got, wantWorkers)
		}
	}
	// The values shown, and how a list's values add up: as pflag's.
	ours, theirs := pflag.NewFlagSet("ours", pflag.ContinueOnError), pflag.NewFlagSet("pflag", pflag.ContinueOnError)
	var a, b int
	var u, v uint64
	intVarP(ours, &a, "n", "", 5, "")
	theirs.IntVarP(&b, "n", "", 5, "")
	uint64Var(ours, &u, "u", 1, "")
	theirs.Uint64Var(&v, "u", 1, "")
	for _, name := range []string{"n", "u"} {
		if ours.Lookup(name).DefValue != theirs.Lookup(name).DefValue {
			t.Errorf("default shown %q, pflag %q", ours.Lookup(name).DefValue, theirs.Lookup(name).DefValue)
		}
	}
	lists := [][]string{{"2,5,10"}, {"2"}, {"-1,0"}, {"0x10"}, {"1_0"}, {"2,,5"}, {""}, {","}, {"+2"},
		{"99999999999999999999"}, {"2", "5,6"}, {"2", "x"}, {"1", "2", "3"}}
	for _, def := range [][]int{nil, {}, {0}, {2, 5, 10}} {
		for _, sets := range lists {
			ours, theirs := pflag.NewFlagSet("ours", pflag.ContinueOnError), pflag.NewFlagSet("pflag", pflag.ContinueOnError)
			var a, b []int
			intsVar(ours, &a, "l", def, "")
			theirs.IntSliceVar(&b, "l", def, "")
			fa, fb := ours.Lookup("l"), theirs.Lookup("l")
			if fa.DefValue != fb.DefValue {
				t.Errorf("default %v shown %q, pflag %q", def, fa.DefValue, fb.DefValue)
			}
			for _, s := range sets {
				errA, errB := ours.Set("l", s), theirs.Set("l", s)
				if (errA == nil) != (errB == nil) {
					t.Errorf("default %v, values %q, at %q: %v; pflag: %v", def, sets, s, errA, errB)
					break
				}
				if errA != nil {
					break // the command stops at the error
				}
				if !slices.Equal(a, b) || fa.Value.String() != fb.Value.String() {
					t.Errorf("default %v, values %q, at %q: %v (%s), %v; pflag: %v (%s), %v", def, sets, s, a, fa.Value, errA, b, fb.Value, errB)
				}
			}
		}
	}
}

// TestGreedyFlagValueAsTyped checks that fit's refusal of a GreedyTL
// flag's value, once read (beyond 2³¹−1, below 0, in conflict with
// --method), quotes the value as it was typed, as
// docs/conventions.md says a refused value is quoted; it quoted the
// number read, in its shortest form ("--max-k 2.147483648e+09").
func TestGreedyFlagValueAsTyped(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-k", "2147483648"}, "greedytl: --max-k 2147483648: "},
		{[]string{"--sample", "+03000000000"}, "greedytl: --sample +03000000000: "},
		{[]string{"--delta", "-1e-0"}, "greedytl: --delta -1e-0: "},
		{[]string{"--lambda", "1E-3", "--method", "greedytl:lambda=2"}, "greedytl: --lambda 1E-3 conflicts with lambda=2"},
		{[]string{"--lambda", "AUTO", "--method", "greedytl:lambda=2"}, "greedytl: --lambda AUTO conflicts with"},
		{[]string{"--gamma", "0.50", "--method", "greedytl:gamma=2"}, "greedytl: --gamma 0.50 conflicts with gamma=2"},
	} {
		args := append([]string{"fit", "--features", "X.npy", "--labels", "y.txt"}, tc.args...)
		if code, _, stderr := cli(t, "", args...); code != 2 || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
