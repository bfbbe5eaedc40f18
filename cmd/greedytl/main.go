// Command greedytl selects and combines source classifiers and feature
// dimensions for a new target class from a handful of labelled examples
// (GreedyTL, Kuzborskij, Orabona and Caputo). Run "greedytl help" for the
// commands.
package main

import "os"

func main() {
	stopWithParent()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
