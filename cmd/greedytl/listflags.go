package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// listItems returns the items of a string list flag's value arg: separated
// by commas, quoted as in CSV if need be (as pflag's string lists take
// them, a quoted item after blank space too: `a, "b"`), each trimmed of
// blank space (trimItems); none for "". A value of more than one line is
// refused: the CSV reader would read its first. Its errors name no flag:
// pflag puts the flag and the value in front ("invalid argument ARG for
// FLAG flag: ..."), as for every flag's Set.
func listItems(arg string) ([]string, error) {
	if arg == "" {
		return nil, nil
	}
	r := csv.NewReader(strings.NewReader(arg))
	r.TrimLeadingSpace = true
	items, err := r.Read()
	if err != nil {
		return nil, listError(err)
	}
	if _, err := r.Read(); err != io.EOF {
		return nil, errors.New("items on more than one line: separate them by commas")
	}
	return trimItems(items), nil
}

// listError returns the CSV reader's error err in the words of a list
// flag's items: the column and how to quote, not the reader's "parse error
// on line 1" (a flag's value has one line) and "non-quoted-field".
func listError(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return fmt.Errorf(`column %d: a quote inside an item that does not start with one: quote the whole item, doubling the quotes in it ("a ""b""")`, pe.Column)
	case errors.Is(pe.Err, csv.ErrQuote):
		return fmt.Errorf(`column %d: a quoted item not closed, or text after its closing quote: end the item with its quote (doubling the quotes in it) before the next comma`, pe.Column)
	}
	return fmt.Errorf("column %d: %v", pe.Column, pe.Err)
}

// trimItems trims each of a list flag's items of blank space, in place,
// and returns them: the one rule of every list flag (listItems, parseList),
// so that "a, b" lists "b", not " b".
func trimItems(items []string) []string {
	for k, it := range items {
		items[k] = strings.TrimSpace(it)
	}
	return items
}

// listFlag is a list flag of words: listItems' items, class names
// (--targets, --negative-classes), documents (report's --format) or
// method specs (--methods, join: joinSettings). Each use of the flag
// appends; when the flag has a default, its first use replaces it, as
// pflag's string lists do.
type listFlag struct {
	items *[]string
	def   bool                    // items starts as the flag's default, which the help shows as "[md,html]"
	set   bool                    // the flag was given: Set appends
	join  func([]string) []string // nil, or what makes listItems' parts the items
}

// String returns the items as the flag takes them ("" for none, which the
// help then shows as no default), a flag's default as the help shows
// pflag's string lists ("[md,html]").
func (l *listFlag) String() string {
	if l.items == nil {
		return ""
	}
	if l.def {
		return "[" + strings.Join(*l.items, ",") + "]"
	}
	return strings.Join(*l.items, ",")
}

// Type returns the flag's type as the help names it, that of pflag's
// string lists.
func (l *listFlag) Type() string { return "strings" }

// Set reads the items of arg, a list (listItems; joined by join): they
// replace the default at the flag's first use and are appended otherwise.
func (l *listFlag) Set(arg string) error {
	items, err := listItems(arg)
	if err != nil {
		return err
	}
	if l.join != nil {
		items = l.join(items)
	}
	if l.def && !l.set {
		*l.items = nil
	}
	l.set = true
	*l.items = append(*l.items, items...)
	return nil
}

// wordsVar adds the word-list flag name (report's --format), a listFlag,
// to fl, with the default def.
func wordsVar(fl *pflag.FlagSet, words *[]string, def []string, name, usage string) {
	*words = def
	fl.Var(&listFlag{items: words, def: true}, name, usage)
}

// classesVar adds the class-name list flag name, a listFlag, to fl.
func classesVar(fl *pflag.FlagSet, names *[]string, name, usage string) {
	fl.Var(&listFlag{items: names}, name, usage)
}

// joinSettings returns the method specs of a --methods flag's parts. A
// spec's settings are separated by commas too
// ("greedytl:delta=0.001,lambda=10"), so a part that holds "=" but no
// ":", after a spec with settings, is one more setting of that spec:
// "greedytl:delta=0.001,lambda=10,no-transfer" is two specs.
func joinSettings(parts []string) []string {
	var specs []string
	for _, p := range parts {
		if n := len(specs); n > 0 && strings.Contains(specs[n-1], ":") && strings.Contains(p, "=") && !strings.Contains(p, ":") {
			specs[n-1] += "," + p
			continue
		}
		specs = append(specs, p)
	}
	return specs
}

// emptyMethods returns an input error when --methods was given but names
// no method (emptyList): left out, it means every method, which takes
// hours, not what a script's unset variable should start.
func emptyMethods(c *cobra.Command, methods []string) error {
	return emptyList(c, "methods", methods, "method", "method specs", "to run every method")
}

// methodsVar adds the --methods flag, a listFlag of method specs
// (joinSettings), to c.
func methodsVar(c *cobra.Command, methods *[]string, usage string) {
	c.Flags().Var(&listFlag{items: methods, join: joinSettings}, "methods", usage)
}
