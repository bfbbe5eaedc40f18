// Package plural writes counts of things in English: "1 figure", "2
// figures".
package plural

import "strconv"

// Count returns "1 " + one when n is 1, and n and many otherwise ("0
// figures", "3 figures").
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
