package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/greedytl/greedytl/internal/number"
)

// The numeric flags of every command are read here: a whole number
// (intVarP, uint64Var, workersVar), a number (numberVarP), a list of
// either (intsVar, floatList), and through parseWhole and parseNumber the
// flags that take a number among other things (--lambda, train's --solver
// and --weight). One rule for all, C's (atoi, strtol in base 10, strtod:
// liblinear-train's): a whole number is decimal digits with an optional
// sign — no base prefix (0x10, 0o17, 0b11), no digit separator (1_000),
// and 017 is seventeen —, a number is number.ParseSetting's, and a list's
// items are separated by commas, blank space around each trimmed (as
// "2, 5, 10" is typed); a value of one number is taken as given. A value
// a flag cannot take is refused, as the flags are parsed, with a message
// that says what the flag takes and quotes what was given ("want a whole
// number, got "x""), not strconv's ("strconv.ParseInt: parsing "x":
// invalid syntax"), and for a list, which item is wrong. TestNumericFlags
// holds every numeric flag of every command to these types.

// numberKind is what a numeric flag takes, as its messages say it: one
// for a flag of one value ("a whole number"), many for a list flag's items
// ("whole numbers").
type numberKind struct{ one, many string }

// The kinds of numbers a flag takes: wholeRange gives a whole number's
// bounds.
var (
	aWholeNumber = numberKind{"a whole number", "whole numbers"}
	aNumber      = numberKind{"a number", "numbers"}
	aWorkerCount = numberKind{"a whole number ≥ 0 (" + workersZero + ")", ""} // --workers
)

// wholeRange is a whole number from lo to hi.
func wholeRange[T int | uint64](lo, hi T) numberKind {
	r := fmt.Sprintf(" from %d to %d", lo, hi)
	return numberKind{aWholeNumber.one + r, aWholeNumber.many + r}
}

// numberError is the error of a numeric flag's value, or of an item of a
// list flag's value, that the flag cannot take: want is what it takes and
// got what was given. reason, when set, is said instead of want: why a
// number is not one the flag can hold (number.ParseSetting's message,
// which quotes got). item and items, for a list, are the wrong item's
// position (from 1) and the number of items; items is 0 for a flag of
// one value.
type numberError struct {
	want        numberKind
	got, reason string
	item, items int
}

func (e *numberError) Error() string {
	switch {
	case e.items == 0 && e.reason != "":
		return e.reason
	case e.items == 0:
		return fmt.Sprintf("want %s, got %q", e.want.one, e.got)
	case e.items == 1 && e.reason != "":
		return e.reason
	case e.reason != "":
		return fmt.Sprintf("item %d: %s", e.item, e.reason)
	case e.items == 1:
		return fmt.Sprintf("want a list of %s separated by commas, got %q", e.want.many, e.got)
	}
	return fmt.Sprintf("want a list of %s separated by commas, got %q as item %d", e.want.many, e.got, e.item)
}

// parseWhole reads s as a whole-number flag's value: decimal digits with
// an optional sign (strconv.ParseInt in base 10, as C's atoi reads a
// number), nothing else — no base prefix or digit separator, no blank
// space.
func parseWhole(s string) (int, error) {
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, &numberError{want: wholeRange(math.MinInt, math.MaxInt), got: s}
	case err != nil:
		return 0, &numberError{want: aWholeNumber, got: s}
	}
	return int(n), nil
}

// parseUnsigned reads s as an unsigned flag's value, as parseWhole reads a
// whole number (decimal digits, a "+" allowed); its message gives the
// bounds, which a negative number is below.
func parseUnsigned(s string) (uint64, error) {
	digits, _ := strings.CutPrefix(s, "+") // ParseUint reads no sign
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, &numberError{want: wholeRange(0, uint64(math.MaxUint64)), got: s}
	}
	return n, nil
}

// parseNumber reads s as a number flag's value, by number.ParseSetting;
// what is not a number is refused as not want (what the flag takes), the
// rest (not finite, beyond float64, rounding to 0) with ParseSetting's
// message.
func parseNumber(s string, want numberKind) (float64, error) {
	x, err := number.ParseSetting(s)
	switch {
	case errors.Is(err, strconv.ErrSyntax):
		return 0, &numberError{want: want, got: s}
	case err != nil:
		return 0, &numberError{want: want, got: s, reason: err.Error()}
	}
	return x, nil
}

// parseList reads the list flag value s, whose items are separated by
// commas, each trimmed of blank space (trimItems) and read by parse, whose
// error (a numberError) is given the wrong item's position.
func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	items := trimItems(strings.Split(s, ","))
	vals := make([]T, len(items))
	for k, it := range items {
		v, err := parse(it)
		if err != nil {
			if ne, ok := errors.AsType[*numberError](err); ok {
				ne.item, ne.items = k+1, len(items)
			}
			return nil, err
		}
		vals[k] = v
	}
	return vals, nil
}

// intValue is a whole-number flag, read by parseWhole and shown as
// pflag's IntVar shows it; typed is the text it was last set from.
type intValue struct {
	p     *int
	typed string
}

func (v *intValue) String() string { return strconv.Itoa(*v.p) }

func (v *intValue) Set(s string) error {
	n, err := parseWhole(s)
	if err != nil {
		return err
	}
	*v.p, v.typed = n, s
	return nil
}

func (v *intValue) Type() string { return "int" }

func (v *intValue) typedText() string { return v.typed }

// intVarP defines the whole-number flag name (shorthand short, or none
// when "") of fl, stored in p, with default def: pflag's IntVarP, with
// parseWhole's messages.
func intVarP(fl *pflag.FlagSet, p *int, name, short string, def int, usage string) {
	*p = def
	fl.VarP(&intValue{p: p}, name, short, usage)
}

// typedText returns the text the flag name of fl was given as, as typed
// (a value refused later, once read, is quoted so: --max-k 2147483648,
// not 2.147483648e+09), for the flags that keep it (intValue,
// numberValue, lambdaValue), else, or before it is set, its value as
// pflag shows it.
func typedText(fl *pflag.FlagSet, name string) string {
	f := fl.Lookup(name)
	if t, ok := f.Value.(interface{ typedText() string }); ok && t.typedText() != "" {
		return t.typedText()
	}
	return f.Value.String()
}

// intList is a list of whole numbers flag: items separated by commas,
// each read by parseWhole (parseList); as pflag's IntSliceVar, the first
// value given replaces the default and each further one (--positives 2
// --positives 5) adds its items. It is shown as pflag shows it,
// "[2,5,10]", and has its type, "intSlice" (which --help shows as "ints").
type intList struct {
	p       *[]int
	changed bool
}

func (l *intList) String() string {
	parts := make([]string, len(*l.p))
	for k, n := range *l.p {
		parts[k] = strconv.Itoa(n)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func (l *intList) Set(s string) error {
	vals, err := parseList(s, parseWhole)
	if err != nil {
		return err
	}
	if l.changed {
		vals = append(*l.p, vals...)
	}
	*l.p, l.changed = vals, true
	return nil
}

func (l *intList) Type() string { return "intSlice" }

// intsVar defines the list of whole numbers flag name of fl, stored in p,
// with default def: pflag's IntSliceVar, with parseList's messages.
func intsVar(fl *pflag.FlagSet, p *[]int, name string, def []int, usage string) {
	*p = def
	fl.Var(&intList{p: p}, name, usage)
}

// uint64Value is an unsigned flag (--seed), read by parseUnsigned as
// pflag reads a uint64. Every unsigned flag of every command is one
// (uint64Var).
type uint64Value uint64

func (v *uint64Value) String() string { return strconv.FormatUint(uint64(*v), 10) }

func (v *uint64Value) Set(s string) error {
	n, err := parseUnsigned(s)
	if err != nil {
		return err
	}
	*v = uint64Value(n)
	return nil
}

func (v *uint64Value) Type() string { return "uint64" }

// uint64Var defines the unsigned flag name of fl, stored in p, with
// default def: pflag's Uint64Var, with parseUnsigned's message.
func uint64Var(fl *pflag.FlagSet, p *uint64, name string, def uint64, usage string) {
	*p = def
	fl.Var((*uint64Value)(p), name, usage)
}

// numberValue is a float64 flag read by parseNumber (number.ParseSetting,
// the rule for numbers a user types: no digit separators; 1e-400, which
// would be 0, and 1e400 refused), shown as pflag shows a float64; typed is
// the text it was last set from.
type numberValue struct {
	p     *float64
	typed string
}

func (v *numberValue) String() string { return strconv.FormatFloat(*v.p, 'g', -1, 64) }

func (v *numberValue) Set(s string) error {
	x, err := parseNumber(s, aNumber)
	if err != nil {
		return err
	}
	*v.p, v.typed = x, s
	return nil
}

func (v *numberValue) Type() string { return "float64" }

func (v *numberValue) typedText() string { return v.typed }

// numberVarP defines the float64 flag name (shorthand short, or none when
// "") of c, stored in p, with default def: pflag's Float64VarP, read by
// parseNumber.
func numberVarP(c *cobra.Command, p *float64, name, short string, def float64, usage string) {
	*p = def
	c.Flags().VarP(&numberValue{p: p}, name, short, usage)
}

// floatList is a list of numbers flag (--c-grid): items separated by
// commas, each read by parseNumber (parseList); a value replaces the
// list. It is shown in %g form, "0.1,1,10".
type floatList []float64

func (l *floatList) String() string {
	parts := make([]string, len(*l))
	for k, v := range *l {
		parts[k] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

func (l *floatList) Set(s string) error {
	vals, err := parseList(s, func(it string) (float64, error) { return parseNumber(it, aNumber) })
	if err != nil {
		return err
	}
	*l = vals
	return nil
}

func (l *floatList) Type() string { return "floats" }

// workersValue is the --workers flag: a number of goroutines, 0 for one
// per CPU, read by parseWhole; a negative number is refused when the flag
// is parsed.
type workersValue int

func (w *workersValue) String() string { return strconv.Itoa(int(*w)) }

func (w *workersValue) Set(s string) error {
	n, err := parseWhole(s)
	if err != nil || n < 0 {
		return &numberError{want: aWorkerCount, got: s}
	}
	*w = workersValue(n)
	return nil
}

func (w *workersValue) Type() string { return "int" }

// workersZero says what --workers 0, its default, stands for
// (parallel.Count), in the flag's help and in its parse error alike.
const workersZero = "0: GOMAXPROCS, by default one per CPU"

// workersVar registers --workers on c, storing into p; usage says what
// works at once, and the flag's help adds what 0, its default, stands for
// (parallel.Count: GOMAXPROCS, as greedytl's help says).
func workersVar(c *cobra.Command, p *int, usage string) {
	c.Flags().Var((*workersValue)(p), "workers", usage+" ("+workersZero+")")
}
