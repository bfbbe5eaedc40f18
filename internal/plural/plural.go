// Package plural writes counts of things in English: "1 figure", "2
// figures".
package plural

import "strconv"

// Count returns "1 " + one when n is 1, and n and many otherwise ("0
// figures", "3 figures").
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Word(n, one, many)
}

// Word returns one when n is 1 and many otherwise: the word that agrees
// with a count written apart from it ("1 of 3 cells is missing", "2 of 3
// cells are missing").
func Word(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
