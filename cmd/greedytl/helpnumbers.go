package main

import (
	"math"
	"strconv"
)

// groupDigits returns n in decimal with its thousands separated by commas,
// as the help texts write counts (20,000; 1,048,576).
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// aboutCount returns n rounded for a help text: "about a million" for
// 1,048,576, "about 2 million" for 2,097,152; below half a million, n
// itself (groupDigits).
func aboutCount(n int) string {
	if n < 500_000 {
		return groupDigits(n)
	}
	if k := math.Round(float64(n) / 1e6); k > 1 {
		return "about " + strconv.FormatFloat(k, 'f', -1, 64) + " million"
	}
	return "about a million"
}
