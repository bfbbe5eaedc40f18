// Package number holds greedytl's rules for numbers written as text: Parse,
// the syntax of a number in a data file (C's strtod's, which liblinear
// reads, for every number a program writes), and ParseSetting, the rule for a number a user types as a
// setting (a flag's value, a method spec's key=value), which must also
// mean the number written. Every reader of numbers in user files (the
// svmlight, CSV and label readers of package dataset, linear's model-file
// reader) reads them by Parse; docs/conventions.md states the syntax.
package number

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Parse parses s as C's strtod, and so liblinear, reads a number:
// strconv.ParseFloat's syntax without Go's digit separators ("1_0", which
// ParseFloat reads as 10 and strtod stops at), for a 64-bit float. (Two
// forms strtod reads and no program writes for a float are refused:
// hexadecimal without a p exponent, "0x10", and "nan(…)".) Its
// error is ParseFloat's (strconv.ErrSyntax for a separator, ErrRange for
// a literal beyond ±MaxFloat64, with ±Inf). NaN and infinities are
// accepted, as by ParseFloat: what they mean is the caller's business.
func Parse(s string) (float64, error) {
	if strings.IndexByte(s, '_') >= 0 {
		return 0, &strconv.NumError{Func: "ParseFloat", Num: strings.Clone(s), Err: strconv.ErrSyntax}
	}
	return strconv.ParseFloat(s, 64)
}

// ParseSetting parses a number a user typed as a setting, in Parse's
// syntax, and returns an error, quoting s ("\"1e-400\" is not zero but
// rounds to 0 in float64"), for anything but a finite number that is
// the one written: not a number, NaN or an infinity, a literal beyond
// ±MaxFloat64 (which would be ±Inf) and a literal that is not zero but
// rounds to 0 (1e-400: delta=1e-400 would silently be delta=0). Only the
// error of a string that is not a number (in Parse's syntax) wraps
// strconv.ErrSyntax.
func ParseSetting(s string) (float64, error) {
	x, err := Parse(s)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(x, 0):
		return 0, fmt.Errorf("%q is beyond the largest float64 (%g)", s, math.MaxFloat64)
	case err != nil:
		return 0, &notNumberError{s}
	case math.IsNaN(x) || math.IsInf(x, 0):
		return 0, fmt.Errorf("%q is not finite", s)
	case x == 0 && !zeroLiteral(s):
		return 0, fmt.Errorf("%q is not zero but rounds to 0 in float64 (the smallest is %g)", s, math.SmallestNonzeroFloat64)
	}
	return x, nil
}

// notNumberError is ParseSetting's error for a string that is not a
// number: it quotes the string and wraps strconv.ErrSyntax, so that a
// caller can word a syntax error its own way (a flag that also takes a
// word: "want a positive number or auto").
type notNumberError struct{ s string }

func (e *notNumberError) Error() string { return fmt.Sprintf("%q is not a number", e.s) }

func (e *notNumberError) Unwrap() error { return strconv.ErrSyntax }

// zeroLiteral reports whether the number literal s (that ParseFloat took)
// writes zero: no digit of its mantissa is other than 0.
func zeroLiteral(s string) bool {
	s = strings.TrimLeft(s, "+-")
	exp := "eE"
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s, exp = s[2:], "pP"
	}
	if k := strings.IndexAny(s, exp); k >= 0 {
		s = s[:k]
	}
	return strings.Trim(s, "0.") == ""
}
