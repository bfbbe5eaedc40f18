// Package validate holds the one check of a training sample — features X,
// source scores H and labels y — that the root package's Fit and every
// method of package method apply at their boundary, so that the same bad
// input gets the same message whichever entry point it reaches.
//
// Its messages carry no package prefix: the caller puts its own in front,
// once ("greedytl.Fit: ", "method: "). Rows and columns count from 0. X or H
// may be absent (inputcheck.Absent), meaning no features or no sources.
package validate

import (
	"fmt"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// Dims returns the dimensions of a, or (0, 0) when a is absent or has no
// rows or no columns: an absent matrix and one without columns both mean
// "no columns", and so does one without rows, whatever its columns (a
// sample's block; a block that is given is checked by Shapes). It is
// inputcheck.Dims, the one reader of a possibly absent matrix's
// dimensions, with that rule added: standardize needs a 0×c matrix's c.
func Dims(a mat.Matrix) (r, c int) {
	if r, c = inputcheck.Dims(a); r == 0 || c == 0 {
		return 0, 0
	}
	return r, c
}

// Shapes checks that X and H, either of which may be absent, have m rows
// each and together at least one column, and returns their numbers of
// columns d and n. A matrix with columns but no rows is not absent: for
// m > 0 its rows are wrong.
func Shapes(X, H mat.Matrix, m int) (d, n int, err error) {
	var rows, cols [2]int // Dims of X and H, each matrix looked at once
	for k, a := range []struct {
		name string
		A    mat.Matrix
	}{{"X", X}, {"H", H}} {
		if inputcheck.Absent(a.A) {
			continue
		}
		r, c := a.A.Dims()
		if r == 0 && c > 0 && m > 0 {
			return 0, 0, fmt.Errorf("%s has 0 rows but y has %d labels", a.name, m)
		}
		if r > 0 && c > 0 {
			rows[k], cols[k] = r, c
		}
	}
	d, n = cols[0], cols[1]
	switch {
	case d+n == 0:
		return 0, 0, fmt.Errorf("no candidate columns: X and H are both absent")
	case d > 0 && rows[0] != m:
		return 0, 0, fmt.Errorf("X has %d rows but y has %d labels", rows[0], m)
	case n > 0 && rows[1] != m:
		return 0, 0, fmt.Errorf("H has %d rows but y has %d labels", rows[1], m)
	}
	return d, n, nil
}

// Labels checks that the labels y are +1 or −1 and returns the numbers of
// each.
func Labels(y []float64) (pos, neg int, err error) {
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
			neg++
		default:
			return 0, 0, fmt.Errorf("y row %d is %v: labels must be +1 or -1", i, v)
		}
	}
	return pos, neg, nil
}

// Binary checks that the labels y are +1 or −1 (Labels) with both classes
// present, so at least 2 of them, and returns the numbers of each.
func Binary(y []float64) (pos, neg int, err error) {
	if len(y) < 2 {
		return 0, 0, fmt.Errorf("need at least 2 training examples (one of each class), got %d", len(y))
	}
	if pos, neg, err = Labels(y); err != nil {
		return 0, 0, err
	}
	if pos == 0 || neg == 0 {
		return 0, 0, fmt.Errorf("y holds one class only (%d positive, %d negative): both +1 and -1 are needed", pos, neg)
	}
	return pos, neg, nil
}

// Sample checks a labelled binary training sample: X and H have one row
// per label and at least one column between them (Shapes), and y is ±1
// with both classes (Binary). It does not check that X and H are finite
// (Finite does). It returns the numbers of examples m, features d and
// sources n.
func Sample(X, H mat.Matrix, y []float64) (m, d, n int, err error) {
	m = len(y)
	if _, _, err := Binary(y); err != nil {
		return 0, 0, 0, err
	}
	if d, n, err = Shapes(X, H, m); err != nil {
		return 0, 0, 0, err
	}
	return m, d, n, nil
}

// Finite returns a *inputcheck.NonFiniteError naming the first NaN or ±Inf
// element of X, then of H (inputcheck.CheckFinite), or nil.
func Finite(X, H mat.Matrix) error {
	if err := inputcheck.CheckFinite("X", X); err != nil {
		return err
	}
	return inputcheck.CheckFinite("H", H)
}

// AllConstant reports whether every column of X and H (an absent or
// zero-column one skipped) is constant on its rows by the rule every
// standardisation applies (standardize.Constant): a sample from which no
// method can tell the classes apart (greedytl.Fit finds no candidate in
// it). It stops at the first column that varies, so a sample that can be
// learnt costs a column or two.
func AllConstant(X, H mat.Matrix) bool {
	for _, a := range []mat.Matrix{X, H} {
		r, c := Dims(a)
		col := make([]float64, r)
		for j := range c {
			mat.Col(col, j, a)
			if mean, std, ok := standardize.Moments(col); !ok || !standardize.Constant(mean, std) {
				return false // a column that varies, or one Finite refuses
			}
		}
	}
	return true
}
