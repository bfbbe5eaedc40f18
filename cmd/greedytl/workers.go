package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
)

// workersValue is the --workers flag: a number of goroutines, 0 for one
// per CPU; read by parseWhole in decimal digits (as strconv.Atoi read it),
// a negative number is refused when the flag is parsed.
type workersValue int

func (w *workersValue) String() string { return strconv.Itoa(int(*w)) }

func (w *workersValue) Set(s string) error {
	n, err := parseWhole(s, 10)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number ≥ 0 (0: one per CPU), got %q", s)
	}
	*w = workersValue(n)
	return nil
}

func (w *workersValue) Type() string { return "int" }

// addWorkersFlag registers --workers on c, storing into p.
func addWorkersFlag(c *cobra.Command, p *int, usage string) {
	c.Flags().Var((*workersValue)(p), "workers", usage)
}
