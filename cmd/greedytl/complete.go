package main

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/method"
)

// Shell completion (cobra's "greedytl completion SHELL" scripts, which ask
// the hidden command __complete): a flag of a closed set of values
// completes them (flagValues), a flag that names a file completes paths
// and one that names a directory directories (fileFlags, dirFlags, marked
// where the flags are made), and any other flag nothing, where the shells
// offered the current directory's files for --seed or --method.

// isCompletionRequest reports whether the command line args is a shell's
// request for completions (cobra's __complete, __completeNoDesc).
func isCompletionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// fileFlags marks the flags names of fl as naming a file: their values
// complete as paths (cobra's default).
func fileFlags(fl *pflag.FlagSet, names ...string) {
	for _, n := range names {
		_ = cobra.MarkFlagFilename(fl, n)
	}
}

// dirFlags marks the flags names of fl as naming a directory: their values
// complete as directories.
func dirFlags(fl *pflag.FlagSet, names ...string) {
	for _, n := range names {
		_ = cobra.MarkFlagDirname(fl, n)
	}
}

// isPathFlag reports whether f was marked by fileFlags or dirFlags.
func isPathFlag(f *pflag.Flag) bool {
	_, file := f.Annotations[cobra.BashCompFilenameExt]
	_, dir := f.Annotations[cobra.BashCompSubdirsInDir]
	return file || dir
}

// registerCompletions registers the completion of every flag of the
// command tree root that takes a value and is not a path flag: its values
// (flagValues), or none. It is called for a completion request only
// (isCompletionRequest): cobra keeps the functions in a map of its own for
// the life of the process, which every command line run in one process
// (the tests) would otherwise fill with its flags.
func registerCompletions(root *cobra.Command) {
	cmds := []*cobra.Command{root}
	for len(cmds) > 0 {
		c := cmds[0]
		cmds = append(cmds[1:], c.Commands()...)
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.NoOptDefVal != "" || isPathFlag(f) { // a bool flag takes no value
				return
			}
			if _, ok := c.GetFlagCompletionFunc(f.Name); ok {
				return
			}
			fn := flagValues(f.Name)
			if fn == nil {
				fn = cobra.NoFileCompletions
			}
			_ = c.RegisterFlagCompletionFunc(f.Name, fn)
		})
	}
}

// flagValues returns the completion of the flag name when its values are
// a closed set, each from its owner: --method the registered methods (the
// multi-class ones too, which fit takes for three or more classes),
// --methods a comma-separated list of them (experiment --protocol nway's
// with the multi-class ones), --protocol the experiment protocols,
// --labels-header and --features-header the header rules, --format report's documents and
// -s/--solver the solvers; nil for another flag.
func flagValues(name string) cobra.CompletionFunc {
	switch name {
	case "method":
		return fixed(methodCompletions(method.MultiNames()))
	case "methods":
		return completeList(func(c *cobra.Command) []cobra.Completion {
			if p := c.Flags().Lookup("protocol"); p != nil && p.Value.String() == experiment.ProtocolNWay {
				return methodCompletions(method.MultiNames())
			}
			return methodCompletions(method.Names())
		})
	case "protocol":
		return fixed(experiment.Protocols())
	case "labels-header", "features-header":
		return fixed(dataset.HeaderRuleNames())
	case "format":
		return completeList(func(*cobra.Command) []cobra.Completion { return slices.Clone(reportFormats) })
	case "solver":
		return fixed(solverCompletions())
	}
	return nil
}

// methodCompletions returns the registered methods names, each with its
// description.
func methodCompletions(names []string) []cobra.Completion {
	comps := make([]cobra.Completion, len(names))
	for i, n := range names {
		r, _ := method.Registered(n)
		comps[i] = cobra.CompletionWithDesc(n, r.Description)
	}
	return comps
}

// solverCompletions returns the values of -s: each solver's number, with
// its liblinear name, and greedytl's short names (solverAliases).
func solverCompletions() []cobra.Completion {
	var comps []cobra.Completion
	for _, s := range linear.Solvers() {
		comps = append(comps, cobra.CompletionWithDesc(strconv.Itoa(int(s)), s.String()))
	}
	for _, a := range slices.Sorted(maps.Keys(solverAliases)) {
		comps = append(comps, cobra.CompletionWithDesc(a, solverAliases[a].String()))
	}
	return comps
}

// fixed completes a flag's value from comps, those that start with what
// is typed, and no file.
func fixed(comps []cobra.Completion) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return matching(comps, "", toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeList completes the last item of a comma-separated list flag
// from items, but for those the list already holds: the items typed
// before it are kept, and no space follows, for a comma and another item.
// A method spec's settings ("greedytl:delta=0.01", and a setting after a
// comma, "lambda=10") complete nothing. After a comma the values carry no
// description: bash's script of cobra, given descriptions, quotes each
// value with printf %q, which bash 5.2 writes "greedytl\,no-transfer",
// a value that does not start with the "greedytl,no-" typed, so bash
// offered nothing; without descriptions it takes the values as they are.
func completeList(items func(c *cobra.Command) []cobra.Completion) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		k := strings.LastIndexByte(toComplete, ',') + 1
		if strings.ContainsAny(toComplete[k:], ":=") {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// Items are trimmed, as the flags read them (trimItems): "a, b"
		// completes "b", the blank before it kept in what is typed.
		given := trimItems(strings.Split(toComplete[:k], ","))
		k += len(toComplete[k:]) - len(strings.TrimLeft(toComplete[k:], " \t"))
		left := slices.DeleteFunc(items(c), func(it cobra.Completion) bool {
			value, _, _ := strings.Cut(it, "\t")
			return slices.Contains(given, value)
		})
		if k > 0 {
			for i, it := range left {
				left[i], _, _ = strings.Cut(it, "\t")
			}
		}
		return matching(left, toComplete[:k], toComplete[k:]), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// matching returns the completions of comps whose value starts with typed,
// each prefixed with before (a list's earlier items).
func matching(comps []cobra.Completion, before, typed string) []cobra.Completion {
	var out []cobra.Completion
	for _, c := range comps {
		if value, _, _ := strings.Cut(c, "\t"); strings.HasPrefix(value, typed) {
			out = append(out, before+c)
		}
	}
	return out
}
