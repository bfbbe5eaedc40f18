package main

import (
	"encoding/csv"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// specList is a --methods flag: method specs separated by commas. A spec's
// settings are separated by commas too ("greedytl:delta=0.001,lambda=10"),
// so a part that holds "=" but no ":", after a spec with settings, is one
// more setting of that spec: "greedytl:delta=0.001,lambda=10,no-transfer"
// is two specs. Parts may be quoted as in CSV, as pflag's string lists
// allow, and are trimmed of blank space. Each use of the flag appends.
type specList []string

// String returns the specs as the flag takes them ("" for none, which the
// help then shows as no default).
func (l *specList) String() string { return strings.Join(*l, ",") }

func (l *specList) Type() string { return "strings" }

func (l *specList) Set(arg string) error {
	if arg == "" {
		return nil
	}
	parts, err := csv.NewReader(strings.NewReader(arg)).Read()
	if err != nil {
		return fmt.Errorf("methods %q: %w", arg, err)
	}
	var specs []string
	for _, p := range parts {
		p = strings.TrimSpace(p) // as the number lists' items are (parseList)
		if n := len(specs); n > 0 && strings.Contains(specs[n-1], ":") && strings.Contains(p, "=") && !strings.Contains(p, ":") {
			specs[n-1] += "," + p
			continue
		}
		specs = append(specs, p)
	}
	*l = append(*l, specs...)
	return nil
}

// emptyMethods returns an input error when --methods was given but names
// no method (emptyList): left out, it means every method, which takes
// hours, not what a script's unset variable should start.
func emptyMethods(c *cobra.Command, methods []string) error {
	return emptyList(c, "methods", methods, "method", "method specs", "to run every method")
}

// methodsVar adds the --methods flag, a specList, to c.
func methodsVar(c *cobra.Command, methods *[]string, usage string) {
	c.Flags().Var((*specList)(methods), "methods", usage)
}
